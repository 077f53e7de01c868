"""The installable app in a real browser: what the in-page engine costs, and installability.

Run from the repo root: ``python bench/pwa.py`` (about a minute; needs /usr/bin/chromium).

1. A temporary VAR_DIR, production settings (DEBUG=0, collected static files, whitenoise's
   gzip copies), gunicorn (2 sync workers) on 127.0.0.1 with its access log.
2. Debian's Chromium through Playwright, in a new profile on disk (installability is never
   offered in an incognito profile), 390 × 844, French: the home page, then a new Num-X
   sheet through its form, as a player would.
3. Reports: the bytes the engine's worker downloaded (the access log's body sizes, gzip),
   the time from the sheet page's navigation to ``NumEngine.ready`` (cold, then warm from
   the service worker's caches, online and offline), one round scored in the page against
   the same round through ``POST /api/v1/games/numx/score/`` (medians of 50), the first
   load of the sheet page, and Chromium's installability check
   (``Page.getInstallabilityErrors``, the check behind the install prompt).
4. With LIGHTHOUSE=/path/to/lighthouse (npm ``lighthouse@11``, the last with the PWA
   category; CHROME_PATH defaults to /usr/bin/chromium): its PWA audits on the home page.

gunicorn is stopped at the end, on error and on Ctrl-C.
"""

import json
import os
import pathlib
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
ROUNDS = 50
HAND = [
    {"kind": "red", "value": 7},
    {"kind": "rainbow", "value": 7},
    {"kind": "blue", "value": 9},
    {"kind": "green", "value": 1},
    {"kind": "green", "value": 13},
    {"kind": "yellow", "value": 5},
    {"kind": "shadow", "value": 8},
    {"kind": "joker"},
]
TIMED = """async ([n, slug, players, options, rounds, lang]) => {
  const engine = [], network = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await window.NumEngine.score(slug, players, options, rounds, lang);
    engine.push(performance.now() - t);
    t = performance.now();
    const resp = await fetch(`/api/v1/games/${slug}/score/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": lang },
      body: JSON.stringify({ players, options, rounds }),
    });
    await resp.json();
    network.push(performance.now() - t);
  }
  return { engine, network };
}"""
READY = """async () => {
  const ok = await Promise.race([window.NumEngine.ready, new Promise((r) => setTimeout(() => r(false), 180000))]);
  const mark = performance.getEntriesByName(ok ? "num-engine-ready" : "num-engine-failed")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  const start = performance.getEntriesByName("num-engine-start")[0];
  return { ok, ms: mark ? mark.startTime : null, load: nav ? nav.loadEventEnd : null, start: start ? start.startTime : null };
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def logged(log: pathlib.Path, start: int) -> list[str]:
    """Return the paths of the GETs logged after byte offset `start`, in order."""
    text = log.read_bytes()[start:].decode(errors="replace")
    return re.findall(r'"GET (\S+) HTTP/[\d.]+" \d{3}', text)


def wire(base: str, path: str, cookie: str = "") -> dict:
    """Return the body size over the wire (as Chromium asks: gzip, br) and uncompressed, by curl."""
    sizes = {}
    for label, extra in (("wire", ["-H", "Accept-Encoding: gzip, deflate, br, zstd"]), ("raw", [])):
        if cookie:
            extra = [*extra, "-H", f"Cookie: {cookie}"]
        cmd = ["curl", "-sS", "-o", "/dev/null", "-w", "%{size_download}", *extra, base + path]
        sizes[label] = int(subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=True).stdout)
    return sizes


def lighthouse(base: str, out: pathlib.Path) -> dict:
    """Return Lighthouse's PWA category score and each of its audits (pass, fail, n/a)."""
    binary = os.environ["LIGHTHOUSE"]
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROMIUM)}
    cmd = [binary, base + "/", "--quiet", "--output=json", f"--output-path={out}"]
    cmd += ["--chrome-flags=--headless --no-sandbox", "--only-categories=pwa", "--form-factor=mobile"]
    subprocess.run(cmd, env=env, check=True, timeout=300, capture_output=True)
    data = json.loads(out.read_text())
    category = data["categories"]["pwa"]
    audits = {}
    for ref in category["auditRefs"]:
        audit = data["audits"][ref["id"]]
        mode = audit["scoreDisplayMode"]
        audits[ref["id"]] = "pass" if audit["score"] == 1 else mode if audit["score"] is None else "fail"
    return {"version": data["lighthouseVersion"], "score": category["score"], "audits": audits}


def _on_signal(signum, frame):
    raise SystemExit(128 + signum)  # runs main's `finally`, which stops gunicorn


def main() -> int:
    from playwright.sync_api import sync_playwright

    signal.signal(signal.SIGTERM, _on_signal)

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="numapp-pwa-"))
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",  # plain http on the loopback; localhost is a secure context
        "VAR_DIR": str(tmp),
        "THROTTLE_SCORE": "100000/min",
        "LOG_LEVEL": "WARNING",
    }
    py = sys.executable
    subprocess.run([py, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([py, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    base = f"http://localhost:{port}"
    log = tmp / "access.log"
    gunicorn = subprocess.Popen(
        [py, "-m", "gunicorn", "numapp.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{port}"]
        + ["--access-logfile", str(log), "--error-logfile", str(tmp / "error.log")],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    report = {}
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                str(tmp / "profile"),
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
                viewport={"width": 390, "height": 844},
                locale="fr-FR",
                base_url=base,
            )
            errors = []
            page = context.pages[0] if context.pages else context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on(
                "console",
                lambda msg: msg.type == "error" and errors.append(f"{msg.text} {msg.location.get('url', '')}"),
            )
            page.goto("/")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            cdp = context.new_cdp_session(page)
            report["installability_errors"] = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            report["manifest_errors"] = cdp.send("Page.getAppManifest").get("errors", [])

            page.goto("/new/numx/")
            page.fill("#player-0", "Elya")
            page.fill("#player-1", "Sasha")
            offset = log.stat().st_size
            page.locator("button.primary.big").click()
            page.wait_for_url("**/sheets/*/")
            report["cold"] = page.evaluate(READY)
            time.sleep(1.5)  # the access log is written when each response ends
            got = logged(log, offset)
            runtime = [k for k in got if "/vendor/pyodide/" in k or "/engine/" in k]
            report["runtime_bytes"] = {k: wire(base, k) for k in runtime}
            report["runtime_total"] = {
                label: sum(v[label] for v in report["runtime_bytes"].values()) for label in ("wire", "raw")
            }
            # The sheet page's own first load: its HTML and what it links (a service worker
            # that already holds the shell answers these from its cache; counted as if not).
            cookie = "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())
            sheet_path = page.url.removeprefix(base)
            linked = re.findall(r'<(?:link|script)\b[^>]*?\b(?:href|src)="(/[^"]+)"', page.content())
            report["sheet_first_load"] = {sheet_path: wire(base, sheet_path, cookie)}
            report["sheet_first_load"].update({k: wire(base, k) for k in linked})
            report["sheet_first_load_total"] = {
                label: sum(v[label] for v in report["sheet_first_load"].values()) for label in ("wire", "raw")
            }

            offset = log.stat().st_size
            page.reload()
            report["warm"] = page.evaluate(READY)
            time.sleep(1.0)
            report["warm_runtime_requests"] = [
                k for k in logged(log, offset) if "/vendor/pyodide/" in k or "/engine/" in k
            ]

            players = ["Elya", "Sasha"]
            rounds = [{"entries": {"Elya": {"cards": HAND}, "Sasha": {"points": 12}}}]
            timed = page.evaluate(TIMED, [ROUNDS, "numx", players, {"mode": "speedrun"}, rounds, "fr"])
            report["score_ms"] = {
                k: {"median": round(statistics.median(v), 2), "p90": round(sorted(v)[int(0.9 * len(v))], 2)}
                for k, v in timed.items()
            }

            context.set_offline(True)
            page.reload()
            report["warm_offline"] = page.evaluate(READY)
            context.set_offline(False)
            report["js_errors"] = errors
            context.close()
        if os.environ.get("LIGHTHOUSE"):
            report["lighthouse"] = lighthouse(base, tmp / "lighthouse.json")
    finally:
        try:
            os.killpg(gunicorn.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        gunicorn.wait(timeout=10)
    report["load_average"] = os.getloadavg()
    print(json.dumps(report, indent=2))
    ok = report["cold"]["ok"] and report["warm_offline"]["ok"] and not report["installability_errors"]
    return 0 if ok and not report["js_errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
