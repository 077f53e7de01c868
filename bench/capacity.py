"""Capacity benchmark: how many live tables one server carries, measured as tables play.

Run from the repo root: ``make bench-capacity`` (``BENCH_ARGS=--quick`` for a short run,
``BENCH_ARGS=--help`` for the options). Not part of ``make test``.

A *table* is one creator's phone and three watching phones, playing as people do:

- the creator saves a round every 30 s (the form's POST, then the redirected creator's
  page, with the session cookie and the CSRF token the page carries);
- while the cards of a card game (Num-X, Num-X malus, Num Win) are picked, the page
  sends one live preview (``POST /api/v1/games/<game>/score/``) per card added, as
  static/js/app.js does (250 ms debounce; ``--browser`` counts them in Chromium);
- each watching phone polls its share page every 2 s with ``If-None-Match`` (304, or
  200 with the new board after a round), as app.js does while the page is visible.

The five games are mixed in fixed shares, 4-6 players, sheets between 0 and 17 rounds
deep; a warm database of 100,000 old sheets (``--old``) sits beside the live ones. Sheets
are built through the services (``sheet_create``, ``round_add``) as templates, then
copied row for row in SQL, so every live table is its own sheet with its own session.

The load generator is this process: an asyncio open-loop client speaking raw HTTP/1.1
(one connection per request: gunicorn's sync workers close after each answer). Each
request has a fixed time in a schedule built before the step starts; latency is
measured from that time, so a late answer delays nothing that follows (no coordinated
omission) and a late send counts against the server. For T tables it plays a step of
``--seconds`` and requires p99 ≤ 100 ms for every request class and no error; T goes up
the ladder until a step fails, then is bisected. The *bare ceiling* replays the same
schedule against ``/bench/bare`` (Django and its middleware, nothing else).

SQLite always; PostgreSQL + Redis as well when DATABASE_URL / REDIS_URL are set (the
database name must contain "bench": it is flushed). The last line is
``capacity: sqlite T=<n> ratio=<r> | postgres T=<n> ratio=<r>``.
"""

import argparse
import asyncio
import atexit
import datetime as dt
import json
import os
import pathlib
import random
import resource
import secrets
import shutil
import signal
import sys
import tempfile
import time
import urllib.parse

# Python puts bench/ first on sys.path; a module there could shadow the
# standard library, so import from the repo root instead.
_BENCH = pathlib.Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != _BENCH]
sys.path.insert(0, str(_BENCH.parent))

from bench import load  # noqa: E402
from bench._common import percentile  # noqa: E402

# Shares of the five games among the tables (a guess at a family's evenings: Num-X most).
GAME_MIX = {"numx": 0.30, "numx-malus": 0.25, "numking": 0.20, "numwin": 0.15, "coop": 0.10}
PLAYER_COUNTS = (4, 5, 6)
DEPTHS = (0.0, 0.35, 0.7, 1.0)  # how deep into its game a live sheet starts (share of the rounds it may hold)
MAX_START_ROUNDS = 17  # a live sheet holds 0-17 rounds when its table starts; 1-18 after its first round
ROUND_EVERY = 30.0  # s: two rounds a table-minute
PICK_WINDOW = 20.0  # s: the cards of a round are picked during the 20 s before it is saved
POLL_EVERY = 2.0  # s: app.js setUpWatch, page visible
WATCHERS = 3
P99_MAX_MS = 100.0
TIMEOUT = 5.0  # s: an answer later than this is an error
LAG_MAX_MS = 10.0  # a step whose requests left later than this (p99) is played again
CLASSES = ("poll_304", "poll_200", "preview", "round_post", "creator_page")
CLASS_LABELS = {
    "poll_304": "watcher poll, unchanged `GET /w/{id}/{token}/?fragment=1` → 304",
    "poll_200": "watcher poll after a round → 200 (new board)",
    "preview": "live preview `POST /api/v1/games/{game}/score/`",
    "round_post": "save a round `POST /sheets/{id}/rounds/` → 302",
    "creator_page": "creator's page after the redirect `GET /sheets/{id}/`",
}
NAMES = ["Elya", "Sasha", "Mendy", "Noa", "Luka", "Inès", "Yanis", "Zoé", "Lina", "Timéo", "Maël", "Jade"]
HOST = "127.0.0.1"
CSRF_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


# --------------------------------------------------------------------------- seeding
# Runs in a child process (``python bench/capacity.py _seed OUT PARAMS``) with the bench environment.


class _Finished(Exception):
    """A drawn round would end the game: drawn again (a live sheet must stay live)."""


def _draw_round(rng, game: str, players: list[str], result: dict, totals: dict) -> dict:
    """Return a plausible next round of `game` for the sheet whose result is `result`."""
    nxt = result.get("next_round") or {}
    seated = nxt.get("players") or players
    if game == "numking":
        return load._king_round(rng, seated, nxt["cards"])
    if game == "coop":
        deck = (result.get("summary") or {}).get("deck") or 96
        return {"placed": rng.randint(deck // 2, deck - 1)}
    if game == "numx-malus":  # classic scoring: the cards left are counted (the entry form's steppers)
        hands = load._malus_round(rng, seated, totals)["entries"]
        return {"entries": {p: {"numeric": len(e["cards"]), "specials": 0} for p, e in hands.items()}}
    deck = rng.sample(load.NUMERIC, len(load.NUMERIC))
    if game == "numx":  # the cards each player scored this round
        sizes = {p: rng.randint(2, 6) for p in seated}
    else:  # numwin: the 5 cards left in each hand (classic)
        sizes = dict.fromkeys(seated, 5)
    entries = {
        p: {"cards": [{"kind": k, "value": v} for k, v in (deck.pop() for _ in range(n))]} for p, n in sizes.items()
    }
    data = {"entries": entries}
    if game == "numwin":
        data["declarer"] = rng.choice([*seated, None])
    return data


def _form_fields(game: str, players: list[str], data: dict) -> dict:
    """Return the entry form's fields for round `data`, as the creator's page posts them."""
    fields = {}
    if game == "coop":
        fields["placed"] = str(data["placed"])
        return fields
    if game == "numking":
        for seat, name in enumerate(players):
            fields[f"bid-{seat}"] = str(data["entries"][name]["bid"])
            fields[f"tricks-{seat}"] = str(data["entries"][name]["tricks"])
        fields["cards"] = str(data["cards"])
        return fields
    if game == "numx-malus":
        for seat, name in enumerate(players):
            counted = data["entries"][name]
            fields[f"numeric-{seat}"] = str(counted["numeric"] or "")  # an empty stepper is 0
            fields[f"specials-{seat}"] = str(counted["specials"] or "")
        return fields
    for seat, name in enumerate(players):
        if name in data["entries"]:
            cards = data["entries"][name]["cards"]
            fields[f"cards-{seat}"] = json.dumps(cards) if cards else ""
            fields[f"points-{seat}"] = ""
    if game == "numwin":
        declarer = data.get("declarer")
        fields["declarer"] = str(players.index(declarer)) if declarer else ""
    return fields


def _previews(game: str, players: list[str], options: dict, data: dict) -> list[str]:
    """Return the bodies of the live previews the page sends while `data`'s cards are picked.

    One per card added (app.js: each tap schedules a preview 250 ms later, and people
    tap slower than that), with every hand as it stands; Num Win adds one when the
    declarer is chosen.
    """
    if game not in ("numx", "numx-malus", "numwin"):
        return []
    seated = list(data["entries"])
    body_players = players if len(seated) == len(players) else seated
    opts = dict(options)
    if game == "numwin":
        opts["rounds"] = 1
        if len(seated) != len(players):
            opts.pop("teams", None)
    if game == "numx-malus":  # one preview per tap on a stepper's +, every count as it stands
        counts = {name: {"numeric": 0, "specials": 0} for name in seated}
        out = []
        for name in seated:
            for _ in range(data["entries"][name]["numeric"]):
                counts[name]["numeric"] += 1
                rnd = {"entries": {n: dict(c) for n, c in counts.items()}}
                out.append(json.dumps({"players": body_players, "options": opts, "rounds": [rnd]}, ensure_ascii=False))
        return out
    hands = {name: [] for name in seated}
    out = []

    def body(declarer=None):
        rnd = {"entries": {name: {"cards": list(cards)} for name, cards in hands.items()}}
        if declarer:
            rnd["declarer"] = declarer
        return json.dumps({"players": body_players, "options": opts, "rounds": [rnd]}, ensure_ascii=False)

    for name in seated:
        for card in data["entries"][name]["cards"]:
            hands[name].append(card)
            out.append(body())
    if game == "numwin" and data.get("declarer"):
        out.append(body(data["declarer"]))
    return out


def seed(out_path: str, params: dict) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.http import QueryDict
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from scoring import forms, services, tokens
    from scoring.games import GAMES
    from scoring.models import Player, Round, Sheet

    if connection.vendor != "sqlite":
        name = connection.settings_dict["NAME"]
        if "bench" not in name:
            sys.exit(f"bench: refusing to flush database {name!r}: its name must contain 'bench'.")
        call_command("flush", interactive=False, verbosity=0)

    rng = random.Random(2027)
    ahead = params["ahead"]
    t0 = time.perf_counter()

    def play(sheet, game, players, count, totals):
        """Add up to `count` drawn rounds that keep the sheet live; return (sheet, datas)."""
        datas = []
        for r in range(count):
            for _attempt in range(40):
                result = services.sheet_result(sheet, "fr")
                saved = dict(totals)
                data = _draw_round(rng, game, players, result, totals)
                try:
                    with transaction.atomic():
                        after = services.round_add(sheet=sheet, data=data)
                        # Only the last round may end the game (a Num-X game is two rounds, X-Game).
                        if after.finished and r < count - 1:
                            raise _Finished
                except (services.InvalidInput, _Finished):
                    totals.clear()
                    totals.update(saved)
                    continue
                sheet = after
                datas.append(data)
                break
            else:
                break
        return sheet, datas

    templates = []
    for game in GAME_MIX:
        top = GAMES[game].describe("fr")["players"]["max"]
        for n in PLAYER_COUNTS:
            for depth in DEPTHS:
                players = rng.sample(NAMES, min(n, top))
                options = {"numwin": {"rounds": 12}, "numx": {"mode": "xgame"}}.get(game, {})
                # A Num-X game is two rounds (X-Game): its tables start a fresh sheet.
                want = min(ahead, 2) if game == "numx" else round(depth * MAX_START_ROUNDS) + ahead
                with transaction.atomic():
                    # A scratch sheet finds how many rounds this game takes while staying live.
                    sid = transaction.savepoint()
                    scratch = services.sheet_create(game=game, players=players, options=options).sheet
                    _, datas = play(scratch, game, players, want, dict.fromkeys(players, 0))
                    transaction.savepoint_rollback(sid)
                start = (0 if datas else -1) if game == "numx" else len(datas) - ahead
                if start < 0:
                    continue
                created = services.sheet_create(game=game, players=players, options=options, owner_key="template")
                sheet = created.sheet
                for data in datas[:start]:
                    sheet = services.round_add(sheet=sheet, data=data)
                assert sheet.round_count == start and not sheet.finished, (game, start)
                future = []
                for j, data in enumerate(datas[start:]):
                    fields = _form_fields(game, players, data)
                    back = forms.round_data(QueryDict(urllib.parse.urlencode(fields)), sheet)
                    assert back == data, (game, back, data)
                    future.append(
                        {
                            "fields": fields,
                            "number": start + 1 + j,
                            "version": sheet.version + j,
                            "previews": _previews(game, players, sheet.options, data),
                        }
                    )
                templates.append(
                    {
                        "id": sheet.pk,
                        "game": game,
                        "players": players,
                        "rounds": start,
                        "version": sheet.version,
                        "future": future,
                    }
                )
    by_game = {g: [i for i, t in enumerate(templates) if t["game"] == g] for g in GAME_MIX}
    games = [g for g in GAME_MIX if by_game[g]]
    assert games == list(GAME_MIX), f"no live sheet could be built for {set(GAME_MIX) - set(games)}"

    def pick():
        game = rng.choices(games, weights=[GAME_MIX[g] for g in games])[0]
        return rng.choice(by_game[game])

    q = connection.ops.quote_name

    def clone(pairs):
        """Copy template sheets with their seats and rounds: pairs of (new id, template index, owner key)."""
        with connection.cursor() as cur:
            cur.execute("CREATE TEMP TABLE bench_clone (new_id varchar(32), tpl_id varchar(32), owner varchar(64))")
            rows = [(new, templates[i]["id"], owner) for new, i, owner in pairs]
            for k in range(0, len(rows), 5000):
                cur.executemany("INSERT INTO bench_clone VALUES (%s, %s, %s)", rows[k : k + 5000])
            for model, key in ((Sheet, "id"), (Player, "sheet_id"), (Round, "sheet_id")):
                cols = [f.column for f in model._meta.concrete_fields if not (model is not Sheet and f.column == "id")]
                pick_col = {key: "b.new_id"}
                if model is Sheet:
                    pick_col["owner_key"] = "b.owner"
                select = ", ".join(pick_col.get(c, f"s.{q(c)}") for c in cols)
                cur.execute(
                    f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(c) for c in cols)}) "
                    f"SELECT {select} FROM bench_clone b JOIN {q(model._meta.db_table)} s ON s.{q(key)} = b.tpl_id"
                )
            cur.execute("DROP TABLE bench_clone")

    t_tpl = time.perf_counter() - t0
    with transaction.atomic():
        clone([(f"old{k}x{secrets.token_hex(6)}", pick(), f"o{k}") for k in range(params["old"])])
    t_old = time.perf_counter() - t0 - t_tpl

    tables = []
    sessions = []
    expire = timezone.now() + dt.timedelta(days=365)
    store = SessionStore()
    for _ in range(params["pool"]):
        tpl = pick()
        sheet_id = secrets.token_urlsafe(16)
        owner = secrets.token_urlsafe(16)
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        sessions.append(Session(session_key=key, session_data=store.encode({"owner_id": owner}), expire_date=expire))
        tables.append(
            {
                "id": sheet_id,
                "tpl": tpl,
                "owner": owner,
                "session": key,
                "share": tokens.read_token(sheet_id),
                "csrf": get_random_string(32, CSRF_CHARS),
            }
        )
    with transaction.atomic():
        clone([(t["id"], t["tpl"], t["owner"]) for t in tables])
        Session.objects.bulk_create(sessions, batch_size=2000)
    counts = {m.__name__: m.objects.count() for m in (Sheet, Player, Round, Session)}
    out = {
        "templates": templates,
        "tables": tables,
        "counts": counts,
        "seconds": {"templates": t_tpl, "old": t_old, "total": time.perf_counter() - t0},
        "session_cookie": settings.SESSION_COOKIE_NAME,
        "csrf_cookie": settings.CSRF_COOKIE_NAME,
        "db": {
            "vendor": connection.vendor,
            "version": ".".join(map(str, connection.Database.sqlite_version_info))
            if connection.vendor == "sqlite"
            else f"{connection.pg_version // 10000}.{connection.pg_version % 10000}",
            "name": str(connection.settings_dict["NAME"]),
        },
        "cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
    }
    pathlib.Path(out_path).write_text(json.dumps(out, ensure_ascii=False))


# --------------------------------------------------------------------------- requests


def _cookies(seed_out: dict, table: dict) -> str:
    return f"{seed_out['session_cookie']}={table['session']}; {seed_out['csrf_cookie']}={table['csrf']}"


class Traffic:
    """Build the HTTP requests of the tables' phones (raw HTTP/1.1 bytes)."""

    def __init__(self, seed_out: dict, port: int):
        self.seed = seed_out
        self.templates = seed_out["templates"]
        self.host = f"{HOST}:{port}"
        self.origin = f"https://{self.host}"
        self.common = (
            f"Host: {self.host}\r\nUser-Agent: capacity-bench\r\nAccept-Encoding: gzip, deflate, br\r\n"
            "Accept-Language: fr-FR,fr;q=0.9\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n"
        )

    def get(self, path: str, extra: str = "") -> bytes:
        return f"GET {path} HTTP/1.1\r\n{self.common}{extra}\r\n".encode()

    def post(self, path: str, body: bytes, ctype: str, extra: str = "") -> bytes:
        head = (
            f"POST {path} HTTP/1.1\r\n{self.common}Content-Type: {ctype}\r\nContent-Length: {len(body)}\r\n{extra}\r\n"
        )
        return head.encode() + body

    def poll(self, table: dict, version: int) -> bytes:
        return self.get(f"/w/{table['id']}/{table['share']}/?fragment=1", f'If-None-Match: "{version}-fr"\r\n')

    def preview(self, table: dict, j: int, m: int) -> bytes:
        tpl = self.templates[table["tpl"]]
        body = tpl["future"][j]["previews"][m].encode()
        extra = f"Origin: {self.origin}\r\nCookie: {_cookies(self.seed, table)}\r\n"
        return self.post(f"/api/v1/games/{tpl['game']}/score/", body, "application/json", extra)

    def round_post(self, table: dict, j: int) -> bytes:
        fut = self.templates[table["tpl"]]["future"][j]
        fields = {
            "csrfmiddlewaretoken": table["csrf"],
            "number": str(fut["number"]),
            "version": str(fut["version"]),
            **fut["fields"],
        }
        extra = (
            f"Origin: {self.origin}\r\nReferer: {self.origin}/sheets/{table['id']}/\r\n"
            f"Cookie: {_cookies(self.seed, table)}\r\n"
        )
        body = urllib.parse.urlencode(fields).encode()
        return self.post(f"/sheets/{table['id']}/rounds/", body, "application/x-www-form-urlencoded", extra)

    def creator_page(self, table: dict) -> bytes:
        return self.get(f"/sheets/{table['id']}/", f"Cookie: {_cookies(self.seed, table)}\r\n")

    def bare(self) -> bytes:
        return self.get("/bench/bare")


def source_address(i: int) -> str:
    """Return the loopback address table `i`'s phones send from (127.1.0.1, 127.1.0.2, …).

    A table is a household: its phones share an address, and tables have their own,
    so the per-address rate limits of the pages count one table's writes, not everyone's.
    """
    return f"127.{1 + i // 62500}.{i // 250 % 250}.{i % 250 + 1}"


class _Exchange(asyncio.Protocol):
    """One request on its own connection; the answer is complete when the server closes."""

    def __init__(self, data: bytes, done: asyncio.Future):
        self.data, self.done, self.buf = data, done, bytearray()

    def connection_made(self, transport):
        transport.write(self.data)

    def data_received(self, chunk):
        self.buf += chunk

    def connection_lost(self, exc):
        if not self.done.done():
            if self.buf:
                self.done.set_result(bytes(self.buf))
            else:
                self.done.set_exception(exc or ConnectionError("closed without an answer"))


def _status_and_header(raw: bytes, name: bytes) -> tuple[int, str]:
    status = int(raw[9:12])
    head = raw[: raw.find(b"\r\n\r\n")]
    value = ""
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == name:
            value = v.strip().decode()
            break
    return status, value


class Step:
    """One step of T tables for `seconds`, against the app (or the bare view), open loop."""

    def __init__(self, traffic: Traffic, port: int, tables: list[dict], seconds: float, bare: bool, rng):
        self.traffic, self.port, self.tables, self.seconds, self.bare = traffic, port, tables, seconds, bare
        self.lat = {c: [] for c in CLASSES}
        self.status = {c: {} for c in CLASSES}
        self.errors = {c: 0 for c in CLASSES}
        self.error_samples: list[str] = []
        self.lags: list[float] = []
        self.inflight = 0
        self.posted = 0
        tpls = traffic.templates
        self.versions = [[tpls[t["tpl"]]["version"]] * WATCHERS for t in tables]
        events = []
        for i, table in enumerate(tables):
            tpl = tpls[table["tpl"]]
            phase = rng.uniform(0, ROUND_EVERY)
            # Rounds saved after the step still have their cards picked during it.
            saves = [phase + k * ROUND_EVERY for k in range(int((seconds + PICK_WINDOW) // ROUND_EVERY) + 1)]
            for j, ts in enumerate(s for s in saves if s < seconds + PICK_WINDOW):
                if j >= len(tpl["future"]):
                    break  # the game is over (a Num-X game is two rounds)
                previews = tpl["future"][j]["previews"]
                for m in range(len(previews)):
                    tp = ts - PICK_WINDOW + PICK_WINDOW * (m + 1) / (len(previews) + 1)
                    if 0 <= tp < seconds:
                        events.append((tp, 1, i, j * 1000 + m))
                if ts < seconds:
                    events.append((ts, 2, i, j))
            for w in range(WATCHERS):
                t = rng.uniform(0, POLL_EVERY)
                while t < seconds:
                    events.append((t, 0, i, w))
                    t += POLL_EVERY
        events.sort()
        self.events = events
        self.planned = {
            "poll": sum(1 for e in events if e[1] == 0),
            "preview": sum(1 for e in events if e[1] == 1),
            "round": sum(1 for e in events if e[1] == 2),
        }

    async def _send(self, cls: str, data: bytes, scheduled: float, expect: tuple[int, ...], i: int):
        loop = asyncio.get_running_loop()
        self.inflight += 1
        try:
            async with asyncio.timeout(TIMEOUT):
                done = loop.create_future()
                transport, _ = await loop.create_connection(
                    lambda: _Exchange(data, done), HOST, self.port, local_addr=(source_address(i), 0)
                )
                try:
                    raw = await done
                finally:
                    transport.close()
            status, value = _status_and_header(raw, b"etag")
        except (OSError, TimeoutError, ConnectionError, ValueError) as exc:
            self.errors[cls] += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(f"{cls}: {type(exc).__name__} {exc}")
            return None, None
        finally:
            self.inflight -= 1
        self.lat[cls].append((loop.time() - scheduled) * 1000)
        self.status[cls][status] = self.status[cls].get(status, 0) + 1
        if status not in expect:
            self.errors[cls] += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(f"{cls}: HTTP {status} {raw[:300]!r}")
        return status, value

    async def _poll(self, i: int, w: int, scheduled: float):
        if self.bare:
            await self._send("poll_304", self.traffic.bare(), scheduled, (200,), i)
            return
        status, etag = await self._send(
            "poll_304", self.traffic.poll(self.tables[i], self.versions[i][w]), scheduled, (200, 304), i
        )
        if status == 200:
            # Counted as the class it turned out to be: an answer with the new board.
            lat = self.lat["poll_304"].pop()
            self.status["poll_304"][200] -= 1
            self.lat["poll_200"].append(lat)
            self.status["poll_200"][200] = self.status["poll_200"].get(200, 0) + 1
            if etag:
                self.versions[i][w] = int(etag.removeprefix("W/").strip('"').split("-")[0])

    async def _preview(self, i: int, jm: int, scheduled: float):
        data = self.traffic.bare() if self.bare else self.traffic.preview(self.tables[i], jm // 1000, jm % 1000)
        await self._send("preview", data, scheduled, (200,) if self.bare else (200, 400), i)

    async def _round(self, i: int, j: int, scheduled: float):
        data = self.traffic.bare() if self.bare else self.traffic.round_post(self.tables[i], j)
        status, _ = await self._send("round_post", data, scheduled, (200,) if self.bare else (302,), i)
        if status is None:
            return
        self.posted += status == 302
        # The browser follows the redirect at once: that request is due when the answer came.
        now = asyncio.get_running_loop().time()
        data = self.traffic.bare() if self.bare else self.traffic.creator_page(self.tables[i])
        await self._send("creator_page", data, now, (200,), i)

    async def run(self):
        loop = asyncio.get_running_loop()
        handlers = (self._poll, self._preview, self._round)
        tasks = set()
        t0 = loop.time() + 0.2
        for t, kind, i, arg in self.events:
            due = t0 + t
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            self.lags.append((loop.time() - due) * 1000)
            task = loop.create_task(handlers[kind](i, arg, due))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.wait(list(tasks), timeout=TIMEOUT * 2 + 1)


async def _prime(traffic: Traffic, port: int, tables: list[dict]) -> int:
    """Open each table's creator's page twice, unmeasured: return how many answered 200.

    A table that has played a while has had its page shown after every round; without
    this each step's fresh tables would show it for the first time (QR code, entry form,
    result all cold), which no table in play does. Twice, so both workers are likely warm.
    """
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(4)
    ok = 0

    async def one(i, table):
        nonlocal ok
        async with gate:
            for _ in range(2):
                try:
                    ok += await one_get(i, table)
                except (OSError, TimeoutError, ConnectionError):
                    pass  # a page not primed is only a colder start for that table

    async def one_get(i, table) -> bool:
        async with asyncio.timeout(TIMEOUT):
            done = loop.create_future()
            transport, _ = await loop.create_connection(
                lambda done=done: _Exchange(traffic.creator_page(table), done),
                HOST,
                port,
                local_addr=(source_address(i), 0),
            )
            try:
                return (await done)[9:12] == b"200"
            finally:
                transport.close()

    await asyncio.gather(*(one(i, t) for i, t in enumerate(tables)))
    return ok


def _proc_stat(pid: int) -> tuple[float, int]:
    """Return (CPU seconds, RSS bytes) of a process, (0, 0) if it is gone."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), int(fields[21]) * os.sysconf("SC_PAGE_SIZE")


def _workers(master: int) -> list[int]:
    try:
        return [int(p) for p in pathlib.Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def _pg_backends(db_name: str) -> list[int]:
    """Return the pids of the PostgreSQL backends connected to the bench database (same machine)."""
    from bench._common import connect, db_url

    try:
        with connect(db_url("postgres")) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [db_name]
            ).fetchall()
    except Exception:
        return []
    return [r[0] for r in rows]


def _machine_busy() -> tuple[int, int]:
    fields = [int(x) for x in pathlib.Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def _loop_factory():
    """Return uvloop's event loop when it is installed (about half the load generator's CPU), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run_step(traffic, port, master, tables, seconds, bare, rng, pg_db="") -> dict:
    primed = 0
    if not bare:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            primed = runner.run(_prime(traffic, port, tables))
    step = Step(traffic, port, tables, seconds, bare, rng)
    pg = _pg_backends(pg_db) if pg_db else []
    g0 = load.cpu_seconds(master)
    d0 = sum(_proc_stat(p)[0] for p in pg)
    m0 = _machine_busy()
    l0 = time.process_time()
    w0 = time.perf_counter()
    load_before = os.getloadavg()[0]
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(step.run())
    wall = time.perf_counter() - w0
    l1 = time.process_time()
    m1 = _machine_busy()
    pg1 = _pg_backends(pg_db) if pg_db else []
    d1 = sum(_proc_stat(p)[0] for p in pg1 if p in pg)  # backends opened during the step are not counted
    g1 = load.cpu_seconds(master)
    rss = [_proc_stat(p)[1] for p in _workers(master)]
    out = {
        "tables": len(tables),
        "seconds": seconds,
        "wall": wall,
        "bare": bare,
        "load_before": load_before,
        "planned": step.planned,
        "posted": step.posted,
        "primed": primed,
        "classes": {},
        "errors": sum(step.errors.values()),
        "error_samples": step.error_samples,
        "lag_p99_ms": percentile(step.lags, 99) if step.lags else 0.0,
        "cpu": {"gunicorn": g1 - g0, "loader": l1 - l0, "postgres": d1 - d0},
        "machine_busy": (m1[0] - m0[0]) / max(1, m1[1] - m0[1]),
        "worker_rss_mb": max(rss, default=0) / 2**20,
    }
    for c in CLASSES:
        lat = step.lat[c]
        out["classes"][c] = {
            "n": len(lat),
            "p50": percentile(lat, 50) if lat else None,
            "p99": percentile(lat, 99) if lat else None,
            "max": max(lat) if lat else None,
            "errors": step.errors[c],
            "status": step.status[c],
        }
    worst = [v["p99"] for v in out["classes"].values() if v["p99"] is not None]
    out["worst_p99"] = max(worst, default=0.0)
    out["ok"] = out["errors"] == 0 and out["worst_p99"] <= P99_MAX_MS
    return out


class Pool:
    """Hand out fresh live tables: each step plays its own sheets from their first saved round."""

    def __init__(self, tables):
        self.tables, self.next = tables, 0

    def take(self, n: int) -> list[dict]:
        if self.next + n > len(self.tables):
            raise RuntimeError(f"the pool of live tables ran out ({len(self.tables)}): raise --max-tables")
        out = self.tables[self.next : self.next + n]
        self.next += n
        return out


def search(name, run_once, ladder, refine, log, retries=3) -> tuple[int, list[dict], dict | None]:
    """Step T up the ladder until a step fails, then bisect `refine` times; return (T, steps, best step).

    A failed step is played once more with fresh tables before T is refused (on a
    shared machine another process can stall both workers for a moment), and up to
    `retries` - 1 times more while the load generator's own lag shows the machine was
    the cause.
    """
    steps, best, good, bad = [], None, 0, None

    def run(t):
        r = run_once(t)
        # A failed step is played again: once, and again (up to `retries` in all) while the load
        # generator itself was late (lag p99 > 10 ms: the machine, not the server, held the requests back;
        # an overloaded server leaves the generator on time and the answers late).
        tries = 0
        while not r["ok"] and tries < retries and (tries < 1 or r["lag_p99_ms"] > LAG_MAX_MS):
            steps.append(r)
            log(name, r)
            r = run_once(t)
            r["retried"] = True
            tries += 1
        return r

    for t in ladder:
        r = run(t)
        steps.append(r)
        log(name, r)
        if r["ok"]:
            good, best = t, r
        else:
            bad = t
            break
    if bad is None:
        return good, steps, best
    # Below the first rung: halve until a step passes, then bisect as above.
    while good == 0 and bad >= 20:
        t = bad // 2
        r = run(t)
        steps.append(r)
        log(name, r)
        if r["ok"]:
            good, best = t, r
        else:
            bad = t
    for _ in range(refine):
        t = (good + bad) // 2
        if good == 0 or t <= good or t >= bad or bad - good < max(10, good // 20):
            break
        r = run(t)
        steps.append(r)
        log(name, r)
        if r["ok"]:
            good, best = t, r
        else:
            bad = t
    return good, steps, best


# --------------------------------------------------------------------------- database cost


def dbcost(out_path: str, seed_path: str, first: int, count: int) -> None:
    """Play `count` table-minutes through Django's test client, counting statements, rows and WAL."""
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    seed_out = json.loads(pathlib.Path(seed_path).read_text())
    tables = seed_out["tables"][first : first + count]
    templates = seed_out["templates"]
    postgres = connection.vendor == "postgresql"
    headers = {"X-Forwarded-Proto": "https", "Accept-Encoding": "gzip", "Accept-Language": "fr"}
    stats = {c: {"requests": 0, "statements": 0, "ms": 0.0, "writes": 0} for c in CLASSES}

    def call(cls, client, method, path, **kw):
        with CaptureQueriesContext(connection) as ctx:
            if method == "GET":
                r = client.get(path, secure=True, headers={**headers, **kw.pop("headers", {})})
            else:
                r = client.post(path, secure=True, headers={**headers, **kw.pop("headers", {})}, **kw)
        s = stats[cls]
        s["requests"] += 1
        s["statements"] += len(ctx.captured_queries)
        s["ms"] += sum(float(q.get("time") or 0) for q in ctx.captured_queries) * 1000
        s["writes"] += sum(
            1
            for q in ctx.captured_queries
            if q["sql"].lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")
        )
        return r

    def pg(sql):
        with connection.cursor() as cur:
            cur.execute(sql)
            return cur.fetchone()

    def rows_now():
        if not postgres:
            return 0, 0
        pg("SELECT pg_stat_force_next_flush()")
        pg("SELECT pg_stat_clear_snapshot()")
        row = pg(
            "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0), coalesce(sum(seq_tup_read + idx_tup_fetch), 0) "
            "FROM pg_stat_user_tables"
        )
        return int(row[0]), int(row[1])

    def lsn():
        return int(pg("SELECT pg_current_wal_lsn() - '0/0'")[0]) if postgres else 0

    def table_minute(table):
        tpl = templates[table["tpl"]]
        client = Client(HTTP_HOST="127.0.0.1")
        client.cookies[seed_out["session_cookie"]] = table["session"]
        client.cookies[seed_out["csrf_cookie"]] = table["csrf"]
        watcher = Client(HTTP_HOST="127.0.0.1")
        version = tpl["version"]
        for j in range(min(2, len(tpl["future"]))):
            fut = tpl["future"][j]
            for body in fut["previews"]:
                r = call(
                    "preview",
                    client,
                    "POST",
                    f"/api/v1/games/{tpl['game']}/score/",
                    data=body,
                    content_type="application/json",
                )
                assert r.status_code in (200, 400), r.content[:200]
            fields = {"number": str(fut["number"]), "version": str(fut["version"]), **fut["fields"]}
            r = call("round_post", client, "POST", f"/sheets/{table['id']}/rounds/", data=fields)
            assert r.status_code == 302, (r.status_code, r.content[:300])
            r = call("creator_page", client, "GET", f"/sheets/{table['id']}/")
            assert r.status_code == 200
            for poll in range(WATCHERS * 15):  # 3 watchers × 30 s / 2 s
                r = call(
                    "poll_304" if poll >= WATCHERS else "poll_200",
                    watcher,
                    "GET",
                    f"/w/{table['id']}/{table['share']}/?fragment=1",
                    headers={"If-None-Match": f'"{version}-fr"'} if poll >= WATCHERS else {},
                )
                assert r.status_code in (200, 304)
            version += 1

    # Half the tables once unmeasured (templates compiled, code warm), then the measured half.
    half = count // 2
    for table in tables[:half]:
        table_minute(table)
    for s in stats.values():
        s.update(requests=0, statements=0, ms=0.0, writes=0)
    idle_lsn0 = lsn()
    t_idle = time.perf_counter()
    time.sleep(2.0)
    idle = (lsn() - idle_lsn0) / (time.perf_counter() - t_idle)  # others' WAL per second on a shared server
    rows0, reads0 = rows_now()
    lsn0 = lsn()
    t0 = time.perf_counter()
    for table in tables[half:]:
        table_minute(table)
    elapsed = time.perf_counter() - t0
    wal = lsn() - lsn0
    rows1, reads1 = rows_now()
    minutes = count - half
    out = {
        "vendor": connection.vendor,
        "table_minutes": minutes,
        "rounds": 2 * minutes,
        "classes": stats,
        "rows_written": rows1 - rows0,
        "rows_read": reads1 - reads0,
        "wal_bytes": wal,
        "wal_idle_per_s": idle,
        "elapsed": elapsed,
        "health_check_per_request": postgres,  # conn_health_checks: a SELECT 1 per request, not captured
    }
    pathlib.Path(out_path).write_text(json.dumps(out))


# --------------------------------------------------------------------------- browser


def count_previews(base: str, seed_out: dict, tables: list[dict]) -> list[dict]:
    """Open creator's pages in Chromium, tap a round's cards as a person does, count the previews sent."""
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for table in tables:
                tpl = seed_out["templates"][table["tpl"]]
                ctx = browser.new_context(
                    viewport={"width": 390, "height": 844},
                    locale="fr-FR",
                    extra_http_headers={"X-Forwarded-Proto": "https"},
                )
                ctx.add_cookies(
                    [
                        {"name": seed_out["session_cookie"], "value": table["session"], "url": base},
                        {"name": seed_out["csrf_cookie"], "value": table["csrf"], "url": base},
                    ]
                )
                page = ctx.new_page()
                sent = []
                page.on("request", lambda r, sent=sent: sent.append(r.url) if "/score/" in r.url else None)
                page.goto(f"{base}/sheets/{table['id']}/")
                fields = tpl["future"][0]["fields"]
                taps = cards = 0
                for seat in range(len(tpl["players"])):
                    raw = fields.get(f"cards-{seat}")
                    if not raw:
                        continue
                    hand = page.locator(f"fieldset.hand[data-seat='{seat}']")
                    if hand.locator(".picker").is_hidden():
                        hand.locator(".hand-toggle").click()
                    colour = None
                    for card in json.loads(raw):
                        if card["kind"] != colour:
                            hand.locator(f".colour[data-kind='{card['kind']}']").click()
                            colour = card["kind"]
                            taps += 1
                            page.wait_for_timeout(400)
                        hand.locator(f".value[data-value='{card['value']}']").click()
                        taps += 1
                        cards += 1
                        page.wait_for_timeout(700)  # a person finds the next card
                page.wait_for_timeout(1500)
                out.append(
                    {
                        "game": tpl["game"],
                        "players": len(tpl["players"]),
                        "cards": cards,
                        "taps": taps,
                        "previews": len(sent),
                        "modelled": len(tpl["future"][0]["previews"]),
                    }
                )
                ctx.close()
        finally:
            browser.close()
    return out


# --------------------------------------------------------------------------- report


def fmt(x, digits=1):
    return "—" if x is None else f"{x:,.{digits}f}"


def per_minute(step: dict) -> float:
    return step["tables"] * step["seconds"] / 60


def report_db(label: str, res: dict) -> str:
    app, bare = res["best"], res["bare_best"]
    lines = [
        f"### {label}",
        "",
        f"- T = **{res['T']}** tables, T_bare = **{res['T_bare']}**, ratio **{res['ratio']:.2f}**; "
        f"load average at the start of the searches: {res['load_start']} (app) / {res['load_bare']} (bare)",
        f"- seeding {res['seed']['seconds']['total']:.0f} s: {res['seed']['counts']}",
    ]
    if app:
        tm = per_minute(app)
        reqs = sum(c["n"] for c in app["classes"].values())
        lines += [
            f"- at T = {app['tables']}: {reqs / app['seconds']:,.0f} req/s, {reqs / tm:.1f} requests per table-minute; "
            f"rounds saved {app['posted']} of {app['planned']['round']} planned",
            f"- CPU per table-minute: gunicorn {app['cpu']['gunicorn'] * 1000 / tm:.1f} ms, load generator "
            f"{app['cpu']['loader'] * 1000 / tm:.1f} ms"
            + (f", PostgreSQL backends {app['cpu']['postgres'] * 1000 / tm:.1f} ms" if res["postgres"] else "")
            + f"; machine busy {app['machine_busy']:.0%} (both cores, everyone's processes)",
            f"- worker RSS (largest of the workers, end of step): {app['worker_rss_mb']:.0f} MB; "
            f"load generator lag p99 {app['lag_p99_ms']:.1f} ms",
        ]
    cpu = res["cpu_ceiling"]
    lines.append(
        f"- CPU ceiling (2 cores × 60,000 ms a minute at 70 % busy ÷ the CPU of a table-minute, gunicorn + load "
        f"generator{' + database backends' if res['postgres'] else ''}, median over the steps): app "
        f"{cpu['app_ms']:.0f} ms → {cpu['T_app']:,} tables, bare {cpu['bare_ms']:.0f} ms → {cpu['T_bare']:,} tables, "
        f"ratio {cpu['ratio']:.2f}"
    )
    lines += [
        "",
        "| request class | n at T | p50 ms | p99 ms | max ms | n at T_bare (bare) | p50 ms | p99 ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in CLASSES:
        a = app["classes"][c] if app else {}
        b = bare["classes"][c] if bare else {}
        lines.append(
            f"| {CLASS_LABELS[c]} | {a.get('n', 0):,} | {fmt(a.get('p50'))} | {fmt(a.get('p99'))} | {fmt(a.get('max'))} "
            f"| {b.get('n', 0):,} | {fmt(b.get('p50'))} | {fmt(b.get('p99'))} |"
        )
    lines += ["", "Steps (tables: worst p99 ms, errors, req/s, gunicorn CPU %, loader CPU %):", ""]
    for kind, steps in (("app", res["steps"]), ("bare", res["bare_steps"])):
        lines.append(
            f"- {kind}: "
            + "; ".join(
                f"{s['tables']} {'ok' if s['ok'] else 'FAIL'} {s['worst_p99']:.0f} ms {s['errors']} err "
                f"{sum(c['n'] for c in s['classes'].values()) / s['seconds']:,.0f}/s "
                f"{s['cpu']['gunicorn'] / s['wall']:.0%} {s['cpu']['loader'] / s['wall']:.0%}"
                for s in steps
            )
        )
    cost = res.get("dbcost")
    if cost:
        m = cost["table_minutes"]
        extra = 1 if cost["health_check_per_request"] else 0
        lines += [
            "",
            f"Database cost, {m} table-minutes through Django's test client ({cost['rounds']} rounds"
            + (", + one `SELECT 1` health check per request on PostgreSQL" if extra else "")
            + "):",
            "",
            "| class | requests / table-minute | statements / request | writes / request | DB ms / request |",
            "|---|---:|---:|---:|---:|",
        ]
        total_st = 0.0
        for c, s in cost["classes"].items():
            if not s["requests"]:
                continue
            st = s["statements"] / s["requests"] + extra
            total_st += st * s["requests"] / m
            lines.append(
                f"| {c} | {s['requests'] / m:.1f} | {st:.2f} | {s['writes'] / s['requests']:.2f} | "
                f"{s['ms'] / s['requests']:.2f} |"
            )
        lines.append(f"| **table-minute** | | **{total_st:.0f}** | | |")
        if cost["vendor"] == "postgresql":
            wal_net = cost["wal_bytes"] - cost["wal_idle_per_s"] * cost["elapsed"]
            lines += [
                "",
                f"Rows written {cost['rows_written'] / cost['rounds']:.1f} per round "
                f"({cost['rows_written'] / m:.1f} per table-minute), rows read {cost['rows_read'] / m:,.0f} per "
                f"table-minute (pg_stat_user_tables); WAL {cost['wal_bytes'] / cost['rounds']:,.0f} bytes per round "
                f"as measured, {max(0.0, wal_net) / cost['rounds']:,.0f} after taking off the shared server's idle "
                f"WAL rate ({cost['wal_idle_per_s']:,.0f} B/s) over the {cost['elapsed']:.1f} s of the batch "
                f"(pg_current_wal_lsn()).",
            ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def ladder(start: int, factor: float, top: int) -> list[int]:
    out, t = [], float(start)
    while round(t) <= top:
        out.append(int(round(t)))
        t *= factor
    return out


def cpu_per_table_minute(step: dict) -> float:
    """Return the CPU milliseconds one table-minute cost in a step: gunicorn, load generator, database."""
    return sum(step["cpu"].values()) * 1000 / per_minute(step)


def cpu_ceiling(steps: list[dict], bare_steps: list[dict], cores: int = 2, busy: float = 0.7) -> dict:
    """Return the tables the CPU would carry at `busy`, for the app and the bare view.

    It does not depend on the other processes' stalls that decide the p99 on a shared
    machine: what a quiet machine of this size would carry, up to queueing.
    """

    def median(xs):
        xs = sorted(xs)
        return xs[len(xs) // 2] if xs else 0.0

    app = median([cpu_per_table_minute(s) for s in steps])
    bare = median([cpu_per_table_minute(s) for s in bare_steps])
    t_app = int(cores * 60_000 * busy / app) if app else 0
    t_bare = int(cores * 60_000 * busy / bare) if bare else 0
    return {"app_ms": app, "bare_ms": bare, "T_app": t_app, "T_bare": t_bare, "ratio": t_app / t_bare if t_bare else 0}


def bench_db(args, label: str, db_env: dict) -> dict:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="numapp-capacity-"))
    # bench_env starts from this process's environment: the database and the cache are this run's own.
    env = {k: v for k, v in load.bench_env(tmp).items() if k not in ("DATABASE_URL", "REDIS_URL")} | db_env
    py = sys.executable
    postgres = bool(env.get("DATABASE_URL"))
    try:
        load.run([py, "manage.py", "migrate", "--noinput", "-v0"], env=env, capture=True)
        load.run([py, "manage.py", "collectstatic", "--noinput", "-v0"], env=env, capture=True)
        steps_app = ladder(args.start, args.factor, args.max_tables)
        # Every step plays fresh tables, and a failed step is played twice.
        pool = (
            2 * sum(steps_app) + 2 * (args.refine + 2) * args.max_tables + args.warmup_tables + args.dbcost_tables + 8
        )
        seed_file = tmp / "seed.json"
        print(f"capacity [{label}]: seeding {args.old:,} old sheets and {pool:,} live tables ...", flush=True)
        params = {"old": args.old, "pool": pool, "ahead": max(2, int((args.seconds + PICK_WINDOW) // ROUND_EVERY) + 1)}
        load.run([py, __file__, "_seed", str(seed_file), json.dumps(params)], env=env, capture=True, timeout=1800)
        seed_out = json.loads(seed_file.read_text())
        print(
            f"capacity [{label}]: seeded in {seed_out['seconds']['total']:.0f} s: {seed_out['counts']}; "
            f"{seed_out['db']}, cache {seed_out['cache']}",
            flush=True,
        )
        assert seed_out["db"]["vendor"] == ("postgresql" if postgres else "sqlite"), seed_out["db"]
        tables = seed_out["tables"]
        reserved = tables[-(args.dbcost_tables + 8) :]
        pool = Pool(tables[: -(args.dbcost_tables + 8)])
        port = load.free_port()
        log = tmp / "gunicorn.log"
        proc = load.start_gunicorn(env, port, args.workers, log, access_log="/dev/null")
        load.wait_ready(f"http://{HOST}:{port}", proc, log)
        if args.nice:
            for pid in (proc.pid, *_workers(proc.pid)):
                os.setpriority(os.PRIO_PROCESS, pid, args.nice)
        traffic = Traffic(seed_out, port)
        rng = random.Random(7)
        pg_db = seed_out["db"]["name"] if postgres else ""

        browser = None
        if args.browser:
            card_games = ("numx", "numx-malus", "numwin")
            games = [seed_out["templates"][t["tpl"]]["game"] for t in reserved]
            picks = [reserved[games.index(g)] for g in card_games if g in games]
            browser = count_previews(f"http://{HOST}:{port}", seed_out, picks)
            print(f"capacity [{label}]: previews counted in Chromium: {browser}", flush=True)

        def play(t, bare=False):
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{log.read_text()[-3000:]}")
            r = run_step(
                traffic, port, proc.pid, pool.take(t) if not bare else pool.tables[:t], args.seconds, bare, rng, pg_db
            )
            time.sleep(args.pause)
            return r

        def show(name, r):
            print(
                f"capacity [{label}] {name} T={r['tables']}: {'ok' if r['ok'] else 'FAIL'} worst p99 "
                f"{r['worst_p99']:.0f} ms, errors {r['errors']}, "
                + ", ".join(f"{c} {v['n']}/{fmt(v['p99'], 0)}" for c, v in r["classes"].items())
                + f"; cpu gunicorn {r['cpu']['gunicorn'] / r['wall']:.0%} loader {r['cpu']['loader'] / r['wall']:.0%}"
                f"; lag p99 {r['lag_p99_ms']:.0f} ms; load {r['load_before']:.2f}"
                + (f"; {r['error_samples'][:2]}" if r["error_samples"] else ""),
                flush=True,
            )

        # Warm-up: workers import, templates compile, connections open (not reported).
        run_step(traffic, port, proc.pid, pool.take(args.warmup_tables), min(args.seconds, 10), False, rng, pg_db)
        load_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
        T, steps, best = search("app", play, steps_app, args.refine, show, args.retries)
        load_bare = " ".join(f"{x:.2f}" for x in os.getloadavg())
        # The bare view carries at least what the app does: its ladder starts there.
        bare_ladder = ladder(max(args.start, T), args.factor, args.max_tables * 2)
        T_bare, bare_steps, bare_best = search(
            "bare", lambda t: play(t, bare=True), bare_ladder, args.refine, show, args.retries
        )
        load.stop_all()
        cost = None
        if not args.no_dbcost:
            cost_file = tmp / "dbcost.json"
            first = len(tables) - args.dbcost_tables - 8
            load.run(
                [py, __file__, "_dbcost", str(cost_file), str(seed_file), str(first), str(args.dbcost_tables)],
                env=env,
                capture=True,
                timeout=900,
            )
            cost = json.loads(cost_file.read_text())
        return {
            "label": label,
            "postgres": postgres,
            "cpu_ceiling": cpu_ceiling(steps, bare_steps),
            "T": T,
            "T_bare": T_bare,
            "ratio": T / T_bare if T_bare else 0.0,
            "best": best,
            "bare_best": bare_best,
            "steps": steps,
            "bare_steps": bare_steps,
            "seed": {k: v for k, v in seed_out.items() if k in ("counts", "seconds", "db", "cache")},
            "load_start": load_start,
            "load_bare": load_bare,
            "dbcost": cost,
            "browser": browser,
        }
    finally:
        load.stop_all()
        if args.keep:
            print(f"capacity: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (under 3 minutes on SQLite)")
    parser.add_argument("--seconds", type=float, help="length of one step (default 30; --quick 8)")
    parser.add_argument("--start", type=int, default=100, help="first T of the ladder (default 100)")
    parser.add_argument("--factor", type=float, help="ladder factor (default 1.5; --quick 2)")
    parser.add_argument("--refine", type=int, help="bisections after the first failed step (default 2; --quick 1)")
    parser.add_argument("--max-tables", type=int, default=1500, help="top of the ladder (default 1500)")
    parser.add_argument("--old", type=int, help="old sheets in the warm database (default 100000; --quick 20000)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2, as the Procfile)")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between steps")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="niceness of gunicorn and the load generator (e.g. -5 on a machine shared with test suites; root only)",
    )
    parser.add_argument("--browser", action="store_true", help="count the previews the page sends, in Chromium")
    parser.add_argument("--no-dbcost", action="store_true", help="skip the database cost pass")
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="run one database only")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directories")
    parser.add_argument("--json", help="also write the raw results to this file")
    args = parser.parse_args()
    quick = args.quick
    args.seconds = args.seconds or (8.0 if quick else 30.0)
    args.retries = 0 if quick else 3  # a quick run is a smoke run: no step is played twice
    args.factor = args.factor or (2.0 if quick else 1.5)
    args.refine = args.refine if args.refine is not None else (1 if quick else 2)
    args.old = args.old if args.old is not None else (20_000 if quick else 100_000)
    args.warmup_tables = 50
    args.dbcost_tables = 8 if quick else 24

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, load._on_signal)
    atexit.register(load.stop_all)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # one socket per request in flight

    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
    started = dt.datetime.now(dt.UTC)
    info = load.machine()
    command = "make bench-capacity" + (f" BENCH_ARGS='{' '.join(sys.argv[1:])}'" if sys.argv[1:] else "")
    runs = []
    if args.only != "postgres":
        runs.append(("sqlite", "SQLite, LocMem cache", {}))
    if os.environ.get("DATABASE_URL") and args.only != "sqlite":
        pg_env = {"DATABASE_URL": os.environ["DATABASE_URL"]}
        if os.environ.get("REDIS_URL"):
            pg_env["REDIS_URL"] = os.environ["REDIS_URL"]
        runs.append(("postgres", "PostgreSQL + Redis" if "REDIS_URL" in pg_env else "PostgreSQL", pg_env))
    print(f"capacity: {command}; {info['nproc']} CPUs ({info['cpu']}), load average {info['load']}", flush=True)
    results = {}
    for name, label, env in runs:
        results[name] = res = bench_db(args, label, env)
        # Each database's table as soon as it is measured: a later failure loses none of it.
        print("\n" + report_db(f"{res['label']} ({res['seed']['db']['vendor']} {res['seed']['db']['version']})", res))
        print(f"capacity [{label}]: T={res['T']} T_bare={res['T_bare']} ratio={res['ratio']:.2f}\n", flush=True)
        if args.json:
            pathlib.Path(args.json).write_text(
                json.dumps({"info": info, "args": vars(args), "results": results}, default=str)
            )

    lines = [
        f"Capacity run {started:%Y-%m-%d %H:%M} UTC — `{command}`",
        "",
        f"- machine: {info['nproc']} CPUs ({info['cpu']}), {info['mem']} (free -h), Python {info['python']}; "
        f"load average at the start {info['load']}, at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
        "— shared with other engineers' processes",
        f"- gunicorn {args.workers} sync workers (numapp.wsgi, access log to /dev/null), DEBUG=0, numapp.settings_bench, "
        f"niceness {args.nice} (gunicorn and the load generator); "
        f"steps of {args.seconds:.0f} s, ladder from {args.start} × {args.factor}, {args.refine} bisections; "
        f"pass: p99 ≤ {P99_MAX_MS:.0f} ms for every class and no error",
        "",
    ]
    lines += [
        f"- tables above, per database; {res['label']}: T={res['T']}, T_bare={res['T_bare']}"
        for res in results.values()
    ]
    for res in results.values():
        if res.get("browser"):
            lines += [f"- previews counted in Chromium ({res['label']}): {res['browser']}"]
    print()
    print("\n".join(lines))

    def part(key):
        res = results.get(key)
        return f"{key} T={res['T']} ratio={res['ratio']:.2f}" if res else f"{key} T=- ratio=-"

    print(f"capacity: {part('sqlite')} | {part('postgres')}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_seed":
        seed(sys.argv[2], json.loads(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "_dbcost":
        dbcost(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(main())
