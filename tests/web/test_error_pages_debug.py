"""With DEBUG on (`make run`), errors still get the app's own pages, in the page's language."""

import pytest
from django.test import Client
from django.urls import path

from numapp import urls as root_urls

pytestmark = pytest.mark.django_db


def boom(request):
    raise RuntimeError("the scores table caught fire")


urlpatterns = [path("boom/", boom), *root_urls.urlpatterns]


@pytest.fixture
def debug(settings):
    settings.DEBUG = True
    return settings


@pytest.mark.parametrize("url", ["/nowhere/", "/sheets/doesnotexist/", "/rules/nope/", "/w/abc/def/"])
def test_it_answers_an_unknown_page_with_its_own_404_with_debug_on(debug, url):
    r = Client().get(url)
    assert r.status_code == 404
    page = r.content.decode()
    assert "Page introuvable" in page and "Technical" not in page and "Django" not in page
    assert Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode().count("Page not found") >= 1


def test_it_still_adds_the_slash_with_debug_on(debug):
    assert Client().get("/new/numking").status_code == 301


def test_it_answers_the_api_in_json_with_debug_on(debug):
    r = Client().get("/api/v1/sheets/doesnotexist/")
    assert r.status_code == 404 and r.json()["errors"][0]["code"] == "not_found"


def test_it_shows_its_own_500_page_and_logs_the_traceback_with_debug_on(debug, caplog):
    debug.ROOT_URLCONF = __name__
    r = Client(raise_request_exception=False).get("/boom/")
    assert r.status_code == 500
    assert "Traceback" not in r.content.decode() and "caught fire" not in r.content.decode()
    assert any("caught fire" in (rec.exc_text or str(rec.exc_info)) for rec in caplog.records)
