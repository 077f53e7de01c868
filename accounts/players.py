"""« Mes joueurs », the part that runs no query: names folded, ratings replayed, a player's figures from seats.

accounts/services.py reads the seats and the names, then hands them here; the pages and
the API show what comes back. Plain functions over plain data, so that a test can give
a small history and check every figure by hand.
"""

import unicodedata
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

# OpenSkill's Plackett-Luce model with its defaults: a new player is 25 ± 8.33.
MODEL = PlackettLuce()


def fold(name: str) -> str:
    """Return the key a name is recognised by: NFKD, accents dropped, casefolded, spaces made one.

    « Léa », « lea » and « LÉA » fold to "lea": one player until the account splits them.
    """
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.casefold().split())


def replay(games, start: dict | None = None) -> dict:
    """Return the ratings after these games, in the order given: {player_id: (mu, sigma, games)}.

    Each game is [(player_ids of a side, place)], place 1 first, equal places a tie
    (OpenSkill's ranks). A game with fewer than two sides changes nothing. ``start``
    holds the ratings before the first game ({player_id: (mu, sigma, games)}); a player
    not in it starts at OpenSkill's default.
    """
    state: dict = {pid: MODEL.rating(mu=mu, sigma=sigma) for pid, (mu, sigma, _n) in (start or {}).items()}
    counts: dict = {pid: n for pid, (_mu, _sigma, n) in (start or {}).items()}
    for sides in games:
        sides = [(ids, place) for ids, place in sides if ids]
        if len(sides) < 2:
            continue
        teams = [[state.get(pid) or MODEL.rating() for pid in ids] for ids, _place in sides]
        rated = MODEL.rate(teams, ranks=[place for _ids, place in sides])
        for (ids, _place), team in zip(sides, rated):
            for pid, rating in zip(ids, team):
                state[pid] = rating
                counts[pid] = counts.get(pid, 0) + 1
    return {pid: (r.mu, r.sigma, counts[pid]) for pid, r in state.items()}


def rating_text(mu: float, sigma: float) -> str:
    """Return a rating as the pages show it: « 27 ± 6 » (mu, and sigma as its uncertainty)."""
    return f"{round(mu)} ± {round(sigma)}"


@dataclass
class Sheet:
    """A sheet as the player's page reads it: its game, options, whether it is finished, when it was played."""

    id: str
    game: str
    options: dict
    finished: bool
    played_at: object


@dataclass
class Versus:
    """Head to head against one other player: games together, who finished ahead, who won."""

    player_id: int
    name: str = ""
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0
    wins: int = 0
    their_wins: int = 0
    per_game: dict = field(default_factory=dict)


def player_figures(
    player_id: int, sheets: list, seats: dict, records: dict, player_of: dict, names: dict, games: dict, lang: str
) -> dict:
    """Return one player's figures from the sheets they sat at.

    ``sheets``: Sheet rows in the order played; ``seats``: sheet id → [(name, total,
    winner)], every seat of it; ``records``: sheet id → the player's own seat's records;
    ``player_of``: seat name → player id (the account's names); ``names``: player id →
    the name shown; ``games``: the engines by slug. Counted like the standings: a
    finished sheet is one game, a session counts its own games. Returns {"per_game":
    [...], "versus": [...]} in catalogue order and by games together.
    """
    per_game: dict = {}
    versus: dict = {}
    for sheet in sheets:
        engine = games.get(sheet.game)
        at_table = seats.get(sheet.id, [])
        mine = next((s for s in at_table if player_of.get(s[0]) == player_id), None)
        if engine is None or mine is None or not (sheet.finished or engine.session):
            continue
        my_name, my_total, my_win = mine
        row = per_game.setdefault(
            sheet.game,
            {"games": 0, "wins": 0, "totals": [], "results": [], "records": [], "session": engine.session},
        )
        my_records = records.get(sheet.id) or {}
        counted, won = engine.seat_games(my_win, my_records)
        row["games"] += counted
        row["wins"] += won
        row["records"].append(my_records)
        if engine.session:
            continue
        row["totals"].append(my_total)
        row["results"].append((sheet.played_at, my_total, my_win))
        places = engine.seat_ranks(sheet.options, at_table)
        seen = {player_id}
        for other_name, _total, other_win in at_table:
            other_id = player_of.get(other_name)
            if other_id is None or other_id in seen:
                continue  # a name never recognised, or a second seat of one player
            seen.add(other_id)
            vs = versus.get(other_id)
            if vs is None:
                vs = versus[other_id] = Versus(other_id, names.get(other_id, other_name))
            vs.games += 1
            per = vs.per_game.setdefault(sheet.game, [0, 0, 0])  # together, ahead, behind
            per[0] += 1
            mine_place, their_place = places.get(my_name), places.get(other_name)
            if mine_place is not None and their_place is not None:
                if mine_place < their_place:
                    vs.ahead += 1
                    per[1] += 1
                elif mine_place > their_place:
                    vs.behind += 1
                    per[2] += 1
                else:
                    vs.level += 1
            vs.wins += int(my_win)
            vs.their_wins += int(other_win)
    out = []
    for slug, engine in games.items():
        row = per_game.get(slug)
        if not row or not row["games"]:
            continue
        totals = row["totals"]
        best = None
        if totals:
            best = min(totals) if engine.wins == "lowest" else max(totals)
        records = engine.combine_records(row["records"])
        out.append(
            {
                "slug": slug,
                "name": engine.title(lang),
                "session": engine.session,
                "games": row["games"],
                "wins": row["wins"],
                "win_rate": round(100 * row["wins"] / row["games"], 1),
                "average": round(sum(totals) / len(totals), 1) if totals else None,
                "best": best,
                "records": engine.record_lines(records, lang),
                "results": row["results"],
            }
        )
    ranked = sorted(versus.values(), key=lambda v: (-v.games, v.name.casefold()))
    return {"per_game": out, "versus": [vars(v) for v in ranked]}
