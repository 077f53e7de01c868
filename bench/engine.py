"""Print how many hands (or games) each scoring engine scores per second.

Run from the repo root: ``python bench/engine.py``. Stdlib only; about 10 seconds.
"""

import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scoring.games import GAMES  # noqa: E402

SECONDS = 1.5  # per measurement
NUMERIC = [(k, v) for k in ("red", "blue", "green", "yellow", "rainbow", "shadow") for v in range(17)]


def deal(rng, players, size, extras=()):
    """Return one round's entries: ``size`` distinct numeric cards per player, plus extras."""
    cards = rng.sample(NUMERIC, size * len(players))
    entries = {}
    for i, name in enumerate(players):
        hand = [{"kind": k, "value": v} for k, v in cards[i * size : (i + 1) * size]]
        hand += [dict(e) for e in extras[i : i + 1]]
        entries[name] = {"cards": hand}
    return {"entries": entries}


def measure(label, unit, per_call, call):
    """Run ``call`` for SECONDS and print calls × per_call per second."""
    calls = 0
    start = time.perf_counter()
    deadline = start + SECONDS
    while True:
        call()
        calls += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    rate = calls * per_call / (now - start)
    print(f"{label:<38} {rate:>12,.0f} {unit}/s")


def main():
    rng = random.Random(7)
    four = ["Elya", "Sasha", "Mendy", "Luka"]
    specials = [{"kind": "joker"}, {"kind": "infini"}, {"kind": "action", "name": "block"}, {"kind": "numx"}]

    numx = GAMES["numx"]
    rounds = [deal(rng, four, 15, specials)]
    measure("numx speedrun (4 × 15 score cards)", "hands", 4, lambda: numx.score(four, {}, rounds))
    xgame = [deal(rng, four, 10), deal(rng, four, 10)]
    measure("numx xgame (2 rounds)", "games", 1, lambda: numx.score(four, {"mode": "xgame"}, xgame))
    teams = {"teams": {"N": four[:2], "S": four[2:]}}
    measure("numx teams (union scoring)", "hands", 4, lambda: numx.score(four, teams, rounds))

    malus = GAMES["numx-malus"]
    fixed = [deal(rng, four, 6, specials) for _ in range(5)]
    measure("numx-malus fixed (5 rounds)", "hands", 20, lambda: malus.score(four, {"end": "fixed"}, fixed))

    numwin = GAMES["numwin"]
    infini = [{"kind": "infini"}, {"kind": "action", "name": "flip"}]
    games = [dict(deal(rng, four, 5, infini), declarer="Elya") for _ in range(4)]
    measure("numwin (4 rounds)", "hands", 16, lambda: numwin.score(four, {}, games))

    numking = GAMES["numking"]
    kings = []
    for cards in range(1, 10):
        tricks = [0] * 4
        for _ in range(cards):
            tricks[rng.randrange(4)] += 1
        kings.append({"entries": {p: {"bid": rng.randint(0, cards), "tricks": t} for p, t in zip(four, tricks)}})
    measure("numking (full 9-round game)", "games", 1, lambda: numking.score(four, {}, kings))

    coop = GAMES["coop"]
    session = [{"placed": rng.randint(80, 96)} for _ in range(20)]
    measure("coop (20-game session)", "games", 20, lambda: coop.score(four[:3], {}, session))


if __name__ == "__main__":
    main()
