"""Capacity benchmark: how many live tables one server carries, measured as tables play.

Run from the repo root: ``make bench-capacity`` (``BENCH_ARGS=--quick`` for a short run,
``BENCH_ARGS=--help`` for the options). Not part of ``make test``; tests/test_capacity_model.py
plays this model for a few seconds so that it keeps working.

A *table* is five phones, each holding the sheet's event stream
(``GET /api/v1/sheets/{id}/events/``, scoring/live.py) as the pages do (static/js/live.js):
the sheet's phone (the creator's session), three players' own phones (their seat links) and
one watcher (the share link). Two rounds are saved a table-minute; in each round
(``round_plan``) each player's phone sends its own entry to the round in progress
(``PUT …/draft/entries/{player}/``; Num King: the bid, then the tricks), the sheet's phone the
other players' bids (Num King: ``POST /sheets/{id}/draft/`` → 302) and the round
(``POST /api/v1/sheets/{id}/rounds/`` → 201, as static/js/table.js). Every committed change
is pushed to the five phones, and each then fetches its page once, as the pages do
(static/js/phones.js, app.js): the sheet's page, the player's page, the watcher's board; the
sheet's phone shows its own writes from their answer instead. This is what Chromium sends
(tests/e2e/test_round_requests.py). Previews are scored on the phone once the in-page engine
has loaded: none reach the server.

The five games are mixed in fixed shares, 4-6 players, sheets between 0 and 17 rounds
deep; a warm database of 100,000 old sheets (``--old``) sits beside the live ones. Sheets
are built through the services (``sheet_create``, ``round_add``) as templates, then
copied row for row in SQL, so every live table is its own sheet with its own session.

The server is uvicorn as the Procfile runs it (numapp.asgi; 2 processes with Redis, 1 without:
the live table's hub is per process, as ``make run``). The load generator is this process:
asyncio (uvloop) speaking raw HTTP/1.1, one connection per request and one held connection
per stream. Writes have fixed times in a schedule built before the step starts, and their
latency is measured from that time (no coordinated omission); a page is due when its push
arrived. A push's delivery time is its arrival less the ``at`` the server put in it after
the commit. For T tables it plays a step of ``--seconds`` and requires p99 ≤ 100 ms for every
request class, push p99 ≤ 0.5 s and no error; T goes up the ladder until a step fails, then
is bisected. T_bare replays the same traffic against the bare app (bench/urls_bench_bare.py):
the same paths and stream messages, nothing behind them.

SQLite always; PostgreSQL + Redis as well when DATABASE_URL / REDIS_URL are set (the
database name must contain "bench": it is flushed). The last line is
``capacity: sqlite T=<n> ratio=<r> | postgres T=<n> ratio=<r>``.
"""

import argparse
import asyncio
import atexit
import datetime as dt
import gzip
import json
import os
import pathlib
import random
import re
import resource
import secrets
import shutil
import signal
import subprocess
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
P99_MAX_MS = 100.0
PUSH_P99_MAX_MS = 500.0
TIMEOUT = 5.0  # s: an answer later than this is an error
LAG_MAX_MS = 10.0  # a step whose requests left later than this (p99) is played again
CLASSES = ("entry_put", "bids_post", "round_post", "sheet_page", "seat_page", "watcher_board", "stream_open")
CLASS_LABELS = {
    "entry_put": "a player's phone: its entry `PUT /api/v1/sheets/{id}/draft/entries/{player}/` → 200",
    "bids_post": "sheet's phone, Num King: « save the bids » `POST /sheets/{id}/draft/` → 302",
    "round_post": "sheet's phone: save the round `POST /api/v1/sheets/{id}/rounds/` → 201",
    "sheet_page": "sheet's phone: its page `GET /sheets/{id}/` (after a push, or its own write)",
    "seat_page": "a player's phone: its page `GET /p/{id}/{seat}/{token}/` after a push",
    "watcher_board": "watcher: the board `GET /w/{id}/{token}/?fragment=1` after a push → 200",
    "stream_open": "a phone opens its stream `GET /api/v1/sheets/{id}/events/` (head; not in the pass rule)",
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


def seed(out_path: str, params: dict) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "sqlite":
        name = connection.settings_dict["NAME"]
        if "bench" not in name:
            sys.exit(f"bench: refusing to flush database {name!r}: its name must contain 'bench'.")
        call_command("flush", interactive=False, verbosity=0)
    pathlib.Path(out_path).write_text(json.dumps(seed_data(params), ensure_ascii=False))


def seed_data(params: dict) -> dict:
    """Build the templates, the old sheets and the pool of live tables in the database; return what the phones need.

    `params`: `old` and `pool` (how many sheets), `ahead` (rounds each live table may still play), and for a
    small run (tests/test_capacity_model.py) `player_counts` and `depths`.
    """
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import connection, transaction
    from django.http import QueryDict
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from scoring import forms, services, tokens
    from scoring.games import GAMES
    from scoring.models import Player, Round, Sheet

    rng = random.Random(2027)
    ahead = params["ahead"]
    t0 = time.perf_counter()

    def play(sheet, game, players, count, totals):
        """Add up to `count` drawn rounds that keep the sheet live; return (sheet, datas)."""
        datas = []
        for r in range(count):
            for _attempt in range(40):
                result = services.sheet_state(sheet, "fr")[0]
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
        for n in params.get("player_counts", PLAYER_COUNTS):
            for depth in params.get("depths", DEPTHS):
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
                    future.append({"fields": fields, "number": start + 1 + j, "data": data})
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
                # The players with a phone of their own: the first three seats (their entry links).
                "seats": [
                    [seat, templates[tpl]["players"][seat], tokens.entry_token(sheet_id, seat)] for seat in range(3)
                ],
                "csrf": get_random_string(32, CSRF_CHARS),
            }
        )
    with transaction.atomic():
        clone([(t["id"], t["tpl"], t["owner"]) for t in tables])
        Session.objects.bulk_create(sessions, batch_size=2000)
    counts = {m.__name__: m.objects.count() for m in (Sheet, Player, Round, Session)}
    return {
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


# --------------------------------------------------------------------------- the table model

# When, in a round of ROUND_EVERY seconds, each phone writes (s from the round's start), as a table plays
# with the round in progress: each player's phone sends its own entry, the sheet's phone the rest and the save.
KING_BIDS = (3.0, 5.0, 7.0)  # the three players' phones: their bids
KING_BIDS_SAVED = 10.0  # the sheet's phone: « Save the bids » (the other players' bids) → 302 → its page
KING_TRICKS = (18.0, 20.0, 22.0)  # the players' phones: their tricks (with the bid)
ENTRIES = (6.0, 13.0, 20.0)  # the card and count games: each player's phone its hand
SAVE_AT = 27.0  # the sheet's phone saves the round (JSON, as table.js) → 201 → its page


def round_plan(tpl: dict, table: dict, j: int) -> list[tuple[float, str, object]]:
    """Return the writes of round `j` of a table: (offset in the round, kind, argument), in time order.

    Kinds: "entry" (a player's phone: argument (seat index in `table["seats"]`, body)),
    "bids" (the sheet's phone saves the bids), "save" (the sheet's phone saves the round).
    """
    fut = tpl["future"][j]
    data, game, number = fut["data"], tpl["game"], fut["number"]
    entries = data.get("entries") or {}
    plan = []
    phones = [(k, name) for k, (_seat, name, _token) in enumerate(table["seats"]) if name in entries]
    if game == "numking":
        for (k, name), at in zip(phones, KING_BIDS, strict=False):
            plan.append((at, "entry", (k, {"bid": entries[name]["bid"], "number": number})))
        plan.append((KING_BIDS_SAVED, "bids", None))
        for (k, name), at in zip(phones, KING_TRICKS, strict=False):
            plan.append((at, "entry", (k, {**entries[name], "number": number})))
    elif game != "coop":  # the coopératif's result is the table's: the players' phones follow it only
        for (k, name), at in zip(phones, ENTRIES, strict=False):
            plan.append((at, "entry", (k, {**entries[name], "number": number})))
    plan.append((SAVE_AT, "save", None))
    return plan


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

    def send(self, method: str, path: str, body: bytes, ctype: str, extra: str = "") -> bytes:
        head = (
            f"{method} {path} HTTP/1.1\r\n{self.common}Content-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
            f"{extra}\r\n"
        )
        return head.encode() + body

    def stream(self, table: dict, phone: int, since: int) -> bytes:
        """The event stream of a phone: 0 the sheet's (session), 1-3 a player's (seat token), 4 the watcher's."""
        path = f"/api/v1/sheets/{table['id']}/events/?since={since}"
        extra = "Accept: text/event-stream\r\nCache-Control: no-cache\r\n"
        if phone == 0:
            extra += f"Cookie: {_cookies(self.seed, table)}\r\n"
        elif phone <= 3:
            path += f"&seat={table['seats'][phone - 1][2]}"
        else:
            path += f"&share={table['share']}"
        return f"GET {path} HTTP/1.1\r\n{self.common.replace('Connection: close', 'Connection: keep-alive')}{extra}\r\n".encode()

    def page(self, table: dict, phone: int, shown: int) -> bytes:
        """The page a phone fetches on hearing of a newer version (static/js/phones.js, app.js setUpWatch)."""
        if phone == 0:
            return self.get(f"/sheets/{table['id']}/", f"Accept: text/html\r\nCookie: {_cookies(self.seed, table)}\r\n")
        if phone <= 3:
            seat, _name, token = table["seats"][phone - 1]
            return self.get(f"/p/{table['id']}/{seat}/{token}/", "Accept: text/html\r\n")
        return self.get(f"/w/{table['id']}/{table['share']}/?fragment=1", f'If-None-Match: "{shown}-fr"\r\n')

    def entry(self, table: dict, k: int, body: dict) -> bytes:
        seat, name, token = table["seats"][k]
        path = f"/api/v1/sheets/{table['id']}/draft/entries/{urllib.parse.quote(name)}/"
        extra = f"Origin: {self.origin}\r\nX-Seat-Token: {token}\r\nAccept: application/json\r\n"
        return self.send("PUT", path, json.dumps(body, ensure_ascii=False).encode(), "application/json", extra)

    def bids(self, table: dict, j: int) -> bytes:
        fut = self.templates[table["tpl"]]["future"][j]
        fields = {"csrfmiddlewaretoken": table["csrf"], "number": str(fut["number"]), "step": "bids", **fut["fields"]}
        extra = (
            f"Origin: {self.origin}\r\nReferer: {self.origin}/sheets/{table['id']}/\r\n"
            f"Cookie: {_cookies(self.seed, table)}\r\n"
        )
        body = urllib.parse.urlencode(fields).encode()
        return self.send("POST", f"/sheets/{table['id']}/draft/", body, "application/x-www-form-urlencoded", extra)

    def save(self, table: dict, j: int) -> bytes:
        fut = self.templates[table["tpl"]]["future"][j]
        body = json.dumps({**fut["data"], "number": fut["number"]}, ensure_ascii=False).encode()
        extra = (
            f"Origin: {self.origin}\r\nAccept: application/json\r\nX-CSRFToken: {table['csrf']}\r\n"
            f"Idempotency-Key: {secrets.token_hex(16)}\r\nCookie: {_cookies(self.seed, table)}\r\n"
        )
        return self.send("POST", f"/api/v1/sheets/{table['id']}/rounds/", body, "application/json", extra)


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


class _EventStream(asyncio.Protocol):
    """One phone's held event stream: the answer's head, then chunked SSE events, each handed to `heard`."""

    def __init__(self, data: bytes, opened: asyncio.Future, heard):
        self.data, self.opened, self.heard = data, opened, heard
        self.head: bytes | None = None
        self.buf = bytearray()  # chunked transfer coding, not yet decoded
        self.text = bytearray()  # decoded SSE text, not yet a whole event
        self.transport = None
        self.closed = False

    def connection_made(self, transport):
        self.transport = transport
        transport.write(self.data)

    def data_received(self, chunk):
        self.buf += chunk
        if self.head is None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            self.head = bytes(self.buf[:end])
            del self.buf[: end + 4]
            if not self.opened.done():
                self.opened.set_result(self.head)
        while True:  # one chunk: "<size hex>\r\n<data>\r\n"
            eol = self.buf.find(b"\r\n")
            if eol < 0:
                break
            size = int(self.buf[:eol].split(b";", 1)[0] or b"0", 16)
            if len(self.buf) < eol + 2 + size + 2:
                break
            self.text += self.buf[eol + 2 : eol + 2 + size]
            del self.buf[: eol + 4 + size]
        while True:
            end = self.text.find(b"\n\n")
            if end < 0:
                break
            block = bytes(self.text[:end])
            del self.text[: end + 2]
            if block.startswith(b"id:") or b"\nevent:" in block or block.startswith(b"event:"):
                self.heard(block)

    def connection_lost(self, exc):
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed without an answer"))


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


def _body(raw: bytes) -> bytes:
    """Return an answer's body, decompressed when it came gzipped (for the error samples)."""
    head, _, body = raw.partition(b"\r\n\r\n")
    if b"content-encoding: gzip" in head.lower():
        try:
            return gzip.decompress(body)
        except (OSError, EOFError):
            pass
    return body


def _event_data(block: bytes) -> dict | None:
    """Return the JSON data of a `sheet` event, None for any other event."""
    kind = data = None
    for line in block.split(b"\n"):
        if line.startswith(b"event:"):
            kind = line[6:].strip()
        elif line.startswith(b"data:"):
            data = line[5:].strip()
    if kind != b"sheet" or not data:
        return None
    return json.loads(data)


PHONES = 5  # per table: the sheet's phone, three players' phones, one watcher
PHONE_CLASS = ("sheet_page", "seat_page", "seat_page", "seat_page", "watcher_board")


class Step:
    """One step of T tables for `seconds`: every phone holds its stream; writes open loop, pages on each push."""

    def __init__(
        self, traffic: Traffic, port: int, tables: list[dict], seconds: float, bare: bool, rng, pace=ROUND_EVERY
    ):
        """`pace`: the seconds a round lasts (ROUND_EVERY; shorter in the test that keeps this model running)."""
        self.traffic, self.port, self.tables, self.seconds, self.bare = traffic, port, tables, seconds, bare
        self.lat = {c: [] for c in CLASSES}
        self.status = {c: {} for c in CLASSES}
        self.errors = {c: 0 for c in CLASSES}
        self.error_samples: list[str] = []
        self.lags: list[float] = []
        self.push_ms: list[float] = []
        self.stream_open_ms: list[float] = []
        self.streams: list[_EventStream] = []
        self.posted = 0
        self.pushes = 0
        self.measuring = False
        self.pending: set[asyncio.Task] = set()
        tpls = traffic.templates
        self.v0 = [tpls[t["tpl"]]["version"] for t in tables]
        self.shown = [[v] * PHONES for v in self.v0]  # the version each phone shows
        self.own = [0] * len(tables)  # the sheet's phone's own writes whose event it will not fetch for
        events = []
        for i, table in enumerate(tables):
            tpl = tpls[table["tpl"]]
            phase = rng.uniform(0, pace)
            scale = pace / ROUND_EVERY
            # The k-th round is played from phase + (k - 1) × pace: the first is under way when the step
            # starts, unless it was saved before (then the next is the sheet's next round, future[0]).
            j, k = 0, 0
            while j < len(tpl["future"]):
                start = phase + (k - 1) * pace
                k += 1
                if start >= seconds:
                    break
                if start + SAVE_AT * scale < 0:
                    continue
                for at, kind, arg in round_plan(tpl, table, j):
                    t = start + at * scale
                    if 0 <= t < seconds:
                        events.append((t, kind, i, j, arg))
                j += 1
        events.sort(key=lambda e: e[0])
        self.events = events
        self.planned = {k: sum(1 for e in events if e[1] == k) for k in ("entry", "bids", "save")}

    # ---- requests

    async def _send(self, cls: str, data: bytes, scheduled: float, expect: tuple[int, ...], i: int):
        loop = asyncio.get_running_loop()
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
            status = int(raw[9:12])
        except (OSError, TimeoutError, ConnectionError, ValueError) as exc:
            self.errors[cls] += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(f"{cls}: {type(exc).__name__} {exc}")
            return None
        if self.measuring:
            self.lat[cls].append((loop.time() - scheduled) * 1000)
            self.status[cls][status] = self.status[cls].get(status, 0) + 1
        if status not in expect:
            self.errors[cls] += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(f"{cls}: HTTP {status} {_body(raw)[:300]!r}")
        return status

    def _spawn(self, coro):
        task = asyncio.get_running_loop().create_task(coro)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _page(self, i: int, phone: int, version: int, due: float):
        shown = self.shown[i][phone]
        self.shown[i][phone] = max(shown, version)
        data = self.traffic.page(self.tables[i], phone, shown)
        expect = (200,) if self.bare or phone != 4 else (200, 304)
        await self._send(PHONE_CLASS[phone], data, due, expect, i)

    async def _write(self, kind: str, i: int, j: int, arg, scheduled: float):
        table = self.tables[i]
        if kind == "entry":
            k, body = arg
            await self._send("entry_put", self.traffic.entry(table, k, body), scheduled, (200,), i)
            return
        self.own[i] += 1  # the sheet's phone shows its own write from the answer, not from the event
        if kind == "bids":
            status = await self._send(
                "bids_post", self.traffic.bids(table, j), scheduled, (200,) if self.bare else (302,), i
            )
        else:
            status = await self._send(
                "round_post", self.traffic.save(table, j), scheduled, (200,) if self.bare else (201,), i
            )
            self.posted += status in (200, 201)
        if status is None:
            return
        # The page shown afresh at once (the redirect, or table.js's refresh after the save).
        await self._page(i, 0, self.shown[i][0], asyncio.get_running_loop().time())

    # ---- streams

    def _heard(self, i: int, phone: int, block: bytes):
        message = _event_data(block)
        if message is None:
            return
        now = time.time()
        if self.measuring and "at" in message:
            self.push_ms.append((now - message["at"]) * 1000)
            self.pushes += 1
        version = message.get("version", 0)
        if phone == 0 and self.own[i]:
            self.own[i] -= 1
            self.shown[i][0] = max(self.shown[i][0], version)
            return
        if version > self.shown[i][phone]:
            self._spawn(self._page(i, phone, version, asyncio.get_running_loop().time()))

    async def _open(self, i: int, phone: int, gate: asyncio.Semaphore):
        loop = asyncio.get_running_loop()
        table = self.tables[i]
        async with gate:
            t0 = loop.time()
            try:
                async with asyncio.timeout(TIMEOUT * 2):
                    opened = loop.create_future()
                    # The phone has the page of the version it was shown: the stream starts from there.
                    data = self.traffic.stream(table, phone, self.v0[i])
                    _transport, proto = await loop.create_connection(
                        lambda: _EventStream(data, opened, lambda block: self._heard(i, phone, block)),
                        HOST,
                        self.port,
                        local_addr=(source_address(i), 0),
                    )
                    head = await opened
            except (OSError, TimeoutError, ConnectionError) as exc:
                self.errors["stream_open"] += 1
                if len(self.error_samples) < 5:
                    self.error_samples.append(f"stream_open: {type(exc).__name__} {exc}")
                return
            if head[9:12] != b"200":
                self.errors["stream_open"] += 1
                if len(self.error_samples) < 5:
                    self.error_samples.append(f"stream_open: {head[:200]!r}")
                return
            self.stream_open_ms.append((loop.time() - t0) * 1000)
            self.streams.append(proto)

    async def open_streams(self, concurrency: int = 32):
        """Open every phone's stream (not measured as a request class: a phone opens it once a game)."""
        gate = asyncio.Semaphore(concurrency)
        await asyncio.gather(*(self._open(i, p, gate) for i in range(len(self.tables)) for p in range(PHONES)))

    def close_streams(self):
        for proto in self.streams:
            if proto.transport is not None:
                proto.transport.close()

    async def run(self):
        loop = asyncio.get_running_loop()
        t0 = loop.time() + 0.2
        self.measuring = True
        for t, kind, i, j, arg in self.events:
            due = t0 + t
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            self.lags.append((loop.time() - due) * 1000)
            self._spawn(self._write(kind, i, j, arg, due))
        delay = t0 + self.seconds - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        # What the last writes set off (pushes, then pages) is waited for, up to the timeout.
        end = loop.time() + TIMEOUT * 2
        quiet = 0
        while loop.time() < end and quiet < 5:
            if self.pending:
                await asyncio.wait(list(self.pending), timeout=end - loop.time())
            heard = self.pushes
            await asyncio.sleep(0.1)
            quiet = quiet + 1 if self.pushes == heard and not self.pending else 0
        self.measuring = False
        self.dropped = sum(1 for s in self.streams if s.closed)


async def _prime(traffic: Traffic, port: int, tables: list[dict]) -> int:
    """Open each table's pages once, unmeasured: return how many answered 200.

    A table that has played a while has had its pages shown after every change; without this
    each step's fresh tables would show them for the first time (QR code, entry form, result
    all cold), which no table in play does.
    """
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(4)
    ok = 0

    async def one(i, table):
        nonlocal ok
        async with gate:
            for phone in (0, 0, 1, 4):
                try:
                    ok += await one_get(i, traffic.page(table, phone, 0))
                except (OSError, TimeoutError, ConnectionError):
                    pass  # a page not primed is only a colder start for that table

    async def one_get(i, data) -> bool:
        async with asyncio.timeout(TIMEOUT):
            done = loop.create_future()
            transport, _ = await loop.create_connection(
                lambda done=done: _Exchange(data, done), HOST, port, local_addr=(source_address(i), 0)
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


def _server_pids(master: int) -> list[int]:
    """The processes that serve: uvicorn's workers, or uvicorn itself when it runs one process."""
    return _workers(master) or [master]


def _rss_self() -> int:
    return _proc_stat(os.getpid())[1]


def run_step(traffic, port, master, tables, seconds, bare, rng, pg_db="") -> dict:
    step = Step(traffic, port, tables, seconds, bare, rng)
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        primed = 0 if bare else runner.run(_prime(traffic, port, tables))
        rss0 = {p: _proc_stat(p)[1] for p in _server_pids(master)}
        self0 = _rss_self()
        t_open = time.perf_counter()
        runner.run(step.open_streams())
        t_open = time.perf_counter() - t_open
        rss1 = {p: _proc_stat(p)[1] for p in _server_pids(master)}
        self1 = _rss_self()
        held = len(step.streams)
        pg = _pg_backends(pg_db) if pg_db else []
        g0 = load.cpu_seconds(master)
        d0 = {p: _proc_stat(p)[0] for p in pg}
        m0 = _machine_busy()
        l0 = time.process_time()
        w0 = time.perf_counter()
        load_before = os.getloadavg()[0]
        runner.run(step.run())
        wall = time.perf_counter() - w0
        l1 = time.process_time()
        m1 = _machine_busy()
        pg1 = _pg_backends(pg_db) if pg_db else []
        # Backends opened during the step are not counted, nor one whose pid was reused (its CPU went back).
        d1 = sum(max(0.0, _proc_stat(p)[0] - d0[p]) for p in pg1 if p in d0)
        g1 = load.cpu_seconds(master)
        rss2 = {p: _proc_stat(p)[1] for p in _server_pids(master)}
        step.close_streams()
    grown = sum(rss1.get(p, 0) - rss0.get(p, 0) for p in rss1)
    out = {
        "tables": len(tables),
        "seconds": seconds,
        "wall": wall,
        "bare": bare,
        "load_before": load_before,
        "planned": step.planned,
        "posted": step.posted,
        "primed": primed,
        "streams": held,
        "streams_dropped": step.dropped,
        "open_seconds": t_open,
        "pushes": step.pushes,
        "push": {
            "n": len(step.push_ms),
            "p50": percentile(step.push_ms, 50) if step.push_ms else None,
            "p99": percentile(step.push_ms, 99) if step.push_ms else None,
            "max": max(step.push_ms) if step.push_ms else None,
        },
        "classes": {},
        "errors": sum(step.errors.values()),
        "error_samples": step.error_samples,
        "lag_p99_ms": percentile(step.lags, 99) if step.lags else 0.0,
        "cpu": {"server": g1 - g0, "loader": l1 - l0, "postgres": d1},
        "machine_busy": (m1[0] - m0[0]) / max(1, m1[1] - m0[1]),
        "server_rss_mb": [r / 2**20 for r in rss2.values()],
        "server_kb_per_stream": grown / 1024 / held if held else None,
        "loader_kb_per_stream": (self1 - self0) / 1024 / held if held else None,
    }
    for c in CLASSES:
        lat = step.stream_open_ms if c == "stream_open" else step.lat[c]
        out["classes"][c] = {
            "n": len(lat),
            "p50": percentile(lat, 50) if lat else None,
            "p99": percentile(lat, 99) if lat else None,
            "max": max(lat) if lat else None,
            "errors": step.errors[c],
            "status": step.status[c],
        }
    worst = [v["p99"] for c, v in out["classes"].items() if v["p99"] is not None and c != "stream_open"]
    out["worst_p99"] = max(worst, default=0.0)
    push_ok = out["push"]["p99"] is not None and out["push"]["p99"] <= PUSH_P99_MAX_MS
    out["ok"] = out["errors"] == 0 and out["worst_p99"] <= P99_MAX_MS and push_ok and not step.dropped
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
    stats = {c: {"requests": 0, "statements": 0, "ms": 0.0, "writes": 0, "cpu_ms": 0.0} for c in CLASSES}

    def call(cls, client, method, path, **kw):
        cpu0 = time.process_time()
        with CaptureQueriesContext(connection) as ctx:
            send = getattr(client, method.lower())
            r = send(path, secure=True, headers={**headers, **kw.pop("headers", {})}, **kw)
        s = stats[cls]
        s["cpu_ms"] += (time.process_time() - cpu0) * 1000
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

    def pages(table, client, seat_client, watcher, version):
        """Every phone fetches its page after a change, as it does on hearing of it."""
        r = call("sheet_page", client, "GET", f"/sheets/{table['id']}/")
        assert r.status_code == 200, r.status_code
        for seat, _name, token in table["seats"]:
            r = call("seat_page", seat_client, "GET", f"/p/{table['id']}/{seat}/{token}/")
            assert r.status_code == 200, r.status_code
        r = call(
            "watcher_board",
            watcher,
            "GET",
            f"/w/{table['id']}/{table['share']}/?fragment=1",
            headers={"If-None-Match": f'"{version}-fr"'},
        )
        assert r.status_code == 200, r.status_code

    def table_minute(table):
        tpl = templates[table["tpl"]]
        client = Client(HTTP_HOST="127.0.0.1")
        client.cookies[seed_out["session_cookie"]] = table["session"]
        client.cookies[seed_out["csrf_cookie"]] = table["csrf"]
        seat_client, watcher = Client(HTTP_HOST="127.0.0.1"), Client(HTTP_HOST="127.0.0.1")
        version = tpl["version"]
        for j in range(min(2, len(tpl["future"]))):
            fut = tpl["future"][j]
            for _at, kind, arg in round_plan(tpl, table, j):
                if kind == "entry":
                    k, body = arg
                    seat, name, token = table["seats"][k]
                    r = call(
                        "entry_put",
                        seat_client,
                        "PUT",
                        f"/api/v1/sheets/{table['id']}/draft/entries/{urllib.parse.quote(name)}/",
                        data=json.dumps(body),
                        content_type="application/json",
                        headers={"X-Seat-Token": token},
                    )
                    assert r.status_code == 200, (r.status_code, r.content[:300])
                elif kind == "bids":
                    fields = {"number": str(fut["number"]), "step": "bids", **fut["fields"]}
                    r = call("bids_post", client, "POST", f"/sheets/{table['id']}/draft/", data=fields)
                    assert r.status_code == 302, (r.status_code, r.content[:300])
                else:
                    r = call(
                        "round_post",
                        client,
                        "POST",
                        f"/api/v1/sheets/{table['id']}/rounds/",
                        data=json.dumps({**fut["data"], "number": fut["number"]}),
                        content_type="application/json",
                    )
                    assert r.status_code == 201, (r.status_code, r.content[:300])
                pages(table, client, seat_client, watcher, version)
                version += 1

    # Half the tables once unmeasured (templates compiled, code warm), then the measured half.
    half = count // 2
    for table in tables[:half]:
        table_minute(table)
    for s in stats.values():
        s.update(requests=0, statements=0, ms=0.0, writes=0, cpu_ms=0.0)
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
        f"- T = **{res['T']}** tables, T_bare = **{res['T_bare']}**, ratio **{res['ratio']:.2f}**; uvicorn "
        f"{res['workers']} process(es); load average at the start of the searches: {res['load_start']} (app) / "
        f"{res['load_bare']} (bare)",
        f"- seeding {res['seed']['seconds']['total']:.0f} s: {res['seed']['counts']}",
    ]
    for kind, step in (("app", app), ("bare", bare)):
        if not step:
            continue
        tm = per_minute(step)
        reqs = sum(c["n"] for k, c in step["classes"].items() if k != "stream_open")
        rss = ", ".join(f"{x:.0f}" for x in step["server_rss_mb"])
        lines += [
            f"- {kind} at T = {step['tables']}: {reqs / step['seconds']:,.0f} req/s, {reqs / tm:.1f} requests and "
            f"{step['push']['n'] / tm:.1f} pushes per table-minute; rounds saved {step['posted']} of "
            f"{step['planned']['save']} planned; {step['streams']:,} streams held "
            f"(opened in {step['open_seconds']:.1f} s)",
            f"  - CPU per table-minute: server {step['cpu']['server'] * 1000 / tm:.1f} ms, load generator "
            f"{step['cpu']['loader'] * 1000 / tm:.1f} ms"
            + (f", PostgreSQL backends {step['cpu']['postgres'] * 1000 / tm:.1f} ms" if res["postgres"] else "")
            + f"; machine busy {step['machine_busy']:.0%} (both cores, everyone's processes); load generator lag "
            f"p99 {step['lag_p99_ms']:.1f} ms",
            f"  - memory: server process RSS {rss} MB at the end of the step; "
            f"{fmt(step['server_kb_per_stream'])} KB per held stream in the server, "
            f"{fmt(step['loader_kb_per_stream'])} KB in the load generator (RSS growth while the streams opened)",
        ]
    cpu = res["cpu_ceiling"]
    lines.append(
        f"- CPU ceiling (2 cores × 60,000 ms a minute at 70 % busy ÷ the CPU of a table-minute, server + load "
        f"generator{' + database backends' if res['postgres'] else ''}, median over the steps): app "
        f"{cpu['app_ms']:.0f} ms → {cpu['T_app']:,} tables, bare {cpu['bare_ms']:.0f} ms → {cpu['T_bare']:,} tables, "
        f"ratio {cpu['ratio']:.2f}"
    )
    lines += [
        "",
        "| request class | n at T | p50 ms | p99 ms | max ms | n at T_bare (bare) | p50 ms | p99 ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [
        (CLASS_LABELS[c], (app or {}).get("classes", {}).get(c, {}), (bare or {}).get("classes", {}).get(c, {}))
        for c in CLASSES
    ]
    rows.append(
        (
            "**push**: an event from the commit to the phone (`at`)",
            (app or {}).get("push", {}),
            (bare or {}).get("push", {}),
        )
    )
    for name, a, b in rows:
        lines.append(
            f"| {name} | {a.get('n', 0):,} | {fmt(a.get('p50'))} | {fmt(a.get('p99'))} | {fmt(a.get('max'))} "
            f"| {b.get('n', 0):,} | {fmt(b.get('p50'))} | {fmt(b.get('p99'))} |"
        )
    lines += ["", "Steps (tables: worst request p99 ms, push p99 ms, errors, req/s, server CPU %, loader CPU %):", ""]
    for kind, steps in (("app", res["steps"]), ("bare", res["bare_steps"])):
        lines.append(
            f"- {kind}: "
            + "; ".join(
                f"{s['tables']} {'ok' if s['ok'] else 'FAIL'} {s['worst_p99']:.0f} ms {fmt(s['push']['p99'], 0)} ms "
                f"{s['errors']} err "
                f"{sum(c['n'] for k, c in s['classes'].items() if k != 'stream_open') / s['seconds']:,.0f}/s "
                f"{s['cpu']['server'] / s['wall']:.0%} {s['cpu']['loader'] / s['wall']:.0%}"
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
            "| class | requests / table-minute | statements / request | writes / request | DB ms / request "
            "| CPU ms / request (in process) | CPU ms / table-minute |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        total_st = total_cpu = 0.0
        for c, s in cost["classes"].items():
            if not s["requests"]:
                continue
            st = s["statements"] / s["requests"] + extra
            total_st += st * s["requests"] / m
            total_cpu += s["cpu_ms"] / m
            lines.append(
                f"| {c} | {s['requests'] / m:.1f} | {st:.2f} | {s['writes'] / s['requests']:.2f} | "
                f"{s['ms'] / s['requests']:.2f} | {s['cpu_ms'] / s['requests']:.2f} | {s['cpu_ms'] / m:.0f} |"
            )
        lines.append(f"| **table-minute** | | **{total_st:.0f}** | | | | **{total_cpu:.0f}** |")
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
    """Return the CPU milliseconds one table-minute cost in a step: server, load generator, database."""
    return sum(step["cpu"].values()) * 1000 / per_minute(step)


def cpu_ceiling(steps: list[dict], bare_steps: list[dict], cores: int = 2, busy: float = 0.7) -> dict:
    """Return the tables the CPU would carry at `busy`, for the app and the bare view.

    It does not depend on the other processes' stalls that decide the p99 on a shared
    machine: what a quiet machine of this size would carry, up to queueing (the median over
    the steps that answered every request, else over all of them).
    """

    def median(xs):
        xs = sorted(xs)
        return xs[len(xs) // 2] if xs else 0.0

    # A step with errors left requests unanswered (and their CPU unspent): the others speak first.
    app = median([cpu_per_table_minute(s) for s in ([s for s in steps if not s["errors"]] or steps)])
    bare = median([cpu_per_table_minute(s) for s in ([s for s in bare_steps if not s["errors"]] or bare_steps)])
    t_app = int(cores * 60_000 * busy / app) if app else 0
    t_bare = int(cores * 60_000 * busy / bare) if bare else 0
    return {"app_ms": app, "bare_ms": bare, "T_app": t_app, "T_bare": t_bare, "ratio": t_app / t_bare if t_bare else 0}


def procfile_web(port: int, workers: int) -> list[str]:
    """Return the Procfile's web command (uvicorn) for 127.0.0.1:`port` and `workers` processes."""
    line = next(x for x in (load.ROOT / "Procfile").read_text().splitlines() if x.startswith("web:"))
    values = {"BIND_HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": str(workers)}
    words = re.sub(r"\$\{(\w+):-[^}]*\}", lambda m: values[m.group(1)], line.split(":", 1)[1]).split()
    assert words[0] == "uvicorn", words
    return [sys.executable, "-m", *words]


def start_server(env: dict, port: int, workers: int, log: pathlib.Path) -> subprocess.Popen:
    """Start the app as the Procfile runs it (uvicorn numapp.asgi) and wait until it answers."""
    with log.open("w") as log_fh:
        proc = load.start(procfile_web(port, workers), cwd=load.ROOT, env=env, stdout=log_fh, stderr=subprocess.STDOUT)
    load.wait_ready(f"http://{HOST}:{port}", proc, log, seconds=60)
    return proc


def bench_db(args, label: str, db_env: dict) -> dict:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="numapp-capacity-"))
    # bench_env starts from this process's environment: the database and the cache are this run's own.
    env = {k: v for k, v in load.bench_env(tmp).items() if k not in ("DATABASE_URL", "REDIS_URL")} | db_env
    env["LIVE_MAX_STREAMS"] = str(PHONES * args.max_tables * 2)  # the bench measures, the limit does not refuse
    py = sys.executable
    postgres = bool(env.get("DATABASE_URL"))
    # Without Redis the live table lives in one process (the hub): SQLite runs one uvicorn process, as `make run`.
    workers = args.workers or (2 if env.get("REDIS_URL") else 1)
    try:
        load.run([py, "manage.py", "migrate", "--noinput", "-v0"], env=env, capture=True)
        load.run([py, "manage.py", "collectstatic", "--noinput", "-v0"], env=env, capture=True)
        steps_app = ladder(args.start, args.factor, args.max_tables)
        # Every step plays fresh tables, and a failed step may be played again.
        pool = (
            (1 + min(args.retries, 1)) * sum(steps_app) + (args.refine + 2) * args.max_tables
            + args.warmup_tables + args.dbcost_tables + 8
        )  # fmt: skip
        seed_file = tmp / "seed.json"
        print(f"capacity [{label}]: seeding {args.old:,} old sheets and {pool:,} live tables ...", flush=True)
        params = {"old": args.old, "pool": pool, "ahead": int(args.seconds // ROUND_EVERY) + 3}
        load.run([py, __file__, "_seed", str(seed_file), json.dumps(params)], env=env, capture=True, timeout=1800)
        seed_out = json.loads(seed_file.read_text())
        print(
            f"capacity [{label}]: seeded in {seed_out['seconds']['total']:.0f} s: {seed_out['counts']}; "
            f"{seed_out['db']}, cache {seed_out['cache']}",
            flush=True,
        )
        assert seed_out["db"]["vendor"] == ("postgresql" if postgres else "sqlite"), seed_out["db"]
        tables = seed_out["tables"]
        pool = Pool(tables[: -(args.dbcost_tables + 8)])
        port = load.free_port()
        log = tmp / "uvicorn.log"
        proc = start_server(env, port, workers, log)
        traffic = Traffic(seed_out, port)
        rng = random.Random(7)
        pg_db = seed_out["db"]["name"] if postgres else ""

        def play(t, bare=False):
            if proc.poll() is not None:
                raise RuntimeError(f"uvicorn exited:\n{log.read_text()[-3000:]}")
            tables_t = pool.tables[:t] if bare else pool.take(t)
            r = run_step(traffic, port, proc.pid, tables_t, args.seconds, bare, rng, pg_db)
            time.sleep(args.pause)
            return r

        def show(name, r):
            print(
                f"capacity [{label}] {name} T={r['tables']}: {'ok' if r['ok'] else 'FAIL'} worst p99 "
                f"{r['worst_p99']:.0f} ms, push p50/p99 {fmt(r['push']['p50'], 0)}/{fmt(r['push']['p99'], 0)} ms "
                f"({r['push']['n']}), errors {r['errors']}, "
                + ", ".join(
                    f"{c} {v['n']}/{fmt(v['p99'], 0)}" for c, v in r["classes"].items() if v["n"] or v["errors"]
                )
                + f"; {r['streams']} streams opened in {r['open_seconds']:.1f} s"
                + f"; cpu server {r['cpu']['server'] / r['wall']:.0%} loader {r['cpu']['loader'] / r['wall']:.0%}"
                + (f" postgres {r['cpu']['postgres'] / r['wall']:.0%}" if postgres else "")
                + f"; lag p99 {r['lag_p99_ms']:.0f} ms; load {r['load_before']:.2f}"
                + (f"; {r['error_samples'][:2]}" if r["error_samples"] else ""),
                flush=True,
            )

        # Warm-up: workers import, templates compile, connections open (not reported).
        run_step(traffic, port, proc.pid, pool.take(args.warmup_tables), min(args.seconds, 10), False, rng, pg_db)
        load_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
        T, steps, best = search("app", play, steps_app, args.refine, show, args.retries)
        load.stop_all()
        # The bare app: the same server, the same requests and stream messages, nothing behind them.
        bare_env = env | {"DJANGO_SETTINGS_MODULE": "bench.settings_bench_bare"}
        proc = start_server(bare_env, port, workers, log)
        load_bare = " ".join(f"{x:.2f}" for x in os.getloadavg())
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
            "workers": workers,
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
    parser.add_argument("--start", type=int, default=50, help="first T of the ladder (default 50)")
    parser.add_argument("--factor", type=float, help="ladder factor (default 1.5; --quick 2)")
    parser.add_argument("--refine", type=int, help="bisections after the first failed step (default 2; --quick 1)")
    parser.add_argument("--max-tables", type=int, default=1500, help="top of the ladder (default 1500)")
    parser.add_argument("--old", type=int, help="old sheets in the warm database (default 100000; --quick 20000)")
    parser.add_argument(
        "--workers",
        type=int,
        help="uvicorn processes (default: 2 as the Procfile with Redis; 1 without, as `make run`: the live hub is per process)",
    )
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between steps")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="niceness of the load generator (e.g. -5 on a machine shared with test suites; root only)",
    )
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
    args.warmup_tables = 20
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
        "- uvicorn as the Procfile runs it (numapp.asgi), "
        + ", ".join(f"{r['label']}: {r['workers']} process(es)" for r in results.values())
        + f"; DEBUG=0, bench.settings_bench; niceness {args.nice} (the load generator); "
        f"steps of {args.seconds:.0f} s, ladder from {args.start} × {args.factor}, {args.refine} bisections; "
        f"pass: p99 ≤ {P99_MAX_MS:.0f} ms for every request class, push p99 ≤ {PUSH_P99_MAX_MS:.0f} ms, no error",
        "",
    ]
    lines += [
        f"- tables above, per database; {res['label']}: T={res['T']}, T_bare={res['T_bare']}"
        for res in results.values()
    ]
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
