"""The CSV export: typed names cannot run as formulas, ids and dates stay as they are."""

import csv
import io
import secrets
import types

import pytest
from django.test import Client

from scoring import models, services
from tests.accounts import log_in, verified_user

pytestmark = pytest.mark.django_db


def test_it_guards_typed_names_and_keeps_ids_that_start_with_a_dash(monkeypatch):
    user = verified_user("ana@example.org")
    # Sheet ids are URL-safe base64: about one in 64 starts with "-".
    monkeypatch.setattr(
        models, "secrets", types.SimpleNamespace(token_urlsafe=lambda n: "-" + secrets.token_urlsafe(n)[1:])
    )
    sheet = services.sheet_create(game="coop", players=["=1+1", "-Bo", "@Cy", "+Di"], options={}, user=user).sheet
    assert sheet.pk.startswith("-")
    services.round_add(sheet=sheet, data={"placed": 50})
    client = log_in(Client(), "ana@example.org")
    rows = list(csv.DictReader(io.StringIO(client.get("/me/export.csv").content.decode())))
    assert [r["sheet"] for r in rows] == [sheet.pk] * 4  # the id matches its sheet
    assert [r["player"] for r in rows] == ["'=1+1", "'-Bo", "'@Cy", "'+Di"]
    assert {r["game"] for r in rows} == {"coop"}
    assert rows[0]["created_at"] == sheet.created_at.isoformat()
    assert models.Sheet.objects.filter(pk=rows[0]["sheet"]).exists()
