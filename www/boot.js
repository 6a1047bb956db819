// Starts the inspector: loads the app's wasm (relative paths, so the page also works
// under a sub-path of a documentation site). Kept as a file so the page needs no
// inline script.
import init from './app.js';

// Module scripts run at all: the page is served (not opened from file://), so the note
// index.html keeps for that case goes. (The import above is hoisted: it ran first.)
document.getElementById('boot-note')?.remove();

await init({ module_or_path: new URL('./app_bg.wasm', import.meta.url) });
document.documentElement.dataset.ready = 'true';
