"""The CSV export: typed names cannot run as formulas, ids and dates stay as they are."""

import csv
import io
import secrets
import types

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from scoring import models, services

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"


def test_it_guards_typed_names_and_keeps_ids_that_start_with_a_dash(monkeypatch):
    user = get_user_model().objects.create_user("ana", "ana@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email="ana@example.org", verified=True, primary=True)
    # Sheet ids are URL-safe base64: about one in 64 starts with "-".
    monkeypatch.setattr(
        models, "secrets", types.SimpleNamespace(token_urlsafe=lambda n: "-" + secrets.token_urlsafe(n)[1:])
    )
    sheet = services.sheet_create(game="coop", players=["=1+1", "-Bo", "@Cy", "+Di"], options={}, user=user).sheet
    assert sheet.pk.startswith("-")
    services.round_add(sheet=sheet, data={"placed": 50})
    client = Client()
    assert client.post("/accounts/login/", {"login": "ana@example.org", "password": PASSWORD}).status_code == 302
    rows = list(csv.DictReader(io.StringIO(client.get("/me/export.csv").content.decode())))
    assert [r["sheet"] for r in rows] == [sheet.pk] * 4  # the id matches its sheet
    assert [r["player"] for r in rows] == ["'=1+1", "'-Bo", "'@Cy", "'+Di"]
    assert {r["game"] for r in rows} == {"coop"}
    assert rows[0]["created_at"] == sheet.created_at.isoformat()
    assert models.Sheet.objects.filter(pk=rows[0]["sheet"]).exists()
