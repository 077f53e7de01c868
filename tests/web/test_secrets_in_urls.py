"""Secrets in URLs: edit links leave the address at once, the access log holds no token,
and an edit link's right ends when the sheet goes into an account."""

import datetime
import logging
import runpy
from pathlib import Path

import pytest
from django.test import Client
from gunicorn.config import Config

from scoring.models import Round, Sheet
from tests.accounts import log_in, logged_in, verified_user
from tests.api.sheets import create as create_sheet

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
ROUND_JSON = {"placed": 50}


def create(client):
    return create_sheet("coop", ["A", "B"], client=client)


def test_it_sends_every_edit_link_to_the_bare_address_at_once():
    creator = Client()
    creator.get("/new/coop/")  # a browser: its cookies bind the sheet to its session
    sheet = create(creator)
    bare = f"/sheets/{sheet['id']}/"
    other = Client()
    r = other.get(f"{bare}?edit={sheet['edit_token']}")
    assert (r.status_code, r.url) == (302, bare)
    assert other.get(bare).status_code == 200
    # A browser that may edit anyway is sent to the bare address too, whatever the token.
    for token in ("wrong-token", sheet["edit_token"], ""):
        r = creator.get(f"{bare}?edit={token}")
        assert (r.status_code, r.url) == (302, bare), token
    # Anyone else gets the 404 of a missing sheet, which does not show the token.
    r = Client().get(f"{bare}?edit=wrong-token")
    assert r.status_code == 404
    assert "wrong-token" not in r.content.decode()
    r = Client().get(f"/sheets/no-such-sheet/?edit={sheet['edit_token']}")
    assert r.status_code == 404 and sheet["edit_token"] not in r.content.decode()


def test_it_ends_an_edit_link_right_when_the_sheet_is_saved_into_an_account():
    sheet = create(Client())  # an API client, without cookies: only the token edits
    page = f"/sheets/{sheet['id']}/"
    browser_b = Client()
    assert browser_b.get(f"{page}?edit={sheet['edit_token']}").status_code == 302
    assert browser_b.get(page).status_code == 200
    user_a, browser_a = logged_in("a@example.org")
    assert browser_a.get(f"{page}?edit={sheet['edit_token']}").status_code == 302
    assert browser_a.post(f"/me/sheets/{sheet['id']}/save/").status_code == 302
    assert Sheet.objects.get(pk=sheet["id"]).user == user_a

    # The account owner keeps the sheet through the account.
    assert browser_a.get(page).status_code == 200
    # The browser that held only the edit link loses it, reads and writes alike.
    assert browser_b.get(page).status_code == 404
    assert browser_b.post(f"{page}rounds/", {"placed": "50"}).status_code == 404
    api_write = browser_b.post(f"/api/v1/sheets/{sheet['id']}/rounds/", ROUND_JSON, content_type="application/json")
    assert api_write.status_code == 404
    # Opening the link again gives nothing back, nor does the token in the header.
    assert browser_b.get(f"{page}?edit={sheet['edit_token']}").status_code == 404
    token_write = Client().post(
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        ROUND_JSON,
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )
    assert token_write.status_code == 404
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 0


def test_it_ends_an_edit_link_right_when_the_creator_logs_in_and_claims_the_sheet():
    creator = Client()
    creator.get("/new/coop/")
    sheet = create(creator)
    page = f"/sheets/{sheet['id']}/"
    browser_b = Client()
    assert browser_b.get(f"{page}?edit={sheet['edit_token']}").status_code == 302
    assert browser_b.get(page).status_code == 200
    user = verified_user("c@example.org")
    log_in(creator, "c@example.org")
    assert creator.post("/me/claim/", {"answer": "add"}).status_code == 302  # the login asks; the creator says yes
    assert Sheet.objects.get(pk=sheet["id"]).user == user
    assert creator.get(page).status_code == 200
    assert browser_b.get(page).status_code == 404
    assert browser_b.post(f"{page}rounds/", {"placed": "50"}).status_code == 404
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 0


def test_it_keeps_the_edit_link_of_a_sheet_made_by_an_account():
    user, owner = logged_in("owner@example.org")
    sheet = create(owner)
    assert Sheet.objects.get(pk=sheet["id"]).user == user
    helper = Client()
    assert helper.get(f"/sheets/{sheet['id']}/?edit={sheet['edit_token']}").status_code == 302
    assert helper.get(f"/sheets/{sheet['id']}/").status_code == 200


class FakeResponse:
    status = "200 OK"
    sent = 1234
    headers = [("Content-Type", "text/html")]


class FakeRequest:
    def __init__(self, headers):
        self.headers = headers


def access_line(tmp_path, method, raw_uri, referer, xff=""):
    """Return the access log line gunicorn writes for one request, with our gunicorn.conf.py."""
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    cfg = Config()
    for name in ("access_log_format", "logger_class"):
        cfg.set(name, conf[name])
    log_file = tmp_path / "access.log"
    cfg.set("accesslog", str(log_file))
    logger = cfg.logger_class(cfg)
    path, _, query = raw_uri.partition("?")
    environ = {
        "REQUEST_METHOD": method,
        "RAW_URI": raw_uri,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "10.0.0.2",
        "HTTP_REFERER": referer,
        "HTTP_USER_AGENT": "phone",
        "HTTP_X_FORWARDED_FOR": xff,
    }
    headers = [("REFERER", referer), ("USER-AGENT", "phone")]
    try:
        logger.access(FakeResponse(), FakeRequest(headers), environ, datetime.timedelta(milliseconds=12))
    finally:
        for handler in logger.access_log.handlers:
            handler.close()
        logger.access_log.handlers.clear()
        logging.getLogger("gunicorn.access").handlers.clear()
    return log_file.read_text()


@pytest.mark.parametrize(
    ("raw_uri", "referer", "shown"),
    [
        ("/sheets/abc/?edit=SECRETTOKEN", "-", '"GET /sheets/abc/ HTTP/1.1"'),
        ("/w/abc/SECRETTOKEN/?fragment=1", "https://scores.example.org/w/abc/SECRETTOKEN/", '"GET /w/abc/-/ HTTP/1.1"'),
        (
            "/static/app.js",
            "https://scores.example.org/sheets/abc/?edit=SECRETTOKEN",
            '"https://scores.example.org/sheets/abc/"',
        ),
        ("/seat/abc/1/SECRETTOKEN/", "-", '"GET /seat/abc/1/-/ HTTP/1.1"'),
        ("/accounts/login/?next=/seat/abc/1/SECRETTOKEN/", "-", '"GET /accounts/login/ HTTP/1.1"'),
    ],
)
def test_it_logs_paths_without_tokens(tmp_path, raw_uri, referer, shown):
    line = access_line(tmp_path, "GET", raw_uri, referer)
    assert shown in line
    assert "SECRETTOKEN" not in line
    assert " 200 1234 " in line


def test_it_logs_the_address_the_limits_count(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    line = access_line(tmp_path, "GET", "/", "-", xff="6.6.6.6, 203.0.113.7")
    assert line.startswith("203.0.113.7 ")


def test_it_runs_the_app_with_its_own_access_log():
    procfile = (ROOT / "Procfile").read_text()
    assert "uvicorn numapp.asgi:application" in procfile and "--no-access-log" in procfile
    assert "gunicorn.conf.py" in (ROOT / "bench" / "load.py").read_text()


def asgi_access_line(caplog, path: str, query: str, headers: dict, client=("10.0.0.2", 5123)) -> str:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from web.accesslog import AccessLog

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"x" * 1234})

    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": query.encode(),
        "http_version": "1.1",
        "client": client,
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }

    async def nothing():
        return {"type": "http.request"}

    async def ignore(message):
        pass

    # In a thread of its own: the browser tests' Playwright keeps an event loop in this one.
    with caplog.at_level("INFO", logger="numapp.access"), ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, AccessLog(app)(scope, nothing, ignore)).result()
    return caplog.records[-1].getMessage()


@pytest.mark.parametrize(
    ("path", "query", "referer", "shown"),
    [
        ("/sheets/abc/", "edit=SECRETTOKEN", "-", '"GET /sheets/abc/ HTTP/1.1"'),
        (
            "/w/abc/SECRETTOKEN/",
            "fragment=1",
            "https://scores.example.org/w/abc/SECRETTOKEN/",
            '"GET /w/abc/-/ HTTP/1.1"',
        ),
        ("/api/v1/sheets/abc/events/", "seat=SECRETTOKEN", "-", '"GET /api/v1/sheets/abc/events/ HTTP/1.1"'),
        ("/p/abc/1/SECRETTOKEN/", "", "https://scores.example.org/p/abc/1/SECRETTOKEN/", '"GET /p/abc/1/-/ HTTP/1.1"'),
    ],
)
def test_the_asgi_access_log_has_no_tokens(caplog, path, query, referer, shown):
    line = asgi_access_line(caplog, path, query, {"Referer": referer, "User-Agent": "phone"})
    assert shown in line
    assert "SECRETTOKEN" not in line
    assert " 200 1234 " in line


def test_the_asgi_access_log_names_the_address_the_limits_count(caplog, monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    line = asgi_access_line(caplog, "/", "", {"X-Forwarded-For": "6.6.6.6, 203.0.113.7"})
    assert line.startswith("203.0.113.7 ")


def test_it_keeps_tokens_out_of_djangos_own_error_lines(capsys):
    import logging
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    logging.getLogger("django.request").error("Internal Server Error: %s", "/w/abc/SECRETTOKEN/?edit=OTHERSECRET")
    logging.getLogger("django.request").error("Internal Server Error: %s", "/p/abc/2/SEATSECRET/")
    err = capsys.readouterr().err
    assert "Internal Server Error: /w/abc/-/" in err and "Internal Server Error: /p/abc/2/-/" in err
    assert "SECRET" not in err


def test_it_keeps_tokens_out_of_the_development_servers_request_lines(capsys):
    import logging
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    logging.getLogger("django.server").warning('"%s" %s %s', "GET /w/abc/SECRETTOKEN/?fragment=1 HTTP/1.1", 304, 0)
    err = capsys.readouterr().err
    assert '"GET /w/abc/-/ HTTP/1.1" 304' in err
    assert "SECRET" not in err
