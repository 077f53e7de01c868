// NumEngine: the server's scoring engines, run in this page by Pyodide in a worker
// (engine-worker.js), so that a round is scored without network. Loaded on the sheet pages
// after app.js; the runtime (several MB) is fetched only once the page has loaded and is idle,
// and the service worker keeps it. Code that wants the engine imports NumEngine and checks isReady().
//
//   NumEngine.ready       Promise<boolean>: true once it can score, false if it could not load
//   NumEngine.isReady()   boolean
//   NumEngine.score(slug, players, options, rounds, lang)
//       resolves with what POST /api/v1/games/{slug}/score/ answers with 200, or rejects
//       with an Error whose `.errors` is the 400 body's `errors` ([{path, code, message}]).
//   NumEngine.trick(slug, players, options, plays, played, lang)
//       the trick referee (Num King): resolves with what POST /api/v1/games/{slug}/trick/
//       answers with 200 ({winner, leads_next, active, cancelled, valid, details}), or
//       rejects like score (`.status` 400 with `.errors`, 404 for a game without a referee).
//   NumEngine.read(slug, players, options, form, lang)
//       the round an entry form describes, as the rounds endpoints read it: resolves with
//       {round, question} (question: what to ask first, "" for nothing), or rejects like score.
// The page that may load it says where from: the data-* of its script tag (sheet.html, seat.html, edit.html).
import { join } from "./app.js";

export const NumEngine = (() => {
  const script = document.querySelector("script[data-bundle]");
  let resolveReady;
  let loaded = false;
  let worker = null;
  let nextId = 1;
  const waiting = new Map();
  const ready = new Promise((resolve) => { resolveReady = resolve; });

  function finish(ok) {
    loaded = ok;
    performance.mark(ok ? "num-engine-ready" : "num-engine-failed");
    resolveReady(ok);
  }

  // A worker started while the page is not controlled by the service worker fetches the
  // runtime past it. If the page stays uncontrolled once the service worker is active (it
  // was loading while the service worker was being installed), the service worker is asked
  // to fetch and keep the runtime first.
  const wait = (promise, ms) => Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms))]);
  async function controlled() {
    const sw = navigator.serviceWorker;
    if (!sw || sw.controller) return;
    const reg = await wait(sw.ready, 10000);
    if (!reg || !reg.active) return;
    if (!sw.controller) await wait(new Promise((resolve) => sw.addEventListener("controllerchange", resolve, { once: true })), 1000);
    if (sw.controller) return;
    const channel = new MessageChannel();
    const kept = new Promise((resolve) => { channel.port1.onmessage = resolve; });
    reg.active.postMessage({ keep: "runtime" }, [channel.port2]);
    await wait(kept, 120000);
  }

  async function start() {
    performance.mark("num-engine-start");
    if (!script || !window.Worker || typeof WebAssembly !== "object") { finish(false); return; }
    await controlled();
    try {
      worker = new Worker(script.dataset.worker, { type: "module" });
    } catch (err) {
      finish(false);
      return;
    }
    worker.addEventListener("message", (event) => {
      const msg = event.data;
      if (msg.type === "loaded") {
        finish(msg.ok);
        if (!msg.ok) worker.terminate();
        return;
      }
      const call = waiting.get(msg.id);
      if (!call) return;
      waiting.delete(msg.id);
      if (msg.error) { call.reject(new Error(msg.error)); return; }
      if (msg.status === 200) { call.resolve(msg.body); return; }
      const err = new Error(msg.body.detail);
      err.status = msg.status;
      err.errors = msg.body.errors;
      call.reject(err);
    });
    worker.addEventListener("error", () => {
      if (!loaded) finish(false);
      waiting.forEach((call) => call.reject(new Error("engine worker failed")));
      waiting.clear();
    });
    worker.postMessage({ type: "load", pyodide: script.dataset.pyodide, bundle: script.dataset.bundle });
  }

  async function call(type, slug, fields, lang) {
    if (!(await ready)) throw new Error("The in-page engine is not available.");
    // The same JSON the page would POST: what JSON cannot say is dropped the same way.
    const body = JSON.stringify(fields);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ type, id, slug, body, lang: String(lang || "fr") });
    });
  }

  const score = (slug, players, options, rounds, lang) => call("score", slug, { players, options, rounds }, lang);
  const trick = (slug, players, options, plays, played, lang) =>
    call("trick", slug, { players, options, plays, played }, lang);
  const read = (slug, players, options, form, lang) => call("read", slug, { players, options, form }, lang);

  const idle = () => (window.requestIdleCallback ? requestIdleCallback(start, { timeout: 3000 }) : setTimeout(start, 200));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
  return { ready, isReady: () => loaded, score, trick, read };
})();
join("engine", NumEngine);
