// The VS Code extension's rule for a work directory's core folders (vscode/place.js) is
// birlink's own (`model::place::CoreId::parse`): both are held to the fixture
// tests/data/places.json (the Rust side by crates/birlink-core/tests/it/places.rs).
// A plain Node test: place.js has no VS Code API.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { isCoreFolder, byName } = require('../../vscode/place.js');
const fixture = JSON.parse(readFileSync(new URL('../data/places.json', import.meta.url), 'utf8'));

test('a core folder is what birlink reads as a core, every spelling', () => {
  assert.ok(fixture.components.length > 20);
  for (const { text, core } of fixture.components) {
    assert.equal(isCoreFolder(text), core !== null, `${JSON.stringify(text)}: birlink reads core ${core}`);
  }
});

test('names are listed in one order', () => {
  const names = ['nc01/sg00/b.json', 'nc00/sg01/a.json', 'nc00/sg00/z.json', 'nc00/sg00/Z.json'];
  assert.deepEqual([...names].sort(byName), ['nc00/sg00/Z.json', 'nc00/sg00/z.json', 'nc00/sg01/a.json', 'nc01/sg00/b.json']);
});
