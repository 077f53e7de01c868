// The in-page engine: Pyodide (CPython compiled to WebAssembly) runs the server's own
// scoring/games modules, fetched from the server as they are (scoring/pwa.py's bundle), so
// that there is one implementation of the rules. A module worker, started by engine.js:
// the page stays responsive while the runtime loads and while it scores.
//
// In:  {type: "load", pyodide: "<folder URL>", bundle: "<URL>"} once,
//      then {type: "score" | "trick" | "read", id, slug, body: "<JSON>", lang}.
// Out: {type: "loaded", ok, ms, error}, then {type: "scored" | "resolved" | "read", id, status, body}
//      or {type: "scored" | "resolved" | "read", id, error}.

// What scoring.api.views.ScoreView and TrickView do around the engine, in Python, so that
// the answer is the endpoint's: the same arguments, the same errors and the same "detail".
const GLUE = `
import json
import sys

sys.path.insert(0, "/engine")

from scoring.games import GAMES
from scoring.games.base import ScoringError

MESSAGES = json.loads(NUM_MESSAGES)


def _error(errors, status, lang):
    if len(errors) == 1:
        detail = errors[0]["message"]
    else:
        detail = MESSAGES[lang]["problems"] % {"n": len(errors)}
    return json.dumps({"status": status, "body": {"detail": detail, "errors": errors}}, ensure_ascii=False)


def _answer(slug, lang, work, referee=False):
    """Return, as JSON, the status and body the endpoint answers: \`work(game, lang)\`'s result (200),
    the engine's refusal (400), or an unknown game (404; \`referee\`: a game without one too)."""
    lang = "en" if lang.startswith("en") else "fr"
    if slug not in GAMES:
        message = MESSAGES[lang]["unknown_game"] % {"game": slug}
        return _error([{"path": "slug", "code": "unknown_game", "message": message}], 404, lang)
    if referee and not GAMES[slug].referee:
        return _error([{"path": "", "code": "not_found", "message": MESSAGES[lang]["not_found"]}], 404, lang)
    try:
        result = work(GAMES[slug], lang)
    except ScoringError as exc:
        return _error(exc.messages(lang), 400, lang)
    return json.dumps({"status": 200, "body": result}, ensure_ascii=False)


def num_score(slug, body, lang):
    """POST /api/v1/games/{slug}/score/."""
    b = json.loads(body)
    return _answer(slug, lang, lambda game, lang: game.score(b.get("players"), b.get("options", {}), b.get("rounds", []), lang))


def num_trick(slug, body, lang):
    """POST /api/v1/games/{slug}/trick/ (the referee)."""
    b = json.loads(body)
    return _answer(
        slug,
        lang,
        lambda game, lang: game.trick(b.get("players"), b.get("options", {}), b.get("plays"), b.get("played"), lang),
        referee=True,
    )


def num_read(slug, body, lang):
    """The round an entry form describes and what the pages ask first, as the rounds endpoints read it
    (scoring.services.read_round): for a round kept on the device before it is sent."""
    b = json.loads(body)

    def read(game, lang):
        rnd, question = game.read_form_asking(b.get("players"), b.get("options", {}), b.get("form"), lang)
        return {"round": rnd, "question": question}

    return _answer(slug, lang, read)
`;

let scoreFn = null;
let trickFn = null;
let readFn = null;
let started = 0;
let settled = false;

function loaded(ok, error) {
  if (settled) return;
  settled = true;
  self.postMessage({ type: "loaded", ok, ms: performance.now() - started, error: error ? String(error) : undefined });
}

// Pyodide does not reject when WebAssembly is refused (a Content-Security-Policy without
// 'wasm-unsafe-eval' for this worker): it logs a warning and its promise never settles.
// Compiling the smallest module first turns that into a clear failure, and any error
// left unhandled while loading ends the loading.
function wasmAllowed() {
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    return true;
  } catch (err) {
    return false;
  }
}
self.addEventListener("unhandledrejection", (event) => { if (!scoreFn) loaded(false, event.reason); });
self.addEventListener("error", (event) => { if (!scoreFn) loaded(false, event.message); });

async function load(msg) {
  started = performance.now();
  try {
    if (!wasmAllowed()) throw new Error("WebAssembly is not allowed in this worker");
    const base = new URL(msg.pyodide, self.location.href).href;
    const source = fetch(msg.bundle).then((resp) => {
      if (!resp.ok) throw new Error(`engine bundle: HTTP ${resp.status}`);
      return resp.json();
    });
    const { loadPyodide } = await import(`${base}pyodide.mjs`);
    const py = await loadPyodide({ indexURL: base, stdout: () => {}, stderr: () => {} });
    const bundle = await source;
    for (const [path, text] of Object.entries(bundle.modules)) {
      if (!/^scoring\/games\/[\w/]+\.py$/.test(path) || path.includes("..")) throw new Error(`engine bundle: bad path ${path}`);
      const full = `/engine/${path}`;
      py.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
      py.FS.writeFile(full, text);
    }
    // The engines' gettext catalogues (compiled .mo files, base64): scoring/games/i18n.py reads
    // them from the same place as on the server, next to the modules.
    for (const [path, data] of Object.entries(bundle.catalogues)) {
      if (!/^scoring\/games\/locale\/[\w-]+\/LC_MESSAGES\/engine\.mo$/.test(path)) {
        throw new Error(`engine bundle: bad path ${path}`);
      }
      const full = `/engine/${path}`;
      py.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
      py.FS.writeFile(full, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
    }
    py.globals.set("NUM_MESSAGES", JSON.stringify(bundle.messages));
    py.runPython(GLUE);
    scoreFn = py.globals.get("num_score");
    trickFn = py.globals.get("num_trick");
    readFn = py.globals.get("num_read");
    loaded(true);
  } catch (err) {
    loaded(false, err);
  }
}

// Answer one call with the glue function `fn`, as the message of `type`.
function answer(fn, type, msg) {
  try {
    const out = JSON.parse(fn(msg.slug, msg.body, msg.lang));
    self.postMessage({ type, id: msg.id, status: out.status, body: out.body });
  } catch (err) {
    // An engine bug: the server would answer 500. Say so; the page falls back to the network.
    self.postMessage({ type, id: msg.id, error: String(err) });
  }
}

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "load") load(msg);
  else if (msg.type === "score") answer(scoreFn, "scored", msg);
  else if (msg.type === "trick") answer(trickFn, "resolved", msg);
  else if (msg.type === "read") answer(readFn, "read", msg);
});
