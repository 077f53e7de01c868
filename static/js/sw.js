// Num scores' service worker: the app opens, and the sheets this device has opened open
// again, without network. Served at /sw.js by scoring/pwa.py, which writes `CONFIG` above
// this file: { version, shell, offline: {fr, en}, static, pyodide, pyodideVersion, engine,
// runtime (the engine's files), manifest, catalogues (the scripts' words, one per language) }.
// No inline script, no eval; nothing from another host.
"use strict";

const SHELL = `num-shell-${CONFIG.version}`;  // the app shell, fetched on install
const STATIC = `num-static-${CONFIG.version}`;  // other static files, as they are asked for
const PYODIDE = `num-pyodide-${CONFIG.pyodideVersion}`;  // the Python runtime: kept across deployments
const ENGINE = `num-engine-${CONFIG.engine.replace(/^.*\/|\.json$/g, "")}`;  // the engines' source, by content hash
const PAGES = "num-pages-3";  // pages this device opened, each saying whom it was made for: kept across deployments
// (3: the pages load their scripts as ES modules; a page kept before would load the modules that
// stand in for its older scripts as classic ones, and break offline: those copies are dropped.)
const PREFS = "num-prefs-1";  // the manifest, and the language of the last page shown
const LANG_KEY = "/offline/lang";
// Whom the pages are made for (scoring/device.py): each page's answer names the identities its
// browser holds; the last answer's are kept here. A kept page is shown only while the browser
// still holds every identity it was made for, so a logout or an account deletion ends the
// offline copies of that person's pages (and they are deleted).
const DEVICE_KEY = "/offline/device";
const DEVICE_HEADER = "X-Num-Device";
const KEEP = [SHELL, STATIC, PYODIDE, ENGINE, PAGES, PREFS];
const MAX_PAGES = 60;
// On a network that answers slowly (a café's Wi-Fi), a kept copy is shown after this long;
// the answer, when it comes, still replaces the copy for next time.
const NETWORK_WAIT_MS = 6000;

// The pages kept for offline use: home, a sheet, a round's edit page, a share page, a
// player's own entry page.
const PAGES_KEPT = [
  /^\/$/,
  /^\/sheets\/[^/]+\/$/,
  /^\/sheets\/[^/]+\/rounds\/\d+\/edit\/$/,
  /^\/w\/[^/]+\/[^/]+\/$/,
  /^\/p\/[^/]+\/\d+\/[^/]+\/$/,
];

// whitenoise's hashed names (app.0123456789ab.css): a page kept before a deployment asks
// for the old name, which the shell also holds under the plain name.
const unhashed = (url) => url.replace(/\.[0-9a-f]{12}(\.[A-Za-z0-9]+)$/, "$1");
const noStore = (resp) => /no-store/i.test(resp.headers.get("Cache-Control") || "");
const keepable = (resp) => resp.status === 200 && resp.type === "basic" && !noStore(resp);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    const files = [...CONFIG.shell, ...CONFIG.catalogues].map((url) => new Request(url, { cache: "reload" }));
    // The offline pages are the same for everyone: asked without cookies, so that fetching
    // them never touches the visitor's session (nor takes its pending messages).
    const offline = Object.values(CONFIG.offline).map((url) => new Request(url, { cache: "reload", credentials: "omit" }));
    await Promise.all([...files, ...offline].map(async (request) => {
      const resp = await fetch(request);
      if (!resp.ok) throw new Error(`${request.url}: ${resp.status}`);
      const alias = unhashed(request.url);
      if (alias !== request.url) await cache.put(alias, resp.clone());
      await cache.put(request.url, resp);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith("num-") && !KEEP.includes(n)).map((n) => caches.delete(n)));
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") return;  // never kept
  if (request.mode === "navigate") {
    event.respondWith(navigate(event, url));
  } else if (url.pathname.startsWith(CONFIG.pyodide)) {
    event.respondWith(cacheFirst(event, PYODIDE));
  } else if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(cacheFirst(event, STATIC));
  } else if (url.pathname === CONFIG.engine) {
    event.respondWith(cacheFirst(event, ENGINE));
  } else if (CATALOGUE.test(url.pathname)) {
    event.respondWith(catalogue(event, url));
  } else if (url.pathname === CONFIG.manifest) {
    event.respondWith(networkFirst(event, PREFS));
  } else if (!url.search && PAGES_KEPT.some((re) => re.test(url.pathname))
             && (request.headers.get("Accept") || "").includes("text/html")) {
    // A page fetching a fresh copy of itself (after saving a round): that copy is the one to keep.
    event.respondWith(refreshPage(event, url));
  }
  // Anything else (the API, the share page's polling) goes to the network untouched.
});

// The scripts' words (Django's JavaScriptCatalog), one address per language and content: those of
// CONFIG.catalogues are kept on install. A page kept before a deployment names the catalogue of
// its day; without network, the current one of its language stands in for it.
const CATALOGUE = /^\/jsi18n\/([\w-]+)\/[0-9a-f]+\.js$/;

async function catalogue(event, url) {
  try {
    return await cacheFirst(event, SHELL);
  } catch (err) {
    const lang = url.pathname.match(CATALOGUE)[1];
    const current = CONFIG.catalogues.find((address) => address.startsWith(`/jsi18n/${lang}/`));
    const copy = current && await caches.match(current, { ignoreVary: true });
    if (copy) return copy;
    throw err;
  }
}

async function cacheFirst(event, name) {
  const request = event.request;
  const hit = await caches.match(request, { ignoreVary: true });
  if (hit) return hit;
  try {
    const resp = await fetch(request);
    if (keepable(resp)) {
      const copy = resp.clone();
      event.waitUntil(caches.open(name).then((cache) => cache.put(request, copy)));
    }
    return resp;
  } catch (err) {
    const alias = await caches.match(unhashed(request.url), { ignoreVary: true });
    if (alias) return alias;
    throw err;
  }
}

async function networkFirst(event, name) {
  try {
    const resp = await fetch(event.request);
    if (keepable(resp)) {
      const copy = resp.clone();
      event.waitUntil(caches.open(name).then((cache) => cache.put(event.request, copy)));
    }
    return resp;
  } catch (err) {
    const copy = await caches.match(event.request, { cacheName: name, ignoreVary: true });
    if (copy) return copy;
    throw err;
  }
}

// Pages: the network first (a sheet changes on other phones), the kept copy when there is
// none. Only the addresses of PAGES_KEPT, without a query, are kept.
async function navigate(event, url) {
  const kept = !url.search && PAGES_KEPT.some((re) => re.test(url.pathname));
  const key = url.origin + url.pathname;
  const network = (async () => {
    const resp = (await event.preloadResponse) || (await fetch(event.request));
    if (kept && keepable(resp)) {
      // Whom the browser is, then the copy (as refreshPage): a kept copy is one the worker can show.
      const copy = resp.clone();
      event.waitUntil(learn(resp).then(() => keepPage(key, copy)));
    } else {
      event.waitUntil(learn(resp));
      if (kept && (resp.status === 404 || resp.status === 410)) {
        // The sheet is gone (deleted, expired, no longer this visitor's): so is its copy.
        event.waitUntil(caches.open(PAGES).then((cache) => cache.delete(key)));
      }
    }
    return resp;
  })();
  const copy = kept ? await keptFor(key) : undefined;
  if (!copy) {
    try {
      return await network;
    } catch (err) {
      return offlinePage();
    }
  }
  event.waitUntil(network.catch(() => undefined));
  try {
    return await Promise.race([network, new Promise((resolve, reject) => setTimeout(reject, NETWORK_WAIT_MS))]);
  } catch (err) {
    return copy;
  }
}

async function refreshPage(event, url) {
  const resp = await fetch(event.request);
  // Whom the browser now is is written before the copy is kept: a kept copy is always one
  // the worker can show (keptFor), never one waiting for the identities it was made for.
  const copy = keepable(resp) ? resp.clone() : undefined;
  event.waitUntil(learn(resp).then(() => copy && keepPage(url.origin + url.pathname, copy)));
  return resp;
}

async function keepPage(key, resp) {
  const cache = await caches.open(PAGES);
  // put() replaces the copy in one step: deleting first would leave a moment where a
  // navigation finds no copy and answers with the offline page.
  await cache.put(key, resp);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map((k) => cache.delete(k)));
}

const idsOf = (value) => (value || "").split(" ").filter(Boolean);
const madeFor = (resp) => idsOf(resp.headers.get(DEVICE_HEADER));

async function held() {
  const said = await caches.match(DEVICE_KEY, { cacheName: PREFS });
  return said ? idsOf(await said.text()) : [];
}

// The copy of a page, if the browser still holds every identity it was made for.
async function keptFor(key) {
  const copy = await caches.match(key, { cacheName: PAGES, ignoreVary: true });
  if (!copy) return undefined;
  const now = await held();
  return madeFor(copy).every((id) => now.includes(id)) ? copy : undefined;
}

// A page's answer says whom the browser now is: pages kept for an identity it no longer holds are deleted.
async function learn(resp) {
  if (!resp.headers.has(DEVICE_HEADER)) return;
  const now = madeFor(resp);
  const before = await held();
  if (now.length === before.length && now.every((id) => before.includes(id))) return;
  await (await caches.open(PREFS)).put(DEVICE_KEY, new Response(now.join(" ")));
  const cache = await caches.open(PAGES);
  for (const request of await cache.keys()) {
    const copy = await cache.match(request);
    if (copy && !madeFor(copy).every((id) => now.includes(id))) await cache.delete(request);
  }
}

async function offlinePage() {
  const page = await caches.match(CONFIG.offline[await language()], { cacheName: SHELL });
  return page || new Response("Offline / Hors ligne", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

// The offline page speaks the language of the last page the app showed (pwa.js says it),
// else the browser's, else French, as the server would choose.
async function language() {
  const said = await caches.match(LANG_KEY, { cacheName: PREFS });
  if (said) return (await said.text()) === "en" ? "en" : "fr";
  for (const lang of self.navigator.languages || [self.navigator.language || ""]) {
    if (lang.startsWith("fr")) return "fr";
    if (lang.startsWith("en")) return "en";
  }
  return "fr";
}

// A page that was already loading when this worker took over is not controlled by it: its
// own address and the engine's files went past it. The page asks for them to be kept
// (pwa.js, engine.js); the answer on the message's port says when it is done.
async function keep(what) {
  if (what === "runtime") {
    await Promise.all(CONFIG.runtime.map(async (url) => {
      const name = url === CONFIG.engine ? ENGINE : PYODIDE;
      if (await caches.match(url, { cacheName: name })) return;
      const resp = await fetch(url);
      if (keepable(resp)) await (await caches.open(name)).put(url, resp);
    }));
    return;
  }
  const url = new URL(what, self.location.href);
  if (url.origin !== self.location.origin || url.search || !PAGES_KEPT.some((re) => re.test(url.pathname))) return;
  const resp = await fetch(url.href, { credentials: "same-origin" });
  await learn(resp);
  if (keepable(resp) && !resp.redirected) await keepPage(url.origin + url.pathname, resp);
}

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.lang === "fr" || msg.lang === "en") {
    event.waitUntil(caches.open(PREFS).then((cache) => cache.put(LANG_KEY, new Response(msg.lang))));
  }
  if (typeof msg.keep === "string") {
    const done = keep(msg.keep).then(() => true, () => false);
    event.waitUntil(done.then((ok) => { if (event.ports[0]) event.ports[0].postMessage(ok); }));
  }
});
