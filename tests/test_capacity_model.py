"""`make bench-capacity`'s table model, played for a few seconds against the app under uvicorn.

The benchmark itself takes minutes and is not part of `make test`; this keeps it from rotting:
its tables (the sheet's phone, three players' phones, a watcher, each on its event stream)
play rounds at ten times the pace, and every request must be answered as the model expects,
every phone must hear every change, and the rounds must be stored.
"""

import asyncio
import random
import threading

import pytest
from django.test import override_settings

from bench import capacity
from scoring.models import Sheet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout_sensitive]

PACE = 6.0  # s a round: five times the benchmark's pace


@pytest.fixture
def tables(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    seeded = capacity.seed_data({"old": 0, "pool": 40, "ahead": 3, "player_counts": [4], "depths": [0.0]})
    # A table of each kind of round: bids and tricks, hands from the players' phones, the table's result alone.
    games = {}
    for table in seeded["tables"]:
        games.setdefault(seeded["templates"][table["tpl"]]["game"], table)
    seeded["tables"] = [games[g] for g in ("numking", "numx-malus", "coop")]
    return seeded


def play(seeded, port: int, bare: bool, seconds: float) -> capacity.Step:
    """Play the tables in a thread of their own: the browser tests' event loop may run in this one."""
    traffic = capacity.Traffic(seeded, port)
    step = capacity.Step(traffic, port, seeded["tables"], seconds, bare, random.Random(1), pace=PACE)
    failed = []

    def run():
        try:
            with asyncio.Runner(loop_factory=capacity._loop_factory()) as runner:
                runner.run(step.open_streams())
                runner.run(step.run())
                step.close_streams()
        except BaseException as exc:  # raised again in the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return step


def test_the_tables_play_their_rounds_against_the_app(live_server, tables, monkeypatch):
    monkeypatch.setattr(capacity, "TIMEOUT", 20.0)  # the server shares this process (and a busy machine)
    seeded = tables
    step = play(seeded, live_server.port, bare=False, seconds=PACE)
    assert step.error_samples == []
    assert len(step.streams) == 5 * len(seeded["tables"]) and step.dropped == 0
    heard = {c: len(v) for c, v in step.lat.items()}
    assert heard["entry_put"] == step.planned["entry"] > 0
    assert heard["round_post"] == step.planned["save"] == step.posted > 0
    # Every phone ends on its sheet's version (a phone that fell behind hears the newest only);
    # each phone fetched its page once per version it heard of, the sheet's phone also after its writes.
    changes = step.planned["entry"] + step.planned["bids"] + step.planned["save"]
    assert 0 < step.pushes <= 5 * changes
    for i, table in enumerate(seeded["tables"]):
        assert step.shown[i] == [Sheet.objects.get(pk=table["id"]).version] * 5
    assert 0 < heard["seat_page"] + heard["watcher_board"] + heard["sheet_page"] <= step.pushes
    assert max(step.push_ms) < capacity.TIMEOUT * 1000
    stored = {t["id"]: Sheet.objects.get(pk=t["id"]).round_count for t in seeded["tables"]}
    rounds = {t["id"]: seeded["templates"][t["tpl"]]["rounds"] for t in seeded["tables"]}
    assert sum(stored.values()) - sum(rounds.values()) == step.posted


def test_the_bare_app_carries_the_same_requests_and_messages(live_server, tables, monkeypatch):
    monkeypatch.setattr(capacity, "TIMEOUT", 20.0)
    seeded = tables
    with override_settings(ROOT_URLCONF="bench.urls_bench_bare"):
        step = play(seeded, live_server.port, bare=True, seconds=PACE)
    assert step.error_samples == []
    changes = step.planned["entry"] + step.planned["bids"] + step.planned["save"]
    assert changes > 0 and 0 < step.pushes <= 5 * changes
    assert 0 < len(step.lat["seat_page"]) <= step.pushes


class Phase:
    """A random source whose `uniform` is always the given share of its range: the table's phase."""

    def __init__(self, share):
        self.share = share

    def uniform(self, low, high):
        return low + (high - low) * self.share


@pytest.mark.django_db(transaction=False)  # no database: the closest mark keeps it cheap
@pytest.mark.parametrize("share", [0.0, 0.02, 0.05, 0.08, 0.1, 0.5, 0.9, 0.99])
def test_a_rounds_writes_come_after_the_save_of_the_round_before(share):
    """A round saved before the step starts is the sheet's past: the step's first round is the next one."""
    entries = {name: {"cards": []} for name in "ABC"}
    template = {
        "game": "numx",
        "version": 1,
        "future": [{"data": {"entries": entries}, "number": n} for n in (5, 6, 7)],
    }
    table = {"tpl": 0, "id": "x", "share": "s", "seats": [[k, name, "t"] for k, name in enumerate("ABC")]}
    traffic = type("Traffic", (), {"templates": [template]})
    step = capacity.Step(traffic, 1, [table], 8.0, False, Phase(share))
    saved = {j: t for t, kind, _i, j, _arg in step.events if kind == "save"}
    for t, _kind, _i, j, _arg in step.events:
        assert j == 0 or saved.get(j - 1, t) < t
    assert all(j < 2 for _t, _kind, _i, j, _arg in step.events)
