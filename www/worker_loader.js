// Starts the link worker: the wasm-bindgen glue, then its wasm (same origin, so the
// page's CSP needs no blob: workers).
importScripts('./worker.js');
wasm_bindgen({ module_or_path: './worker_bg.wasm' });
