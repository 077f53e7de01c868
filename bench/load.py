"""HTTP load benchmark: the app under gunicorn, driven by wrk, against a bare Django view.

Run from the repo root: ``make bench`` (or ``python bench/load.py --help``).

1. A temporary VAR_DIR; the database is SQLite in it, or DATABASE_URL when set (a
   PostgreSQL database whose name contains "bench": it is flushed first), the cache
   Redis when REDIS_URL is set. Production settings: DEBUG=0, collected static files,
   bench.settings_bench (the normal URLs plus ``/bench/bare``), throttles set very high.
2. Seeds realistic data through the app's services (sheet_create, round_add,
   seat_attach, profile_update) and counts each endpoint's queries once with the
   Django test client.
3. Starts gunicorn (2 sync workers) on 127.0.0.1 and runs wrk (16 connections) on
   each endpoint: a warm-up, then several interleaved repetitions; prints medians,
   the ratio to the bare view and the goals as a Markdown table.
4. Measures the sheet page's weight over the wire (gzip) and looks for requests to
   other hosts; optionally runs Lighthouse (--lighthouse).

gunicorn and wrk are stopped at the end, on error and on Ctrl-C.
"""

import argparse
import atexit
import datetime as dt
import json
import os
import pathlib
import platform
import random
import re
import secrets
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SETTINGS = "bench.settings_bench"
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}  # what the TLS load balancer adds
CLIENT_HEADERS = {"Accept-Encoding": "gzip", **PROXY_HEADERS}  # a browser asks for gzip

ROUNDS_PER_POOL_SHEET = 5  # Num King "binômes": 5 rounds of 6 cards, then the sheet is finished
POOL_WINDOW = 32  # a wrk thread cycles over this many sheets before it starts on the next ones

# name -> (min ratio to bare, max p99 in ms, max queries); None: no goal.
GOALS = {
    "bare": (None, None, None),
    "score": (0.40, 15, 0),
    "sheet_json": (0.30, 15, 2),
    "sheet_html": (0.20, 25, 3),
    "sheet_html_editor": (None, None, None),
    "sheet_poll": (None, None, None),
    "round_add": (0.12, 60, None),
    "leaderboard": (0.15, 40, 3),
}
LABELS = {
    "bare": "bare view `GET /bench/bare`",
    "score": "score a 15-card Num-X hand `POST /api/v1/games/numx/score/`",
    "sheet_json": "sheet JSON 8 × 18 `GET /api/v1/sheets/{id}/` (X-Edit-Token)",
    "sheet_html": "sheet page 8 × 18 `GET /w/{id}/{token}/` (share page)",
    "sheet_html_editor": "sheet page 8 × 18 `GET /sheets/{id}/` (creator's session cookie)",
    "sheet_poll": "share page poll, unchanged `GET /w/{id}/{token}/?fragment=1` → 304",
    "round_add": "add a Num King round `POST /api/v1/sheets/{id}/rounds/`",
    "leaderboard": "leaderboard, 50 rows `GET /leaderboards/numking/`",
}

NAMES8 = ["Elya", "Sasha", "Mendy", "Noa", "Luka", "Inès", "Yanis", "Zoé"]
NUMERIC = [(k, v) for k in ("red", "blue", "green", "yellow", "rainbow", "shadow") for v in range(17)]


# --------------------------------------------------------------------------- seeding
# Runs in a child process (``python bench/load.py _seed OUT``) with the bench environment.


def _king_round(rng, players, cards):
    """Return a plausible Num King round: tricks sum to the cards dealt, bids exact half the time."""
    tricks = dict.fromkeys(players, 0)
    for _ in range(cards):
        tricks[rng.choice(players)] += 1
    entries = {}
    for p in players:
        bid = tricks[p] if rng.random() < 0.5 else max(0, min(cards, tricks[p] + rng.choice((-1, 1))))
        entries[p] = {"bid": bid, "tricks": tricks[p]}
    return {"cards": cards, "entries": entries}


def _malus_round(rng, players, totals):
    """Return a Num-X (malus) round: one player went out, the others hold 0-3 cards, no one reaches 30."""
    out = rng.choice(players)
    deck = rng.sample(NUMERIC, len(NUMERIC))
    entries = {}
    for p in players:
        n = 0 if p == out else rng.choice((0, 1, 1, 2, 2, 3))
        n = min(n, 29 - totals[p])
        totals[p] += n
        entries[p] = {"cards": [{"kind": k, "value": v} for k, v in (deck.pop() for _ in range(n))]}
    return {"entries": entries}


def seed(out_path: str, pool_size: int) -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.services import profile_update, seat_attach
    from scoring import services, tokens

    if connection.vendor != "sqlite":
        name = connection.settings_dict["NAME"]
        if "bench" not in name:
            sys.exit(f"bench: refusing to flush database {name!r}: its name must contain 'bench'.")
        call_command("flush", interactive=False, verbosity=0)

    rng = random.Random(2026)
    t0 = time.perf_counter()
    out = {"endpoints": {}}

    # Scoring: a Num-X speed run, two players with a 15-card hand each (one round).
    cards = rng.sample(NUMERIC, 30)
    score_body = {
        "players": ["Elya", "Sasha"],
        "options": {"mode": "speedrun"},
        "rounds": [
            {
                "entries": {
                    "Elya": {"cards": [{"kind": k, "value": v} for k, v in cards[:15]]},
                    "Sasha": {"cards": [{"kind": k, "value": v} for k, v in cards[15:]]},
                }
            }
        ],
    }
    services.score("numx", score_body["players"], score_body["options"], score_body["rounds"], "fr")

    with transaction.atomic():
        # An 8 × 18 Num-X (penalties) sheet, still running, created by an anonymous browser.
        owner = secrets.token_urlsafe(16)
        session = SessionStore()
        session["owner_id"] = owner
        session.create()
        created = services.sheet_create(game="numx-malus", players=NAMES8, options={}, owner_key=owner)
        sheet, token = created.sheet, created.edit_token
        totals = dict.fromkeys(NAMES8, 0)
        for _ in range(18):
            sheet = services.round_add(sheet=sheet, data=_malus_round(rng, NAMES8, totals))
        assert sheet.round_count == 18 and not sheet.finished, "the 8 × 18 sheet must still be running"
        share = tokens.read_token(sheet.pk)

        # The add-a-round pool: Num King in pairs (binômes), 4 players, 5 rounds of 6 cards each.
        # Every round of such a sheet deals 6 cards, so one body is valid for any of its 5 rounds
        # in any order; bench sends each sheet exactly 5 rounds (see round_lua), all answer 201.
        four = ["Elya", "Sasha", "Mendy", "Noa"]
        pairs = {"mode": "binomes", "teams": {"A": ["Elya", "Mendy"], "B": ["Sasha", "Noa"]}}
        round_body = {
            "cards": 6,
            "entries": {
                "Elya": {"bid": 2, "tricks": 2},
                "Sasha": {"bid": 1, "tricks": 2},
                "Mendy": {"bid": 1, "tricks": 1},
                "Noa": {"bid": 2, "tricks": 1},
            },
        }
        pool = []
        for _ in range(pool_size + 1):
            c = services.sheet_create(game="numking", players=four, options=pairs)
            pool.append((c.sheet.pk, c.edit_token))
        probe_id, probe_token = pool.pop()  # for the query count, not in the pool

        # The leaderboard: 60 public players, 40 finished Num King games of 4 seated players.
        User = get_user_model()
        users = []
        for i in range(60):
            user = User.objects.create_user(username=f"bench{i}", email=f"bench{i}@example.org", password=None)
            profile_update(user=user, display_name=f"Joueur {i:02d}", public=True)
            users.append(user)
        for j in range(40):
            seated = [users[(4 * j + k) % 60] for k in range(4)]
            names = [u.profile.display_name for u in seated]
            game = services.sheet_create(game="numking", players=names, options={}, user=seated[0]).sheet
            for seat, user in enumerate(seated):
                seat_attach(sheet=game, seat=seat, user=user)
            for k in range(1, 10):
                game = services.round_add(sheet=game, data=_king_round(rng, names, k))
            assert game.finished

    seed_seconds = time.perf_counter() - t0
    cookie = {settings.SESSION_COOKIE_NAME: session.session_key}
    json_headers = {"Content-Type": "application/json"}
    endpoints = {
        "bare": {"method": "GET", "path": "/bench/bare"},
        "score": {"method": "POST", "path": "/api/v1/games/numx/score/", "body": score_body, "headers": json_headers},
        "sheet_json": {"method": "GET", "path": f"/api/v1/sheets/{sheet.pk}/", "headers": {"X-Edit-Token": token}},
        "sheet_html": {"method": "GET", "path": f"/w/{sheet.pk}/{share}/"},
        "sheet_html_editor": {"method": "GET", "path": f"/sheets/{sheet.pk}/", "cookies": cookie},
        "sheet_poll": {
            "method": "GET",
            "path": f"/w/{sheet.pk}/{share}/?fragment=1",
            "headers": {"If-None-Match": f'"{sheet.version}-fr"'},
        },
        "round_add": {"method": "POST", "path": "/api/v1/sheets/{id}/rounds/", "body": round_body},
        "leaderboard": {"method": "GET", "path": "/leaderboards/numking/"},
    }

    # Count the queries of one request per endpoint (after one warm-up request).
    def call(name, spec, path=None, extra=None):
        client = Client(HTTP_HOST="127.0.0.1")
        for k, v in (spec.get("cookies") or {}).items():
            client.cookies[k] = v
        headers = {**CLIENT_HEADERS, **(spec.get("headers") or {}), **(extra or {})}
        kwargs = {"headers": headers, "secure": True}
        path = path or spec["path"]
        if spec["method"] == "POST":
            return client.post(path, json.dumps(spec["body"]), content_type="application/json", **kwargs)
        return client.get(path, **kwargs)

    counts = {}
    for name, spec in endpoints.items():
        if name == "round_add":
            path = spec["path"].format(id=probe_id)
            first = call(name, spec, path, {"X-Edit-Token": probe_token})
            with CaptureQueriesContext(connection) as ctx:
                r = call(name, spec, path, {"X-Edit-Token": probe_token})
            assert first.status_code == 201, first.content[:300]
        else:
            call(name, spec)
            with CaptureQueriesContext(connection) as ctx:
                r = call(name, spec)
        assert r.status_code in (200, 201, 304), (name, r.status_code, r.content[:300])
        counts[name] = {"queries": len(ctx.captured_queries), "sql": [q["sql"][:200] for q in ctx.captured_queries]}

    pool_file = pathlib.Path(out_path).with_suffix(".pool")
    pool_file.write_text("".join(f"{i} {t}\n" for i, t in pool))
    out.update(
        endpoints=endpoints,
        counts=counts,
        pool=str(pool_file),
        pool_size=len(pool),
        seed_seconds=seed_seconds,
        sheet={"id": sheet.pk, "share": share, "cookie": cookie},
        db={
            "vendor": connection.vendor,
            "version": ".".join(map(str, connection.Database.sqlite_version_info))
            if connection.vendor == "sqlite"
            else str(connection.pg_version),
        },
        cache=settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
    )
    pathlib.Path(out_path).write_text(json.dumps(out, ensure_ascii=False, indent=1))


# --------------------------------------------------------------------------- wrk scripts

LUA_DONE = r"""
done = function(summary, latency, requests)
  local used, exhausted = 0, 0
  for _, t in ipairs(threads) do
    local k = t:get("k") or 0
    local span = math.ceil(k / (PER * WINDOW)) * WINDOW
    if span > used then used = span end
    exhausted = exhausted + (t:get("exhausted") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,' ..
    '"timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"mean_us":%.1f,"bytes":%d,' ..
    '"pool_used_per_thread":%d,"pool_exhausted":%d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean,
    summary.bytes, used, exhausted))
end
"""


def _lua_str(value: str) -> str:
    assert "]==]" not in value
    return f"[==[{value}]==]"


def _lua_headers(headers: dict) -> str:
    return "{" + ", ".join(f"[ {_lua_str(k)} ] = {_lua_str(v)}" for k, v in headers.items()) + "}"


def static_lua(spec: dict) -> str:
    """A wrk script sending the same request every time."""
    headers = {**CLIENT_HEADERS, **(spec.get("headers") or {})}
    if spec.get("cookies"):
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in spec["cookies"].items())
    body = json.dumps(spec["body"]) if "body" in spec else None
    lines = [
        "threads = {}",
        "PER, WINDOW = 1, 1",
        "setup = function(thread) table.insert(threads, thread) end",
        f"wrk.method = {_lua_str(spec['method'])}",
        f"wrk.path = {_lua_str(spec['path'])}",
        f"wrk.headers = {_lua_headers(headers)}",
    ]
    if body is not None:
        lines.append(f"wrk.body = {_lua_str(body)}")
    return "\n".join(lines) + "\n" + LUA_DONE


def round_lua(spec: dict) -> str:
    """A wrk script adding rounds to the pool sheets, each sheet exactly its 5 rounds at most.

    Arguments: pool file, offset, threads. Thread t of n takes the pool sheets offset + t,
    offset + t + n, ... by windows of WINDOW sheets: it sends one round to each sheet of
    the window in turn, PER passes, then moves on to the next window. Consecutive requests
    thus go to different sheets (as at real tables), and no sheet gets a sixth round.
    """
    headers = {**CLIENT_HEADERS, "Content-Type": "application/json"}
    body = json.dumps(spec["body"])
    return (
        f"""
threads = {{}}
PER, WINDOW = {ROUNDS_PER_POOL_SHEET}, {POOL_WINDOW}
local counter = 0
setup = function(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
init = function(args)
  ids, tokens = {{}}, {{}}
  for line in io.lines(args[1]) do
    local id, tok = line:match("(%S+) (%S+)")
    ids[#ids + 1] = id
    tokens[#tokens + 1] = tok
  end
  offset, nthreads = tonumber(args[2]), tonumber(args[3])
  k, exhausted = 0, 0
  body = {_lua_str(body)}
  base = {_lua_headers(headers)}
end
request = function()
  local w = math.floor(k / (PER * WINDOW))
  local j = k % WINDOW
  local idx = offset + (w * WINDOW + j) * nthreads + tid + 1
  k = k + 1
  if idx > #ids then
    exhausted = 1
    idx = ((idx - 1) % #ids) + 1
  end
  local h = {{}}
  for name, value in pairs(base) do h[name] = value end
  h["X-Edit-Token"] = tokens[idx]
  return wrk.format("POST", "/api/v1/sheets/" .. ids[idx] .. "/rounds/", h, body)
end
"""
        + LUA_DONE
    )


# --------------------------------------------------------------------------- running

PROCS: list[subprocess.Popen] = []


def stop_all() -> None:
    """Stop every process this run started (gunicorn with its workers, wrk)."""
    for proc in PROCS:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
    for proc in PROCS:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
    PROCS.clear()


def _on_signal(signum, frame):
    stop_all()
    sys.exit(128 + signum)


def start(cmd, **kwargs) -> subprocess.Popen:
    proc = subprocess.Popen(cmd, start_new_session=True, **kwargs)
    PROCS.append(proc)
    return proc


def run(cmd, *, env, timeout=600, capture=False) -> subprocess.CompletedProcess:
    """Run a command to its end in its own process group, stopped with the bench."""
    proc = start(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE if capture else None,
        stderr=subprocess.STDOUT if capture else None,
        text=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        raise RuntimeError(f"timed out after {timeout} s: {' '.join(cmd)}") from None
    finally:
        if proc in PROCS:
            PROCS.remove(proc)
    if proc.returncode != 0:
        raise RuntimeError(f"failed ({proc.returncode}): {' '.join(cmd)}\n{out or ''}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, None)


def bench_env(tmp: pathlib.Path) -> dict:
    """Return the environment of a bench run: production settings, a temporary VAR_DIR, no throttling."""
    rate = "1000000/s"  # a one-second window keeps the throttle's history short
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": SETTINGS,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "VAR_DIR": str(tmp),
        "THROTTLE_SCORE": rate,
        "THROTTLE_SHEET_CREATE": rate,
        "THROTTLE_ROUND_WRITE": rate,
        # The seeded leaderboard's players have a few games each: all ranked, a board of 50 rows as before.
        "LEADERBOARD_MIN_GAMES": "1",
        "LOG_LEVEL": "WARNING",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def start_gunicorn(env: dict, port: int, workers: int, log: pathlib.Path, access_log: str = "") -> subprocess.Popen:
    """Start gunicorn with sync workers on 127.0.0.1:`port`; `access_log` is a path, as the Procfile's `-`."""
    extra = ["--access-logfile", access_log] if access_log else []
    with log.open("w") as log_fh:
        return start(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "numapp.wsgi",
                "--config",
                str(ROOT / "gunicorn.conf.py"),  # as the Procfile runs it
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
                *extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=log_fh,
            stderr=subprocess.STDOUT,
        )


def procfile_web(env: dict, port: int, workers: int) -> list[str]:
    """Return the Procfile's `web:` command (uvicorn) for 127.0.0.1:`port` and `workers` workers, run by this Python.

    The line's ``${NAME:-default}`` are filled from `env` with BIND_HOST, PORT and
    WEB_CONCURRENCY set here, so the bench runs the very server production runs.
    """
    line = next(ln for ln in (ROOT / "Procfile").read_text().splitlines() if ln.startswith("web:"))
    values = {**env, "BIND_HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": str(workers)}
    line = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: values.get(m.group(1)) or m.group(2), line.split(":", 1)[1])
    cmd = shlex.split(line)
    if cmd[0] != "uvicorn":
        raise RuntimeError(f"the Procfile's web line no longer starts uvicorn: {line}")
    return [sys.executable, "-m", *cmd]


def start_procfile_web(env: dict, port: int, workers: int, log: pathlib.Path) -> subprocess.Popen:
    """Start the app as the Procfile's `web:` line does (uvicorn, ASGI) on 127.0.0.1:`port`."""
    with log.open("w") as log_fh:
        return start(procfile_web(env, port, workers), cwd=ROOT, env=env, stdout=log_fh, stderr=subprocess.STDOUT)


def find_wrk() -> str | None:
    wrk = shutil.which("wrk")
    if wrk:
        return wrk
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("bench: wrk is missing, installing it: apt-get install -y wrk", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, stdout=subprocess.DEVNULL, check=False)
        return shutil.which("wrk")
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, headers: dict, timeout=5.0):
    import urllib.request  # imports http.client: see the end of this file

    req = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(req, timeout=timeout) as r:  # noqa: S310 (loopback only)
        return r.status, dict(r.headers), r.read()


def wait_ready(base: str, proc: subprocess.Popen, log: pathlib.Path, seconds=30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if get(base + "/bench/bare", PROXY_HEADERS)[0] == 200:
                return
        except OSError:  # URLError, refused, reset, timeout
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within {seconds} s:\n{log.read_text()[-3000:]}")


def cpu_seconds(master: int) -> float:
    """Return the CPU time (user + system) used so far by gunicorn's master and workers."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    pids = [master]
    try:
        pids += [int(p) for p in pathlib.Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        pass
    for pid in pids:
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def wrk_once(wrk, base, script, seconds, args, extra=(), master=None):
    cmd = [
        wrk,
        f"-t{args.threads}",
        f"-c{args.connections}",
        f"-d{seconds}s",
        "--timeout",
        f"{getattr(args, 'timeout', 5)}s",
        "-s",
        str(script),
        base,
        "--",
        *extra,
    ]
    cpu0 = cpu_seconds(master) if master else 0.0
    proc = run(cmd, env=os.environ.copy(), timeout=seconds + 30, capture=True)
    cpu1 = cpu_seconds(master) if master else 0.0
    match = re.search(r"^RESULT (\{.*\})$", proc.stdout, re.M)
    if not match:
        raise RuntimeError(f"no result from wrk:\n{proc.stdout}")
    r = json.loads(match.group(1))
    r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
    r["cpu_ms"] = 1000 * (cpu1 - cpu0) / max(r["requests"], 1)  # gunicorn CPU per request
    return r


def preflight(base: str, name: str, spec: dict) -> None:
    """Check with curl that wrk will get the expected answer (no redirect, no error)."""
    cmd = ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", spec["method"]]
    headers = {**CLIENT_HEADERS, **(spec.get("headers") or {})}
    if spec.get("cookies"):
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in spec["cookies"].items())
    for k, v in headers.items():
        cmd += ["-H", f"{k}: {v}"]
    if "body" in spec:
        cmd += ["--data-binary", json.dumps(spec["body"])]
    code = subprocess.run(cmd + [base + spec["path"]], capture_output=True, text=True, timeout=30).stdout
    expected = "304" if name == "sheet_poll" else "200"
    if code != expected:
        raise RuntimeError(f"{name}: {spec['method']} {spec['path']} answered {code}, expected {expected}")


def page_weight(base: str, spec: dict) -> dict:
    """Fetch a page and its CSS, JS and icon with gzip, as curl sees them on the wire."""
    headers = dict(CLIENT_HEADERS)
    if spec.get("cookies"):
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in spec["cookies"].items())

    def curl(path):
        cmd = ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{size_download} %{size_header}"]
        for k, v in headers.items():
            cmd += ["-H", f"{k}: {v}"]
        out = subprocess.run(cmd + [base + path], capture_output=True, text=True, timeout=30, check=True).stdout
        code, body, head = out.split()
        return int(code), int(body), int(head)

    plain_headers = {k: v for k, v in headers.items() if k != "Accept-Encoding"}
    _, resp_headers, html = get(base + spec["path"], plain_headers)
    html = html.decode()
    code, body, head = curl(spec["path"])
    items = [
        {"what": "HTML", "path": spec["path"], "status": code, "raw": len(html.encode()), "wire": body, "headers": head}
    ]
    assets = re.findall(r'<(?:link|script|img)\b[^>]*?\b(?:href|src)="([^"]+)"', html)
    external = [
        u
        for u in re.findall(
            r'<(?:link|script|img|iframe|source|video|audio|embed|object)\b[^>]*?\b(?:href|src|data)="([^"]+)"', html
        )
        if re.match(r"(https?:)?//", u) and not re.match(r"(https?:)?//(127\.0\.0\.1|localhost)[:/]", u)
    ]
    for url in assets:
        if re.match(r"(https?:)?//", url):
            continue
        _, _, raw = get(base + url, plain_headers)
        code, body, head = curl(url)
        kind = "CSS" if url.endswith(".css") else "JS" if url.endswith(".js") else "icon"
        items.append({"what": kind, "path": url, "status": code, "raw": len(raw), "wire": body, "headers": head})
        text = raw.decode(errors="replace")
        if kind == "CSS":
            external += [u for u in re.findall(r"""(?:url\(\s*['"]?|@import\s+['"])((?:https?:)?//[^'")\s]+)""", text)]
        if kind == "JS":
            external += [
                u
                for u in re.findall(
                    r"""(?:fetch|import|open|src\s*=|href\s*=)\s*\(?\s*['"`]((?:https?:)?//[^'"`]+)""", text
                )
            ]
    return {"items": items, "external": sorted(set(external)), "csp": resp_headers.get("Content-Security-Policy", "")}


def lighthouse(base: str, paths: dict, out_dir: pathlib.Path) -> dict:
    binary = os.environ.get("LIGHTHOUSE") or shutil.which("lighthouse")
    if not binary:
        return {"error": "lighthouse not found (set LIGHTHOUSE=/path/to/lighthouse or put it on PATH)"}
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    scores = {}
    for label, spec in paths.items():
        headers = dict(PROXY_HEADERS)
        if spec.get("cookies"):
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in spec["cookies"].items())
        report = out_dir / ("lh-" + "".join(ch if ch.isalnum() else "-" for ch in label) + ".json")
        cmd = [
            binary,
            base + spec["path"],
            "--quiet",
            "--output=json",
            f"--output-path={report}",
            "--chrome-flags=--headless --no-sandbox",
            f"--extra-headers={json.dumps(headers)}",
            "--only-categories=performance,accessibility,best-practices,seo",
        ]
        try:
            run(cmd, env=env, timeout=180, capture=True)
            data = json.loads(report.read_text())
            scores[label] = {
                c: round(v["score"] * 100) for c, v in data["categories"].items() if v["score"] is not None
            }
            audits = data["audits"]
            scores[label]["fcp_ms"] = round(audits["first-contentful-paint"]["numericValue"])
            scores[label]["lcp_ms"] = round(audits["largest-contentful-paint"]["numericValue"])
            scores[label]["tbt_ms"] = round(audits["total-blocking-time"]["numericValue"])
            scores[label]["cls"] = round(audits["cumulative-layout-shift"]["numericValue"], 3)
        except (RuntimeError, KeyError, ValueError) as exc:
            scores[label] = {"error": str(exc)[:300]}
    return scores


def machine() -> dict:
    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    free = subprocess.run(["free", "-h"], capture_output=True, text=True).stdout.splitlines()
    return {
        "nproc": subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip(),
        "cpu": cpu,
        "mem": next((" ".join(line.split()) for line in free if line.startswith("Mem:")), ""),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "python": platform.python_version(),
    }


def fmt_ms(us: float) -> str:
    return f"{us / 1000:.1f}"


def report(args, seed_out, results, weights, lh, info, started, loads) -> str:
    db = seed_out["db"]
    db_label = (
        f"SQLite {db['version']}"
        if db["vendor"] == "sqlite"
        else f"PostgreSQL {int(db['version']) // 10000}.{int(db['version']) % 10000}"
    )
    lines = [
        f"Run {started:%Y-%m-%d %H:%M} — `{info['command']}`",
        "",
        f"- machine: {info['nproc']} CPUs ({info['cpu']}), {info['mem']} (free -h), Python {info['python']}; "
        f"load average before/after: {loads[0]} / {loads[1]} — shared and noisy, other processes were running",
        f"- database: {db_label}; cache: {seed_out['cache']}; gunicorn {args.workers} sync workers on 127.0.0.1, "
        f"DEBUG=0, bench.settings_bench",
        f"- wrk {args.threads} threads × {args.connections} connections on the same machine, "
        f"warm-up {args.warmup} s, then {args.reps} × {args.seconds} s per endpoint interleaved; medians; "
        f"requests carry `Accept-Encoding: gzip` and `X-Forwarded-Proto: https`",
        f"- seeding {seed_out['seed_seconds']:.1f} s; round pool {seed_out['pool_size']} sheets",
        "",
        "| endpoint | req/s | p50 ms | p99 ms | × bare | CPU ms/req | × bare (CPU) | queries | goal | met |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    verdicts = {}
    bare_cpu = statistics.median(r["cpu_ms"] for r in results["bare"])
    for name, runs in results.items():
        rps = statistics.median(r["rps"] for r in runs)
        p50 = statistics.median(r["p50_us"] for r in runs)
        p99 = statistics.median(r["p99_us"] for r in runs)
        ratio = statistics.median(r["ratio"] for r in runs)
        cpu = statistics.median(r["cpu_ms"] for r in runs)
        queries = seed_out["counts"][name]["queries"]
        bad = sum(r["status"] + r["connect"] + r["read"] + r["write"] + r["timeout"] for r in runs)
        lo, p99_max, q_max = GOALS[name]
        goal, ok = [], []
        if lo is not None:
            goal.append(f"≥ {lo:.0%}")
            ok.append(ratio >= lo)
        if p99_max is not None:
            goal.append(f"p99 ≤ {p99_max} ms")
            ok.append(p99 / 1000 <= p99_max)
        if q_max is not None:
            goal.append(f"≤ {q_max} q")
            ok.append(queries <= q_max)
        met = "" if not ok else ("yes" if all(ok) else "**no**")
        if bad:
            met += f" ⚠ {bad} errors/non-2xx"
        verdicts[name] = met
        lines.append(
            f"| {LABELS[name]} | {rps:,.0f} | {fmt_ms(p50)} | {fmt_ms(p99)} | "
            f"{'—' if name == 'bare' else f'{ratio:.0%}'} | {cpu:.2f} | "
            f"{'—' if name == 'bare' else f'{bare_cpu / cpu:.0%}' if cpu else '?'} | {queries} | {', '.join(goal) or '—'} | {met or '—'} |"
        )
    lines += [
        "",
        "Per repetition (req/s): "
        + "; ".join(f"{name} " + " / ".join(f"{r['rps']:,.0f}" for r in runs) for name, runs in results.items()),
    ]
    if weights:
        for label, w in weights.items():
            lines += [
                "",
                f"Page weight, {label} (`Accept-Encoding: gzip`, bytes):",
                "",
                "| resource | uncompressed | on the wire (body) | headers |",
                "|---|---:|---:|---:|",
            ]
            for item in w["items"]:
                lines.append(
                    f"| {item['what']} `{item['path'][:40]}` | {item['raw']:,} | {item['wire']:,} | {item['headers']:,} |"
                )
            body = sum(i["wire"] for i in w["items"])
            head = sum(i["headers"] for i in w["items"])
            html = w["items"][0]
            fits = html["wire"] + html["headers"] <= 14_600
            lines += [
                f"| **total** | {sum(i['raw'] for i in w['items']):,} | {body:,} | {head:,} |",
                "",
                f"HTML on the wire: {html['wire']:,} B body + {html['headers']:,} B headers = "
                f"{html['wire'] + html['headers']:,} B — {'fits' if fits else 'does **not** fit'} in the first "
                f"14 KB round trip (10 × 1,460 B segments). Requests to other hosts: "
                f"{', '.join(w['external']) if w['external'] else 'none'} (CSP: `{w['csp'][:60]}…`).",
            ]
    if lh:
        lines += [
            "",
            "Lighthouse (mobile defaults, headless Chromium):",
            "",
            "| page | performance | accessibility | best practices | SEO | FCP ms | LCP ms | TBT ms | CLS |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for label, s in lh.items():
            if "error" in s:
                lines.append(f"| {label} | {s['error']} | | | | | | | |")
            else:
                lines.append(
                    f"| {label} | {s.get('performance')} | {s.get('accessibility')} | {s.get('best-practices')} | "
                    f"{s.get('seo')} | {s['fcp_ms']} | {s['lcp_ms']} | {s['tbt_ms']} | {s['cls']} |"
                )
    lines += ["", "Queries counted once per endpoint with the Django test client (CaptureQueriesContext):", ""]
    for name, c in seed_out["counts"].items():
        lines.append(f"- {name}: {c['queries']} — " + "; ".join(f"`{q[:90]}`" for q in c["sql"]))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5, help="length of one measurement (default 5)")
    parser.add_argument("--reps", type=int, default=3, help="measurements per endpoint (default 3)")
    parser.add_argument("--warmup", type=int, default=2, help="warm-up per endpoint in seconds (default 2)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--pool", type=int, default=3000, help="sheets pre-created for the add-a-round runs")
    parser.add_argument("--only", default="", help="comma-separated endpoints (bare is always run)")
    parser.add_argument("--lighthouse", action="store_true", help="also run Lighthouse (needs lighthouse 12.x)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--json", help="also write the raw results to this file")
    args = parser.parse_args()

    wrk = find_wrk()
    if not wrk:
        print("bench: SKIPPED — wrk is not installed (Debian: apt-get install -y wrk).")
        return 0
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    atexit.register(stop_all)

    started = dt.datetime.now()
    info = machine()
    info["command"] = "make bench" + (" " + " ".join(sys.argv[1:]) if sys.argv[1:] else "")
    for var in ("DATABASE_URL", "REDIS_URL"):
        if os.environ.get(var):
            info["command"] = f"{var}={os.environ[var]} " + info["command"]
    loads = [info["load"]]
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="numapp-bench-"))
    env = bench_env(tmp)
    py = sys.executable
    try:
        print(f"bench: {tmp}; DB {'DATABASE_URL' if os.environ.get('DATABASE_URL') else 'SQLite'}", flush=True)
        run([py, "manage.py", "migrate", "--noinput", "-v0"], env=env, capture=True)
        run([py, "manage.py", "collectstatic", "--noinput", "-v0"], env=env, capture=True)
        seed_file = tmp / "seed.json"
        print("bench: seeding ...", flush=True)
        run([py, str(pathlib.Path(__file__).resolve()), "_seed", str(seed_file), str(args.pool)], env=env, capture=True)
        seed_out = json.loads(seed_file.read_text())
        endpoints = seed_out["endpoints"]
        names = list(endpoints)
        if args.only:
            keep = {"bare", *args.only.split(",")}
            names = [n for n in names if n in keep]

        scripts = {}
        for name in names:
            script = tmp / f"{name}.lua"
            script.write_text(round_lua(endpoints[name]) if name == "round_add" else static_lua(endpoints[name]))
            scripts[name] = script

        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log = tmp / "gunicorn.log"
        proc = start_gunicorn(env, port, args.workers, log)
        wait_ready(base, proc, log)
        for name in names:
            if name != "round_add":
                preflight(base, name, endpoints[name])
        print(
            f"bench: gunicorn on {base}; {len(names)} endpoints × ({args.warmup} s + {args.reps} × {args.seconds} s)",
            flush=True,
        )

        offset = 0

        def measure(name, seconds):
            nonlocal offset
            extra = ()
            if name == "round_add":
                extra = (seed_out["pool"], str(offset), str(args.threads))
            r = wrk_once(wrk, base, scripts[name], seconds, args, extra, master=proc.pid)
            if name == "round_add":
                offset += r["pool_used_per_thread"] * args.threads
                if r["pool_exhausted"]:
                    print("bench: WARNING the round pool ran out: raise --pool", flush=True)
            return r

        for name in names:
            measure(name, args.warmup)
        results = {name: [] for name in names}
        for rep in range(args.reps):
            bare = measure("bare", args.seconds)
            bare["ratio"] = 1.0
            results["bare"].append(bare)
            for name in names:
                if name == "bare":
                    continue
                r = measure(name, args.seconds)
                r["ratio"] = r["rps"] / bare["rps"]
                results[name].append(r)
            print(
                f"bench: repetition {rep + 1}/{args.reps}: "
                + ", ".join(f"{n} {results[n][-1]['rps']:,.0f}/s" for n in names),
                flush=True,
            )
        loads.append(" ".join(f"{x:.2f}" for x in os.getloadavg()))

        weights = {}
        for name in ("sheet_html", "sheet_html_editor"):
            if name in endpoints:
                weights[LABELS[name].split("`")[1]] = page_weight(base, endpoints[name])
        lh = {}
        if args.lighthouse:
            lh = lighthouse(
                base,
                {
                    "/": {"path": "/"},
                    "/new/numking/": {"path": "/new/numking/"},
                    "sheet (share page 8 × 18)": endpoints["sheet_html"],
                },
                tmp,
            )
        text = report(args, seed_out, results, weights, lh, info, started, loads)
        print()
        print(text)
        if args.json:
            pathlib.Path(args.json).write_text(
                json.dumps(
                    {
                        "info": info,
                        "results": results,
                        "weights": weights,
                        "lighthouse": lh,
                        "seed": {k: v for k, v in seed_out.items() if k != "endpoints"},
                    },
                    indent=1,
                    default=str,
                )
            )
        return 0
    finally:
        stop_all()
        if args.keep:
            print(f"bench: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    # Import app code from the repo root, never from bench/ (a module here could shadow the stdlib).
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]
    if len(sys.argv) > 1 and sys.argv[1] == "_seed":
        seed(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(main())
