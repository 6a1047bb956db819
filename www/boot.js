// Starts the inspector: loads the app's wasm (relative paths, so the page also works
// under a sub-path of a documentation site). Kept as a file so the page needs no
// inline script.
import init from './app.js';

// Module scripts run at all: the page is served (not opened from file://), so the note
// index.html keeps for that case goes. (The import above is hoisted: it ran first.)
document.getElementById('boot-note')?.remove();

// The link worker starts now, beside the app's wasm, instead of once the app runs: its
// own wasm downloads and compiles while the app's does, and the first view waits for the
// slower of the two, not for both one after the other. The app spawns its worker with
// `new Worker('worker_loader.js')` (gloo-worker): that call is handed this one. What the
// worker says before the app listens is kept and given to it when it does. A page that
// names its own loader (a notebook's `birlinkPage`) starts its worker itself.
const loader = new URL('./worker_loader.js', document.baseURI).href;
if (!globalThis.birlinkPage && typeof Worker === 'function') {
  let early = null;
  try {
    early = new Worker(loader);
  } catch {
    early = null;
  }
  if (early) {
    const said = [];
    const hold = (event) => said.push(event.data);
    early.addEventListener('message', hold);
    const Native = globalThis.Worker;
    globalThis.Worker = function Worker(url, options) {
      if (!early || new URL(url, document.baseURI).href !== loader) return new Native(url, options);
      const worker = early;
      early = null;
      globalThis.Worker = Native;
      // The app listens by setting `onmessage`: then what was said is said again.
      Object.defineProperty(worker, 'onmessage', {
        configurable: true,
        get: () => null,
        set(handler) {
          delete worker.onmessage;
          worker.onmessage = handler;
          worker.removeEventListener('message', hold);
          for (const data of said.splice(0)) worker.dispatchEvent(new MessageEvent('message', { data }));
        },
      });
      return worker;
    };
    globalThis.Worker.prototype = Native.prototype;
  }
}

await init({ module_or_path: new URL('./app_bg.wasm', import.meta.url) });
document.documentElement.dataset.ready = 'true';
