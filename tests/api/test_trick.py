"""POST /api/v1/games/numking/trick/: the Num King referee over the API (shared/spec/api.md, « Who takes the trick »).

Stateless like the score endpoint: no login, nothing stored, every bad input a 400 naming
its field, in the request's language.
"""

import json

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from scoring.models import IdempotentRequest, Player, Round, Sheet

pytestmark = pytest.mark.django_db

URL = "/api/v1/games/numking/trick/"
ABCD = ["A", "B", "C", "D"]
# The spec's example, as api.md gives it.
EXAMPLE = {
    "players": ABCD,
    "options": {"extra_family": False},
    "plays": [
        {"player": "A", "card": {"kind": "rainbow", "value": 9}},
        {"player": "B", "card": {"kind": "action", "name": "flip"}},
        {"player": "C", "card": {"kind": "shadow", "value": 4}},
        {"player": "D", "card": {"kind": "numx", "as": 17}},
    ],
    "played": [],
}


def post(client, body, lang=None, url=URL):
    headers = {"HTTP_ACCEPT_LANGUAGE": lang} if lang else {}
    text = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, text, content_type="application/json", **headers)


def play(cards, order=ABCD):
    return [{"player": p, "card": c} for p, c in zip(order, cards)]


def rows():
    return [m.objects.count() for m in (Sheet, Round, Player, IdempotentRequest, Session)]


def test_it_answers_the_spec_example_with_exactly_the_spec_shape(client):
    r = post(client, EXAMPLE)
    assert r.status_code == 200, r.content
    body = r.json()
    assert {k: v for k, v in body.items() if k != "details"} == {
        "winner": "D",
        "leads_next": "D",
        "active": "numx",
        "cancelled": [],
        "valid": ["A", "C", "D"],
    }
    assert list(body) == ["winner", "leads_next", "active", "cancelled", "valid", "details"]
    assert "⚡ Num-X 17 joué après Flip : la plus haute carte valide gagne" in body["details"]


def test_it_answers_a_trick_without_a_winner_with_null(client):
    cards = [{"kind": "rainbow", "value": 5}, {"kind": "shadow", "value": 5}, {"kind": "action", "name": "flash"}]
    body = post(client, {"players": ["A", "B", "C"], "plays": play(cards)}).json()
    assert (body["winner"], body["leads_next"], body["active"], body["cancelled"], body["valid"]) == (
        None,
        "A",
        "flash",
        ["A", "B"],
        [],
    )


def test_it_explains_in_the_request_language(client):
    fr = post(client, EXAMPLE).json()["details"]
    en = post(client, EXAMPLE, lang="en").json()["details"]
    assert fr[-1] == "D commence le pli suivant"
    assert en[-1] == "D leads the next trick"
    assert len(fr) == len(en) and all(a != b for a, b in zip(fr, en))


def test_it_stores_nothing_and_needs_no_login_nor_csrf_like_the_score_endpoint():
    browser = Client(enforce_csrf_checks=True)
    browser.get("/new/numking/")  # a browser with a session and a CSRF cookie, sending no token
    before = rows()
    ok = post(browser, EXAMPLE)
    bad = post(browser, {**EXAMPLE, "plays": EXAMPLE["plays"][:3]})
    score = post(browser, {"players": ABCD}, url="/api/v1/games/numking/score/")
    assert (ok.status_code, bad.status_code, score.status_code) == (200, 400, 200)
    assert rows() == before
    assert not ok.cookies and not bad.cookies
    assert post(Client(), EXAMPLE).status_code == 200 and rows() == before


def card(kind, value=None, **extra):
    c = {"kind": kind, **extra}
    if value is not None:
        c["value"] = value
    return c


R9, S4, FLIP = card("rainbow", 9), card("shadow", 4), card("action", name="flip")

# Every bad input api.md lists: (body, path, code, French message, English message).
BAD = {
    "player-twice": (
        {"players": ABCD, "plays": play([R9, S4, card("rainbow", 2), FLIP], ["A", "B", "C", "B"])},
        "plays[3].player",
        "trick_player_twice",
        "B joue deux fois dans ce pli.",
        "B plays twice in this trick.",
    ),
    "player-missing": (
        {"players": ABCD, "plays": play([R9, S4, FLIP])},
        "plays",
        "trick_player_missing",
        "Il manque la carte de D dans ce pli.",
        "The card of D is missing from this trick.",
    ),
    "unknown-player": (
        {"players": ABCD, "plays": play([R9, S4, FLIP, card("shadow", 2)], ["A", "B", "C", "Zoé"])},
        "plays[3].player",
        "unknown_player",
        "Joueur inconnu : Zoé.",
        "Unknown player: Zoé.",
    ),
    "family-without-extra-family": (
        {"players": ABCD, "options": {"extra_family": False}, "plays": play([R9, S4, card("family", 7), FLIP])},
        "plays[2].card",
        "extra_family_off",
        "Famille 7 : la famille supplémentaire ne se joue qu'avec son option (7 joueurs ou plus).",
        "Family 7: the extra family is only played with its option (7 players or more).",
    ),
    "value-below-1": (
        {"players": ABCD, "plays": play([R9, S4, card("rainbow", 0), FLIP])},
        "plays[2].card.value",
        "out_of_range",
        "Valeur hors limites : 0 (1 à 16).",
        "Value out of range: 0 (1 to 16).",
    ),
    "value-above-16": (
        {"players": ABCD, "plays": play([R9, S4, card("shadow", 17), FLIP])},
        "plays[2].card.value",
        "out_of_range",
        "Valeur hors limites : 17 (1 à 16).",
        "Value out of range: 17 (1 to 16).",
    ),
    "numx-without-as": (
        {"players": ABCD, "plays": play([R9, S4, card("numx"), FLIP])},
        "plays[2].card.as",
        "numx_as_missing",
        "Num-X : déclarez sa valeur, 0 ou 17 (as).",
        "Num-X: declare its value, 0 or 17 (as).",
    ),
    "numx-as-neither-0-nor-17": (
        {"players": ABCD, "plays": play([R9, S4, card("numx", **{"as": 16}), FLIP])},
        "plays[2].card.as",
        "numx_as",
        "Num-X vaut 0 ou 17 (as), pas 16.",
        "Num-X is worth 0 or 17 (as), not 16.",
    ),
    "card-twice-in-plays": (
        {"players": ABCD, "plays": play([R9, S4, card("rainbow", 9), FLIP])},
        "plays[2].card",
        "trick_card_twice",
        "Rainbow 9 est jouée deux fois dans ce pli (déjà par A).",
        "Rainbow 9 is played twice in this trick (already by A).",
    ),
    "card-in-played": (
        {"players": ABCD, "plays": play([R9, S4, card("rainbow", 2), FLIP]), "played": [card("shadow", 4)]},
        "plays[1].card",
        "card_already_played",
        "Shadow 4 a déjà été jouée dans un pli précédent de la manche.",
        "Shadow 4 was already played in an earlier trick of this round.",
    ),
    "card-twice-in-played": (
        {"players": ABCD, "plays": play([R9, S4, card("rainbow", 2), FLIP]), "played": [card("numx", **{"as": 0})] * 2},
        "played[1]",
        "duplicate_card",
        "Carte donnée deux fois : ⚡ Num-X 0.",
        "Card given twice: ⚡ Num-X 0.",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_it_refuses_each_bad_input_of_the_spec_naming_the_field_in_the_request_language(client, case, lang):
    body, path, code, fr, en = BAD[case]
    before = rows()
    r = post(client, body, lang=lang)
    assert r.status_code == 400, r.content
    answer = r.json()
    message = fr if lang == "fr" else en
    first, *others = answer["errors"]
    assert first == {"path": path, "code": code, "message": message}
    if case in ("player-twice", "unknown-player"):
        # The player whose card is not there is named too.
        assert [(e["path"], e["code"]) for e in others] == [("plays", "trick_player_missing")]
    else:
        assert others == [] and answer["detail"] == message
    assert rows() == before


def test_it_says_how_many_problems_when_there_are_several(client):
    body = {"players": ABCD, "plays": play([card("rainbow", 0), card("numx"), card("family", 3)])}
    fr, en = post(client, body).json(), post(client, body, lang="en").json()
    assert [e["path"] for e in fr["errors"]] == ["plays[0].card.value", "plays[1].card.as", "plays[2].card", "plays"]
    assert fr["detail"] == "4 problèmes dans la demande."
    assert en["detail"] == "4 problems in the request."


def test_it_checks_the_players_and_options_first(client):
    errors = post(client, {**EXAMPLE, "options": {"extra_family": True}}).json()["errors"]
    assert [(e["path"], e["code"]) for e in errors] == [("options.extra_family", "extra_family_players")]
    errors = post(client, {**EXAMPLE, "players": ["A", "a", "C", "D"]}, lang="en").json()["errors"]
    assert [(e["path"], e["code"]) for e in errors] == [("players[1]", "player_duplicate")]


def test_it_takes_the_extra_family_from_seven_players(client):
    seven = ["A", "B", "C", "D", "E", "F", "G"]
    cards = [card("rainbow", 12), card("shadow", 12), card("family", 12), card("family", 3)]
    cards += [card("rainbow", 5), card("action", name="quantique"), card("shadow", 1)]
    body = post(client, {"players": seven, "options": {"extra_family": True}, "plays": play(cards, seven)}).json()
    assert (body["winner"], body["cancelled"]) == ("E", ["A", "B", "C"])  # 7 players: odd, R5 the highest odd


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({**EXAMPLE, "rounds": []}, "rounds", "unknown_field"),
        ([EXAMPLE], "", "invalid"),
        ({**EXAMPLE, "plays": {"A": R9}}, "plays", "cards_type"),
        ({**EXAMPLE, "played": "R9"}, "played", "cards_type"),
        ({**EXAMPLE, "plays": None}, "plays", "cards_type"),
        ({"plays": EXAMPLE["plays"]}, "players", "players_type"),
    ],
)
def test_it_refuses_a_body_of_the_wrong_shape(client, body, path, code):
    errors = post(client, body).json()["errors"]
    assert (errors[0]["path"], errors[0]["code"]) == (path, code)


def test_it_takes_played_and_options_as_null(client):
    assert post(client, {**EXAMPLE, "played": None, "options": None}).json()["winner"] == "D"


def test_it_answers_404_for_a_game_without_a_referee_and_for_an_unknown_game(client):
    r = post(client, EXAMPLE, url="/api/v1/games/numx/trick/")
    assert r.status_code == 404 and r.json()["errors"][0]["code"] == "not_found"
    r = post(client, "not even json", url="/api/v1/games/poker/trick/", lang="en")
    assert r.status_code == 404
    assert r.json()["errors"] == [{"path": "slug", "code": "unknown_game", "message": "Unknown game: poker."}]


def test_it_answers_a_get_with_405_and_bad_json_with_400(client):
    assert client.get(URL).status_code == 405
    r = post(client, b'{"players": ["\xff"')
    assert r.status_code == 400 and r.json()["errors"][0]["code"] == "parse_error"


def test_the_schema_documents_the_endpoint(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    # One operation per game with a referee: Num King's only.
    assert [path for path in schema["paths"] if path.endswith("/trick/")] == ["/api/v1/games/numking/trick/"]
    operation = schema["paths"]["/api/v1/games/numking/trick/"]["post"]
    assert set(operation["responses"]) == {"200", "400", "404", "413"}
    body = operation["requestBody"]["content"]["application/json"]
    assert body["examples"]["Numking"]["value"] == EXAMPLE
    assert set(body["schema"]["required"]) == {"players", "plays"} and body["schema"]["additionalProperties"] is False
    cards = body["schema"]["properties"]["plays"]["items"]["properties"]["card"]["oneOf"]
    assert [set(card["properties"]) for card in cards] == [{"kind", "value"}, {"kind", "as"}, {"kind", "name"}]
    components = schema["components"]["schemas"]
    assert set(components["Trick"]["required"]) == {"winner", "leads_next", "active", "cancelled", "valid", "details"}
