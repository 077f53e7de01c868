import pytest


def card(kind, value=None, **extra):
    c = {"kind": kind, **extra}
    if value is not None:
        c["value"] = value
    return c


@pytest.fixture
def api(client):
    def post(slug, body, lang="fr"):
        return client.post(
            f"/api/v1/games/{slug}/score/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang
        )

    return post


def test_it_scores_elya_hand_from_the_spec(api):
    hand = [
        card("blue", 6),
        card("rainbow", 6),
        card("rainbow", 5),
        card("shadow", 7),
        card("shadow", 3),
        card("green", 1),
        card("green", 13),
        card("blue", 5),
        card("blue", 16),
        card("green", 3),
        card("yellow", 7),
        card("blue", 3),
        card("red", 7),
        card("rainbow", 7),
        card("yellow", 5),
    ]
    r = api(
        "numx",
        {"players": ["Elya", "Sasha"], "rounds": [{"entries": {"Elya": {"cards": hand}, "Sasha": {"points": 12}}}]},
    )
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["rounds"][0]["points"] == {"Elya": 50, "Sasha": 12}
    assert body["totals"] == {"Elya": 50, "Sasha": 12}
    assert body["winners"] == ["Elya"]
    assert body["finished"] is True
    assert all(d["text"] for d in body["rounds"][0]["details"]["Elya"])


def test_it_names_a_card_given_twice_in_french_and_english(api):
    body = {
        "players": ["Elya", "Sasha"],
        "rounds": [{"entries": {"Elya": {"cards": [card("blue", 7)]}, "Sasha": {"cards": [card("blue", 7)]}}}],
    }
    fr = api("numx", body)
    en = api("numx", body, lang="en")
    assert fr.status_code == en.status_code == 400
    paths = [e["path"] for e in fr.json()["errors"]]
    assert any(p.startswith("rounds[0].entries.") and "cards" in p for p in paths)
    assert "7" in fr.json()["errors"][0]["message"]
    assert fr.json()["errors"][0]["message"] != en.json()["errors"][0]["message"]


def test_it_refuses_a_joker_in_num_win(api):
    r = api(
        "numwin",
        {"players": ["A", "B"], "rounds": [{"entries": {"A": {"cards": [card("joker")]}, "B": {"cards": []}}}]},
    )
    assert r.status_code == 400
    assert r.json()["errors"][0]["path"] == "rounds[0].entries.A.cards[0]"


def test_it_answers_404_for_an_unknown_game_and_400_for_bad_json(client, api):
    assert api("poker", {"players": ["A", "B"], "rounds": []}).status_code == 404
    r = client.post("/api/v1/games/numx/score/", "{not json", content_type="application/json")
    assert r.status_code == 400
    assert r.json()["errors"][0]["code"] == "parse_error"
    r = client.post("/api/v1/games/numx/score/", "[1, 2]", content_type="application/json")
    assert r.status_code == 400


def test_it_lists_the_five_games(client):
    r = client.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 200
    slugs = [g["slug"] for g in r.json()]
    assert slugs == ["numx", "numx-malus", "numwin", "numking", "coop"]
    wins = {g["slug"]: g["wins"] for g in r.json()}
    assert wins == {"numx": "highest", "numx-malus": "lowest", "numwin": "lowest", "numking": "highest", "coop": "coop"}
