"""A sheet that goes away while a request is answered (its 48 hours ran out, it was purged):
the page is the 404 page and the API its 404 error, never a 500 (scoring.exceptions.SheetGone)."""

import pytest
from django.core.cache import cache
from django.test import Client

from scoring import access, services
from scoring import views as page_views
from scoring.api import views as api_views
from scoring.models import Sheet
from tests.web.sheets import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def vanishing(monkeypatch):
    """Make the sheet be purged just after each request has read it and checked who asks."""
    read = access.get_sheet

    def then_purged(request, sheet_id, **kwargs):
        sheet, role = read(request, sheet_id, **kwargs)
        Sheet.objects.filter(pk=sheet.pk).delete()
        cache.clear()  # nothing scored before: the request reads the rounds
        return sheet, role

    for module in (access, api_views, page_views):
        monkeypatch.setattr(module, "get_sheet", then_purged)


def anonymous_sheet(client):
    answer = client.post(
        "/api/v1/sheets/", {"game": "coop", "players": ["A", "B"]}, content_type="application/json"
    ).json()
    services.round_add(sheet=Sheet.objects.get(pk=answer["id"]), data={"placed": 40})
    return answer


def test_a_page_whose_sheet_is_purged_while_it_is_drawn_is_the_404_page(vanishing):
    client = Client()
    sheet = start(client, "coop", ["A", "B"])
    services.round_add(sheet=sheet, data={"placed": 40})
    response = client.get(f"/sheets/{sheet.pk}/")
    assert response.status_code == 404
    assert "Page introuvable" in response.content.decode()


def test_the_api_answers_a_sheet_purged_while_it_is_read_or_written_with_its_404(vanishing):
    client = Client()
    sheet = anonymous_sheet(client)
    read = client.get(f"/api/v1/sheets/{sheet['id']}/")
    assert read.status_code == 404
    assert read.json()["errors"] == [{"path": "", "code": "not_found", "message": "Introuvable."}]  # French first
    write = client.post(
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        {"placed": 12},
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )
    assert write.status_code == 404
    assert write.json()["errors"][0]["code"] == "not_found"
    assert not Sheet.objects.filter(pk=sheet["id"]).exists()


def test_the_services_say_a_sheet_is_gone_in_their_own_terms():
    created = services.sheet_create(game="coop", players=["A", "B"], options={}).sheet
    Sheet.objects.filter(pk=created.pk).delete()
    with pytest.raises(services.SheetGone):
        services.round_add(sheet=created, data={"placed": 10})
    with pytest.raises(services.NoReferee):
        services.referee("coop")
