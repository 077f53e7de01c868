"""One output shape per resource: the serializer that renders it is the one the schema documents.

Each resource's fields, as a client gets them, are the ones its serializer documents: the
sheet's own fields are rendered by it, and a field the engine's result adds (or one the
serializer declares and no answer has) fails here.
"""

import pytest
from django.test import Client

from scoring.api import serializers as s

BODY = {"game": "numking", "players": ["Elya", "Sasha", "Mendy"]}


def documented(serializer) -> tuple[set, set]:
    """Return (every field, the required fields) a serializer documents."""
    fields = serializer().fields
    return set(fields), {name for name, field in fields.items() if field.required}


def browser() -> Client:
    """Return a browser with a session (the sheets it creates are its own) and its CSRF token in a header."""
    client = Client(enforce_csrf_checks=True)
    client.get("/new/numking/")
    client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
    return client


def assert_documented(payload: dict, serializer, *, open_fields=frozenset()) -> None:
    every, required = documented(serializer)
    assert required <= set(payload), required - set(payload)
    assert set(payload) - every - open_fields == set()


@pytest.mark.django_db
def test_a_sheet_has_the_fields_its_schema_documents():
    api = browser()
    created = api.post("/api/v1/sheets/", BODY, content_type="application/json").json()
    # The engine's result may add what its game needs (a schedule, streaks…), documented in docs/api.md.
    engine_fields = set(created) - documented(s.SheetSerializer)[0]
    assert engine_fields <= set(
        api.post("/api/v1/games/numking/score/", {"players": BODY["players"]}, content_type="application/json").json()
    )
    assert_documented(created, s.SheetSerializer, open_fields=engine_fields)
    assert {"edit_token", "edit_url", "share_url", "seat_urls"} <= set(created)

    read = api.get(f"/api/v1/sheets/{created['id']}/").json()
    assert_documented(read, s.SheetSerializer, open_fields=engine_fields)
    assert_documented(read["draft"], s.DraftSerializer)


@pytest.mark.django_db
def test_the_list_of_sheets_and_the_round_in_progress_have_their_documented_fields():
    api = browser()
    created = api.post("/api/v1/sheets/", BODY, content_type="application/json").json()
    [summary] = api.get("/api/v1/sheets/").json()
    assert_documented(summary, s.SheetSummarySerializer)
    draft = api.get(f"/api/v1/sheets/{created['id']}/draft/").json()
    assert_documented(draft, s.DraftSerializer)
