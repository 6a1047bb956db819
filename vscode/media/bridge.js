// The webview's side of birlink for VS Code: starts the web app (the built page's own
// files, served by `asWebviewUri`) with what a host document gives it (`birlinkPage`,
// as a notebook's frame does): its worker's loader (a blob: URL, as a webview allows
// workers), and `post`, through which every message the page has for its host reaches
// the extension (a webview hears its host only through `acquireVsCodeApi`). Messages
// from the extension reach the page directly: they come from its parent frame, of its
// own origin, which the page trusts (embed spec §4).
//
// What survives a hidden tab is kept with `setState` (not `retainContextWhenHidden`):
// the view and selection the page's address shows, handed back to the extension when
// the page starts again, which loads the link set with them. The theme follows VS
// Code's (light, dark, high contrast).

const vscode = acquireVsCodeApi();
const config = JSON.parse(document.getElementById('birlink-vscode').textContent);
const saved = vscode.getState() || {};

function save(update) {
  Object.assign(saved, update, { root: config.root, origin: config.origin });
  vscode.setState(saved);
}
save({});

// The theme: VS Code marks the body `vscode-light`, `vscode-dark`, `vscode-high-contrast`
// (or `vscode-high-contrast-light`).
function theme() {
  const classes = document.body.classList;
  const dark = classes.contains('vscode-dark') || (classes.contains('vscode-high-contrast') && !classes.contains('vscode-high-contrast-light'));
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.classList.toggle('high-contrast', classes.contains('vscode-high-contrast') || classes.contains('vscode-high-contrast-light'));
}
theme();
new MutationObserver(theme).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// The view and selection, as the page's address shows them.
function viewState() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const state = {};
  if (params.get('view')) state.view = params.get('view');
  if (params.get('select')) state.select = params.get('select');
  return state;
}
let lastHash = location.hash;
setInterval(() => {
  if (location.hash !== lastHash) {
    lastHash = location.hash;
    save({ state: viewState() });
  }
}, 400);

// The extension's first message names the window its messages come from (VS Code hides
// the webview's parent): the page obeys that window and no other.
window.addEventListener('message', (event) => {
  if (event.data?.type === 'host' && event.origin === location.origin && window.birlinkPage && !window.birlinkPage.host) {
    window.birlinkPage.host = event.source;
  }
});

// The link set, one file per message from the extension (a large set never crosses in
// one message): each kept as a Blob (outside the page's wasm memory), then handed to the
// page as its protocol's `load`, from the window the page obeys.
let pending = null;
window.addEventListener('message', (event) => {
  const message = event.data;
  const host = window.birlinkPage?.host;
  if (!message || !host || event.source !== host || event.origin !== location.origin) return;
  if (message.type === 'load-start') {
    pending = { id: message.id, files: [], against: [], view: message.view, select: message.select };
  } else if (message.type === 'load-file' && pending?.id === message.id) {
    const file = { name: message.name, data: new Blob([message.data]) };
    (message.side === 'against' ? pending.against : pending.files).push(file);
  } else if (message.type === 'load-end' && pending?.id === message.id) {
    const request = { birlink: 'load', id: pending.id, files: pending.files };
    if (pending.against.length) request.against = pending.against;
    if (pending.view) request.view = pending.view;
    if (pending.select) request.select = pending.select;
    pending = null;
    window.dispatchEvent(new MessageEvent('message', { data: request, origin: location.origin, source: host }));
  }
});

// The extension opened another link set in this view (its dialog): what a restored
// panel reopens.
window.addEventListener('message', (event) => {
  const message = event.data;
  const host = window.birlinkPage?.host;
  if (!message || message.type !== 'set' || !host || event.source !== host) return;
  config.root = message.root;
  config.origin = message.origin;
  save({});
});

// A dump changed on disk: offer to link again.
window.addEventListener('message', (event) => {
  const message = event.data;
  if (!message || message.type !== 'changed' || document.getElementById('birlink-changed')) return;
  const bar = document.createElement('div');
  bar.id = 'birlink-changed';
  bar.className = 'vscode-changed';
  bar.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = 'A file of this link set changed on disk. ';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Link again';
  button.addEventListener('click', () => {
    bar.remove();
    vscode.postMessage({ type: 'relink' });
  });
  bar.append(text, button);
  document.body.prepend(bar);
});

// The worker: its glue and the loader in one blob (the webview's CSP takes workers from
// blob: only), its wasm in another (a worker made from a blob does not reach the
// extension's files: the webview serves those to this document only).
const [glue, wasm] = await Promise.all([
  fetch(config.assets['worker.js']).then((r) => r.text()),
  fetch(config.assets['worker_bg.wasm']).then((r) => r.arrayBuffer()),
]);
const wasmUrl = URL.createObjectURL(new Blob([wasm], { type: 'application/wasm' }));
const loader = URL.createObjectURL(new Blob([
  glue,
  `\nwasm_bindgen({ module_or_path: ${JSON.stringify(wasmUrl)} });\n`,
], { type: 'text/javascript' }));

window.birlinkPage = {
  query: '',
  fragment: '',
  workerLoader: loader,
  editor: true,
  post(message) {
    if (message && message.birlink === 'ready') {
      // The page (again, after a hidden tab): the extension loads the link set, in the
      // view it was left in.
      vscode.postMessage({ type: 'started', state: saved.state || {} });
    }
    vscode.postMessage(message);
  },
};

const { default: init } = await import(config.assets['app.js']);
await init({ module_or_path: config.assets['app_bg.wasm'] });
theme();
document.documentElement.dataset.ready = 'true';
