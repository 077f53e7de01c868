"""Who may do what, for every page and API endpoint: outsiders get 404 and nothing changes.

Actors: the owner (account), the anonymous creator's browser, another anonymous browser,
a logged-in stranger, a share-link holder, and a seat-linked player.
"""

import re

import pytest
from django.test import Client

from accounts.services import seat_attach
from scoring.models import Round, Sheet
from scoring.tokens import read_token
from tests.accounts import logged_in

pytestmark = pytest.mark.django_db
ROUND_FORM = {"points-0": "3", "points-1": "4"}
ROUND_JSON = {"entries": {"A": {"points": 3}, "B": {"points": 4}}}


def sheet_by(client) -> Sheet:
    client.post("/new/numx-malus/", {"player": ["A", "B"], "opt-end": "fixed"})
    sheet = Sheet.objects.latest("created_at")
    client.post(f"/sheets/{sheet.pk}/rounds/", ROUND_FORM)
    return sheet


@pytest.fixture
def world():
    owner_user, owner = logged_in("owner@example.org")
    owned = sheet_by(owner)
    creator = Client()
    anonymous = sheet_by(creator)
    _s, stranger = logged_in("stranger@example.org")
    seated_user, seated = logged_in("seated@example.org")
    seat_attach(sheet=owned, seat=1, user=seated_user)
    return {
        "owned": owned,
        "anonymous": anonymous,
        "actors": {
            "owner": owner,
            "creator": creator,
            "other_browser": Client(),
            "stranger": stranger,
            "share_holder": Client(),
            "seated": seated,
        },
    }


def requests_for(sheet):
    """(name, method, path, data) for every sheet-scoped page and endpoint."""
    pk = sheet.pk
    return [
        ("page", "get", f"/sheets/{pk}/", None),
        ("page add", "post", f"/sheets/{pk}/rounds/", ROUND_FORM),
        ("page edit form", "get", f"/sheets/{pk}/rounds/1/edit/", None),
        ("page edit", "post", f"/sheets/{pk}/rounds/1/edit/", ROUND_FORM),
        ("page undo", "post", f"/sheets/{pk}/undo/", {}),
        ("page rematch", "post", f"/sheets/{pk}/rematch/", {}),
        ("page delete", "post", f"/me/sheets/{pk}/delete/", {}),
        ("page seat", "post", f"/me/sheets/{pk}/seat/", {"seat": "0"}),
        ("api read", "get", f"/api/v1/sheets/{pk}/", None),
        ("api add", "post", f"/api/v1/sheets/{pk}/rounds/", ROUND_JSON),
        ("api edit", "put", f"/api/v1/sheets/{pk}/rounds/1/", ROUND_JSON),
        ("api delete", "delete", f"/api/v1/sheets/{pk}/rounds/1/", None),
        ("api rematch", "post", f"/api/v1/sheets/{pk}/rematch/", {}),
    ]


def call(client, method, path, data, headers=None):
    headers = headers or {}
    if path.startswith("/api/"):
        if method == "get":
            return client.get(path, **headers)
        return getattr(client, method)(path, data or {}, content_type="application/json", **headers)
    return getattr(client, method)(path, data or {}, **headers)


def refused(r, path) -> bool:
    """Outsiders get 404; account pages send anonymous visitors to log in first."""
    if path.startswith("/me/") and r.status_code == 302:
        return r.url.startswith("/accounts/login/")
    return r.status_code == 404


def snapshot():
    return (
        Sheet.objects.count(),
        sorted(Sheet.objects.values_list("pk", "version", "user_id")),
        Round.objects.count(),
    )


OUTSIDERS_OF_OWNED = ["creator", "other_browser", "stranger", "share_holder", "seated"]
OUTSIDERS_OF_ANONYMOUS = ["owner", "other_browser", "stranger", "share_holder", "seated"]


@pytest.mark.parametrize("actor", OUTSIDERS_OF_OWNED)
def test_it_checks_ownership_of_an_owned_sheet(world, actor):
    client = world["actors"][actor]
    for name, method, path, data in requests_for(world["owned"]):
        before = snapshot()
        r = call(client, method, path, data)
        assert refused(r, path), (actor, name, r.status_code)
        assert snapshot() == before, (actor, name)


@pytest.mark.parametrize("actor", OUTSIDERS_OF_ANONYMOUS)
def test_it_checks_ownership_of_an_anonymous_sheet(world, actor):
    client = world["actors"][actor]
    for name, method, path, data in requests_for(world["anonymous"]):
        if name in ("page delete", "page seat"):
            continue  # account pages: covered for owned sheets
        before = snapshot()
        r = call(client, method, path, data)
        assert refused(r, path), (actor, name, r.status_code)
        assert snapshot() == before, (actor, name)


def test_it_lets_the_share_link_read_but_never_write(world):
    client = world["actors"]["share_holder"]
    sheet = world["owned"]
    token = read_token(sheet.pk)
    watch = client.get(f"/w/{sheet.pk}/{token}/")
    assert watch.status_code == 200
    assert "edit_token" not in watch.content.decode()
    r = client.get(f"/api/v1/sheets/{sheet.pk}/", HTTP_X_SHARE_TOKEN=token)
    assert r.status_code == 200 and r.json()["can_edit"] is False
    assert "edit_token" not in r.json() and "share_url" not in r.json()
    for name, method, path, data in requests_for(sheet):
        if method == "get":
            continue
        before = snapshot()
        r = call(client, method, path, data, {"HTTP_X_SHARE_TOKEN": token})
        assert refused(r, path), name
        assert snapshot() == before, name
    assert client.get(f"/w/{sheet.pk}/{'0' * 32}/").status_code == 404


@pytest.mark.parametrize("who", ["owner", "creator"])
def test_it_lets_the_creator_do_everything(world, who):
    client = world["actors"][who]
    sheet = world["owned"] if who == "owner" else world["anonymous"]
    for name, method, path, data in requests_for(sheet):
        if name in ("page delete", "page seat") and who == "creator":
            continue
        if name in ("page delete",):
            continue  # would remove the sheet under the remaining requests
        r = call(
            client,
            method,
            path,
            data,
            {"HTTP_X_CSRFTOKEN": client.cookies.get("csrftoken").value} if "csrftoken" in client.cookies else {},
        )
        assert r.status_code in (200, 201, 302), (who, name, r.status_code, r.content[:200])
    if who == "owner":
        assert client.post(f"/me/sheets/{sheet.pk}/delete/").status_code == 302
        assert not Sheet.objects.alive().filter(pk=sheet.pk).exists()


def test_no_response_leaks_the_edit_token(world):
    creator = Client()
    r = creator.post("/api/v1/sheets/", {"game": "coop", "players": ["A", "B"]}, content_type="application/json")
    token = r.json()["edit_token"]
    sheet_id = r.json()["id"]
    # Only the create response carries it; every later read leaves it out.
    assert token not in creator.get(f"/api/v1/sheets/{sheet_id}/", HTTP_X_EDIT_TOKEN=token).content.decode()
    assert token not in creator.get("/api/v1/sheets/").content.decode()
    page = world["actors"]["owner"].get(f"/sheets/{world['owned'].pk}/").content.decode()
    assert not re.search(r"edit_token", page)
    assert Sheet.objects.get(pk=sheet_id).edit_token_hash != token
