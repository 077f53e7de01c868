"""A round given as its entry form's fields (`{"form": …}`): what the pages send, read by the engine once."""

import pytest
from django.test import Client

from scoring.models import Round, Sheet
from tests.api.sheets import create

pytestmark = pytest.mark.django_db
CARD = '[{"kind": "rainbow", "value": 3}]'


def post_round(sheet, body, *, lang="fr", key=None):
    headers = {"HTTP_X_EDIT_TOKEN": sheet["edit_token"], "HTTP_ACCEPT_LANGUAGE": lang}
    if key:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return Client().post(f"/api/v1/sheets/{sheet['id']}/rounds/", body, content_type="application/json", **headers)


def test_it_adds_the_round_the_form_describes_and_stores_that_round_not_the_fields():
    sheet = create("numx", ["Léa", "Tom"])
    r = post_round(sheet, {"form": {"cards-0": CARD, "points-0": "", "cards-1": "", "points-1": "−4"}, "number": 1})
    assert r.status_code == 201, r.content
    assert r.json()["totals"] == {"Léa": 3, "Tom": -4}
    assert Round.objects.get().data == {
        "entries": {"Léa": {"cards": [{"kind": "rainbow", "value": 3}]}, "Tom": {"points": -4}}
    }


@pytest.mark.parametrize(
    "lang, message",
    [("fr", "Léa : « 4,5 » n'est pas un nombre entier."), ("en", "Léa: “4,5” is not a whole number.")],
)
def test_it_refuses_a_field_it_cannot_read_naming_it_and_stores_nothing(lang, message):
    sheet = create("numx", ["Léa", "Tom"])
    r = post_round(sheet, {"form": {"points-0": "4,5", "points-1": "2"}, "number": 1}, lang=lang)
    assert r.status_code == 400
    assert r.json()["errors"] == [{"path": "entries.Léa.points", "code": "form_not_a_number", "message": message}]
    assert Round.objects.count() == 0
    assert Sheet.objects.get().version == sheet["version"]


def test_it_asks_before_an_empty_round_and_saves_it_when_the_form_says_save_anyway():
    sheet = create("numx", ["Léa", "Tom"])
    empty = {"cards-0": "", "points-0": "", "cards-1": "", "points-1": ""}
    r = post_round(sheet, {"form": empty, "number": 1}, lang="en")
    assert r.status_code == 400
    assert r.json()["errors"] == [
        {"path": "round", "code": "empty_round", "message": "No cards entered — save anyway?"}
    ]
    assert Round.objects.count() == 0
    r = post_round(sheet, {"form": {**empty, "confirm_empty": "1"}, "number": 1})
    assert r.status_code == 201
    assert Round.objects.get().data == {"entries": {"Léa": {"cards": []}, "Tom": {"cards": []}}}


def test_a_retried_form_is_one_round():
    sheet = create("numx-malus", ["Léa", "Tom"])
    body = {"form": {"numeric-0": "2", "specials-0": "1", "numeric-1": ""}, "number": 1}
    first = post_round(sheet, body, key="k-1")
    again = post_round(sheet, body, key="k-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert Round.objects.count() == 1


def test_an_edited_round_can_be_sent_as_its_form():
    sheet = create("numking", ["Léa", "Tom"])
    post_round(sheet, {"form": {"bid-0": "1", "tricks-0": "1", "bid-1": "0", "tricks-1": "0", "cards": "1"}})
    r = Client().put(
        f"/api/v1/sheets/{sheet['id']}/rounds/1/",
        {"form": {"bid-0": "0", "tricks-0": "0", "bid-1": "1", "tricks-1": "1", "cards": "1"}},
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )
    assert r.status_code == 200, r.content
    assert Round.objects.get().data["entries"] == {"Léa": {"bid": 0, "tricks": 0}, "Tom": {"bid": 1, "tricks": 1}}


def test_a_players_own_phone_sends_its_form_and_the_engine_reads_their_entry():
    sheet = create("numking", ["Léa", "Tom"])
    token = sheet["seat_urls"]["Tom"].rstrip("/").rsplit("/", 1)[1]
    r = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/entries/Tom/",
        {"form": {"bid-1": "1", "tricks-1": ""}, "number": 1},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=token,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert r.status_code == 200, r.content
    assert Sheet.objects.get().draft["entries"] == {"Tom": {"bid": 1}}
    r = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/entries/Tom/",
        {"form": {"bid-1": "un"}, "number": 1},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=token,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert r.status_code == 400
    assert r.json()["errors"][0]["message"] == "Tom: “un” is not a whole number."
    assert Sheet.objects.get().draft["entries"] == {"Tom": {"bid": 1}}


def test_the_score_endpoint_scores_a_round_given_as_its_form():
    r = Client().post(
        "/api/v1/games/numx-malus/score/",
        {"players": ["Léa", "Tom"], "rounds": [{"form": {"numeric-0": "3", "numeric-1": "x"}}]},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert r.status_code == 400
    assert r.json()["errors"] == [
        {
            "path": "rounds[0].entries.Tom.numeric",
            "code": "form_not_a_number",
            "message": "Tom, numeric cards: “x” is not a whole number.",
        }
    ]
