// The front end of `birlink.show` (an anywidget module): birlink's page written into a
// `srcdoc` frame from the web app's files (blob: URLs, made here: no server), then the
// link set handed over by birlink's message protocol (`load`). The frame tells its
// height (`resize`) and its verdict (`linked`), which the widget keeps in `verdict`.

const TYPES = {
  'app.js': 'text/javascript',
  'app_bg.wasm': 'application/wasm',
  'worker.js': 'text/javascript',
  'worker_bg.wasm': 'application/wasm',
  'style.css': 'text/css',
};

function bufferOf(view) {
  return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
}

function render({ model, el }) {
  const assets = model.get('assets');
  const made = [];
  const url = (parts, type) => {
    const u = URL.createObjectURL(new Blob(parts, { type }));
    made.push(u);
    return u;
  };
  const files = {};
  for (const [name, type] of Object.entries(TYPES)) files[name] = url([bufferOf(assets[name])], type);
  // The worker's loader, as `worker_loader.js` is beside the page.
  const loader = url([`importScripts(${JSON.stringify(files['worker.js'])});\nwasm_bindgen({ module_or_path: ${JSON.stringify(files['worker_bg.wasm'])} });\n`], 'text/javascript');
  const view = model.get('view');
  const page = { query: '?embed=1', fragment: view ? `view=${view}` : '', workerLoader: loader };
  const frame = document.createElement('iframe');
  frame.title = 'birlink';
  frame.className = 'birlink-frame';
  const fixed = model.get('height');
  frame.style.cssText = `display:block;width:100%;height:${fixed || 480}px;border:1px solid #d0d7de;border-radius:6px`;
  frame.srcdoc = `<!doctype html><html lang="en" data-embed><head><meta charset="utf-8">
<meta name="color-scheme" content="light dark"><title>birlink</title>
<link rel="stylesheet" href="${files['style.css']}">
<script>window.birlinkPage = ${JSON.stringify(page)};</script>
<script type="module">import init from ${JSON.stringify(files['app.js'])};
await init({ module_or_path: ${JSON.stringify(files['app_bg.wasm'])} });
document.documentElement.dataset.ready = 'true';</script>
</head><body></body></html>`;
  el.appendChild(frame);

  let loaded = false;
  const load = () => {
    if (loaded || !frame.contentWindow) return;
    loaded = true;
    const set = model.get('files').map((f) => ({ name: f.name, data: bufferOf(f.data) }));
    const request = { birlink: 'load', id: 'notebook', files: set };
    if (model.get('lnc')) request.lnc = model.get('lnc');
    if (view) request.view = view;
    frame.contentWindow.postMessage(request, window.location.origin, set.map((f) => f.data));
  };
  const listen = (event) => {
    if (event.source !== frame.contentWindow) return;
    const message = event.data;
    if (!message || typeof message.birlink !== 'string') return;
    if (message.birlink === 'ready') load();
    if (message.birlink === 'resize' && !fixed) frame.style.height = `${Math.max(message.height, 160)}px`;
    if (message.birlink === 'linked') {
      model.set('verdict', { ok: message.ok, failed_pass: message.failed_pass, errors: message.errors, warnings: message.warnings, codes: message.codes });
      model.save_changes();
    }
  };
  window.addEventListener('message', listen);
  return () => {
    window.removeEventListener('message', listen);
    for (const u of made) URL.revokeObjectURL(u);
  };
}

export default { render };
