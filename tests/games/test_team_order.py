"""Teams come out in the order of their first player at the table, whatever the order of the JSON keys."""

import pytest

from scoring.games import GAMES

MODES = {"numx": {}, "numwin": {}, "numking": {"mode": "binomes"}}


@pytest.mark.parametrize("slug", sorted(MODES))
def test_it_orders_teams_by_their_first_seat(slug):
    engine = GAMES[slug]
    players = ["Léa", "Marc", "Hugo", "Zoé"]
    backwards = {"Les Rouges": ["Zoé", "Hugo"], "Les Bleus": ["Marc", "Léa"]}
    options = engine.normalize_options(players, {**MODES[slug], "teams": backwards})
    assert list(options["teams"]) == ["Les Bleus", "Les Rouges"]
    result = engine.score(players, {**MODES[slug], "teams": backwards}, [])
    assert list(result["options"]["teams"]) == ["Les Bleus", "Les Rouges"]
