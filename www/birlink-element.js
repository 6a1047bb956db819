// <birlink-view>: birlink in any page, as one element (embed spec §6).
//
//   <script type="module" src="…/birlink-element.js"></script>
//   <birlink-view sample="error-1514" view="diagnostics"></birlink-view>
//   <birlink-view src="ring/nc00.json ring/nc01.json" lnc="2"></birlink-view>
//   <birlink-view sample="matmul-1core" against="matmul-2core" view="compare"></birlink-view>
//   <birlink-view src="rank0/nc00.json rank0/nc01.json" against-src="rank1/nc00.json rank1/nc01.json"></birlink-view>
//
// Each element holds an iframe of birlink's page in embed mode (in its shadow root),
// found from this script's own URL, so it works wherever the host serves birlink. The
// page is told to trust the host's origin (`origin=`); `src` files are fetched here, in
// the host's page (so they need no CORS), and handed over by message (`load`).
// Attributes: sample, src, lnc, flow (`modular`, `flat`, or `seeds` for the seeds'
// reading; default: as the compiler decides), view, select, theme, height, and the link
// set to compare against (the Compare view): against (a sample), against-src (fetched
// here too), against-lnc, against-flow. Events: birlink-ready,
// birlink-linked (for every run the frame shows: a `sample`, `src` files, a `load`),
// birlink-selected, birlink-error (each `detail` is the message).
// Instances are independent; removing one removes its frame and leaves nothing running.

const PAGE = new URL('./index.html', import.meta.url);
const PAGE_ORIGIN = PAGE.origin;
const EVENTS = { ready: 'birlink-ready', linked: 'birlink-linked', selected: 'birlink-selected', error: 'birlink-error' };
let nextId = 1;

class BirlinkView extends HTMLElement {
  static get observedAttributes() {
    return ['sample', 'src', 'lnc', 'flow', 'view', 'select', 'theme', 'height', 'against', 'against-src', 'against-lnc', 'against-flow'];
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this._onMessage = (event) => this._message(event);
    this._ready = false;
    this._queue = [];
  }

  connectedCallback() {
    window.addEventListener('message', this._onMessage);
    this._render();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this._onMessage);
    clearInterval(this._pinging);
    this.shadowRoot.replaceChildren();
    this._frame = null;
    this._ready = false;
  }

  attributeChangedCallback(name, before, after) {
    if (!this._frame || before === after) return;
    if (name === 'view' || name === 'select') {
      const request = { birlink: 'show', view: this.getAttribute('view') || 'pipeline' };
      if (this.getAttribute('select')) request.select = this.getAttribute('select');
      this._send(request);
    } else if (name === 'height') {
      this._size();
    } else {
      this._render();
    }
  }

  /** The frame's URL: embed mode, this page's origin trusted, the sample, LNC, theme
   *  and view state in the query and fragment. */
  _url() {
    const url = new URL(PAGE);
    url.searchParams.set('embed', '1');
    url.searchParams.append('origin', window.location.origin);
    for (const key of ['sample', 'lnc', 'flow', 'theme', 'against', 'against-lnc', 'against-flow']) {
      const value = this.getAttribute(key);
      if (value) url.searchParams.set(key, value);
    }
    const state = new URLSearchParams();
    if (this.getAttribute('view')) state.set('view', this.getAttribute('view'));
    if (this.getAttribute('select')) state.set('select', this.getAttribute('select'));
    url.hash = state.toString();
    return url.toString();
  }

  _render() {
    clearInterval(this._pinging);
    this._ready = false;
    this._queue = [];
    const style = document.createElement('style');
    style.textContent = ':host{display:block}iframe{display:block;width:100%;border:1px solid #d0d7de;border-radius:6px;min-height:120px}';
    const frame = document.createElement('iframe');
    frame.title = this.getAttribute('title') || 'birlink';
    frame.loading = 'lazy';
    frame.src = this._url();
    this._frame = frame;
    this._size(480);
    this.shadowRoot.replaceChildren(style, frame);
    const list = (name) => (this.getAttribute(name) || '').split(/\s+/).filter(Boolean);
    const [src, againstSrc] = [list('src'), list('against-src')];
    if (src.length || againstSrc.length) this._load(src, againstSrc);
    // Until the page says `ready`, ask: a page that started before this listener did
    // answers a ping.
    this._pinging = setInterval(() => {
      if (this._ready || !this._frame?.contentWindow) return clearInterval(this._pinging);
      this._frame.contentWindow.postMessage({ birlink: 'ping', id: `hello-${nextId++}` }, PAGE_ORIGIN);
    }, 500);
  }

  _size(height) {
    if (!this._frame) return;
    const fixed = this.getAttribute('height');
    this._frame.style.height = fixed ? (/^\d+$/.test(fixed) ? `${fixed}px` : fixed) : `${height ?? this._height ?? 480}px`;
  }

  /** Fetches the `src` files (and `against-src`'s, the set to compare against) and hands
   *  them to the page. `against-src` alone goes with a `sample`: the shown set is that
   *  sample's files, fetched from the page's samples. */
  async _load(urls, againstUrls = []) {
    const base = document.baseURI;
    const fetchAll = (list) => Promise.all(list.map(async (src) => {
      const url = new URL(src, base);
      const response = await fetch(url);
      if (!response.ok) throw new Error(`could not fetch ${url}: HTTP ${response.status}`);
      const name = url.pathname.split('/').filter(Boolean).pop() || 'module.json';
      return { name, data: await response.arrayBuffer() };
    }));
    try {
      let files = await fetchAll(urls);
      if (!files.length && this.getAttribute('sample')) {
        const sample = this.getAttribute('sample').replace(/\.json$/, '');
        files = await fetchAll([new URL(`./samples/${sample}.json`, import.meta.url).toString()]);
      }
      const request = { birlink: 'load', files };
      if (againstUrls.length) {
        request.against = await fetchAll(againstUrls);
        const againstLnc = Number(this.getAttribute('against-lnc'));
        if (againstLnc > 0) request.against_lnc = againstLnc;
        if (!this.getAttribute('view')) request.view = 'compare';
      }
      const lnc = Number(this.getAttribute('lnc'));
      if (lnc > 0) request.lnc = lnc;
      if (this.getAttribute('view')) request.view = this.getAttribute('view');
      if (this.getAttribute('select')) request.select = this.getAttribute('select');
      this._send(request);
    } catch (error) {
      this._emit('error', { birlink: 'error', id: null, code: 'bad-request', message: String(error.message || error) });
    }
  }

  /** Sends a request once the page is ready; returns its id. A `load`'s buffers are
   *  transferred, not copied (they were fetched for the frame alone). */
  _send(request) {
    request.id = request.id ?? `birlink-view-${nextId++}`;
    if (this._ready) this._post(request);
    else this._queue.push(request);
    return request.id;
  }

  _post(request) {
    const transfer = [...(request.files || []), ...(request.against || [])].map((f) => f.data).filter((d) => d instanceof ArrayBuffer);
    this._frame.contentWindow.postMessage(request, PAGE_ORIGIN, transfer);
  }

  _message(event) {
    if (!this._frame || event.source !== this._frame.contentWindow || event.origin !== PAGE_ORIGIN) return;
    const message = event.data;
    if (!message || typeof message.birlink !== 'string') return;
    if (!this._ready && (message.birlink === 'ready' || message.birlink === 'ack')) {
      this._ready = true;
      clearInterval(this._pinging);
      for (const request of this._queue.splice(0)) this._post(request);
      if (message.birlink === 'ack' && String(message.id).startsWith('hello-')) {
        this._emit('ready', { birlink: 'ready', version: 1 });
        return;
      }
    }
    if (message.birlink === 'ack' && String(message.id).startsWith('hello-')) return;
    if (message.birlink === 'resize') {
      this._height = message.height;
      this._size(message.height);
      return;
    }
    if (EVENTS[message.birlink]) this._emit(message.birlink, message);
  }

  _emit(type, detail) {
    this.dispatchEvent(new CustomEvent(EVENTS[type], { detail, bubbles: true, composed: true }));
  }

  /** Asks the page for its state (`{url, view, select}`); rejects after `timeout` ms
   *  (default 10 s) without an answer (a frame that never loaded). */
  state(timeout = 10000) {
    return new Promise((resolve, reject) => {
      const id = this._send({ birlink: 'getState' });
      const listen = (event) => {
        if (event.source === this._frame?.contentWindow && event.data?.id === id) {
          window.removeEventListener('message', listen);
          clearTimeout(timer);
          resolve(event.data);
        }
      };
      const timer = setTimeout(() => {
        window.removeEventListener('message', listen);
        reject(new Error(`birlink-view: no answer to getState within ${timeout} ms`));
      }, timeout);
      window.addEventListener('message', listen);
    });
  }
}

if (!customElements.get('birlink-view')) customElements.define('birlink-view', BirlinkView);
