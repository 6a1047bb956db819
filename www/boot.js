// Starts the inspector: loads the app's wasm (relative paths, so the page also works
// under a sub-path of a documentation site). Kept as a file so the page needs no
// inline script.
import init from './app.js';

await init({ module_or_path: new URL('./app_bg.wasm', import.meta.url) });
document.documentElement.dataset.ready = 'true';
