// @ts-check
// What the extension knows of a work directory's names, with no VS Code API, so that a
// plain Node test holds it to birlink's own rules (tests/e2e/places.test.mjs, against the
// fixture `tests/data/places.json` that `model::place` is held to as well).

'use strict';

/** A core folder of a work directory: `nc` and one to six ASCII digits (`nc00`, `nc01`),
 *  as `model::place::CoreId::parse` reads one.
 *  @param {string} name */
function isCoreFolder(name) {
  return /^nc[0-9]{1,6}$/.test(name);
}

/** The one order names are listed in: by UTF-16 code unit, as the page lists a dropped
 *  folder's files.
 *  @param {string} a
 *  @param {string} b */
function byName(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

module.exports = { isCoreFolder, byName };
