"""Server-rendered pages: what a player sees, in French and English."""

import json
import re
from pathlib import Path

import pytest
from django.db.models import F
from django.test import Client

from scoring.models import Round, Sheet
from tests.web.sheets import start

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_it_lists_the_games_in_french_then_english(client):
    r = client.get("/")
    page = r.content.decode()
    assert r.status_code == 200
    assert "Comptez les points" in page
    for slug in ("numx", "numx-malus", "numwin", "numking", "coop"):
        assert f"/new/{slug}/" in page
    en = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Keep the score of your Num games" in en


def test_it_switches_language_with_the_header_button(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Keep the score" in client.get("/").content.decode()


def test_it_refuses_one_player_with_a_french_message_and_stores_nothing(client):
    r = client.post("/new/numking/", {"player": ["Solo", ""]})
    assert r.status_code == 400
    page = r.content.decode()
    assert 'role="alert"' in page and "joueur" in page.lower()
    assert Sheet.objects.count() == 0


def test_it_plays_a_num_win_round_with_a_failed_declaration(client):
    sheet = start(client, "numwin", ["Elya", "Sasha"])
    hand_e = json.dumps([{"kind": "blue", "value": 9}])
    hand_s = json.dumps([{"kind": "red", "value": 2}])
    r = client.post(
        f"/sheets/{sheet.pk}/rounds/", {"cards-0": hand_e, "cards-1": hand_s, "declarer": "0", "version": sheet.version}
    )
    assert r.status_code == 302
    sheet.refresh_from_db()
    totals = {p.name: p.total for p in sheet.seats.all()}
    assert totals == {"Elya": 29, "Sasha": 2}
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert ">29<" in page


def test_it_shows_a_refused_round_with_the_cards_kept_and_nothing_stored(client):
    sheet = start(client, "numx", ["Elya", "Sasha"])
    same = json.dumps([{"kind": "blue", "value": 7}])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": same, "cards-1": same})
    assert r.status_code == 400
    page = r.content.decode()
    assert 'role="alert"' in page and "7" in page
    assert "&quot;blue&quot;" in page  # the picked cards come back in the form
    assert Round.objects.count() == 0


def test_it_refuses_typed_text_for_points_by_name(client):
    sheet = start(client, "numx-malus", ["Elya", "Sasha"])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "douze", "points-1": "3"})
    assert r.status_code == 400
    assert "douze" in r.content.decode() and "Elya" in r.content.decode()
    assert Round.objects.count() == 0
    # The round comes back as typed, so only the wrong value needs retyping.
    assert re.search(r'name="points-0" id="points-0" value="douze"', r.content.decode())
    assert re.search(r'name="points-1" id="points-1" value="3"', r.content.decode())
    # Editing a round: the refused values come back, not the stored ones.
    client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "1", "points-1": "2"})
    r = client.post(f"/sheets/{sheet.pk}/rounds/1/edit/", {"points-0": "onze", "points-1": "9"})
    assert r.status_code == 400
    assert re.search(r'name="points-1" id="points-1" value="9"', r.content.decode())
    assert [rd.data for rd in Round.objects.all()] == [{"entries": {"Elya": {"points": 1}, "Sasha": {"points": 2}}}]


def test_it_plays_coop_and_shows_the_summary(client):
    sheet = start(client, "coop", ["A", "B", "C"])
    client.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "", "won": "1", "deck": "96"})
    client.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "71", "deck": "96"})
    assert Round.objects.filter(sheet=sheet).count() == 2
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "1 gagnée sur 2 parties" in page
    assert "39,5" in page or "39.5" in page


def test_it_edits_and_undoes_rounds_from_the_page(client):
    sheet = start(client, "numking", ["A", "B"])
    client.post(
        f"/sheets/{sheet.pk}/rounds/", {"bid-0": "1", "tricks-0": "1", "bid-1": "0", "tricks-1": "0", "cards": "1"}
    )
    client.post(
        f"/sheets/{sheet.pk}/rounds/", {"bid-0": "2", "tricks-0": "2", "bid-1": "0", "tricks-1": "0", "cards": "2"}
    )
    sheet.refresh_from_db()
    assert sheet.round_count == 2
    r = client.post(
        f"/sheets/{sheet.pk}/rounds/1/edit/",
        {"bid-0": "1", "tricks-0": "0", "bid-1": "0", "tricks-1": "1", "cards": "1"},
    )
    assert r.status_code == 302
    assert {p.name: p.total for p in sheet.seats.all()} == {"A": -3 + 16, "B": -15 + 24}
    client.post(f"/sheets/{sheet.pk}/undo/")
    assert {p.name: p.total for p in sheet.seats.all()} == {"A": -3, "B": -15}


def test_it_hides_the_sheet_from_other_browsers_and_shows_it_read_only_by_share_link(client):
    sheet = start(client, "numx", ["A", "B"])
    other = Client()
    assert other.get(f"/sheets/{sheet.pk}/").status_code == 404
    assert other.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "1", "points-1": "2"}).status_code == 404
    assert other.post(f"/sheets/{sheet.pk}/undo/").status_code == 404
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    share = re.search(r'class="share-url" readonly value="([^"]+)"', page).group(1)
    path = share.split("testserver", 1)[1]
    watch = other.get(path)
    assert watch.status_code == 200
    assert 'id="round-form"' not in watch.content.decode()
    assert other.get(path.replace("/w/", "/w/").rstrip("/")[:-3] + "xyz/").status_code == 404
    assert other.get(path, HTTP_IF_NONE_MATCH=watch["ETag"]).status_code == 304
    assert Round.objects.count() == 0


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (8, 18)])
def test_it_renders_the_sheet_page_in_a_fixed_number_of_queries(client, django_assert_max_num_queries, players, rounds):
    names = [f"P{i}" for i in range(players)]
    sheet = start(client, "numx-malus", names, end="fixed" if rounds <= 5 else "threshold")
    data = {"entries": {n: {"points": 0} for n in names}}
    Round.objects.bulk_create(Round(sheet=sheet, number=k, data=data) for k in range(1, rounds + 1))
    Sheet.objects.filter(pk=sheet.pk).update(version=F("version") + 1)  # as every write does
    with django_assert_max_num_queries(5):  # session, sheet, rounds (+ savepoints)
        r = client.get(f"/sheets/{sheet.pk}/")
    assert r.status_code == 200


def test_it_sends_the_security_headers(client):
    r = client.get("/")
    csp = r["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert r["X-Frame-Options"] == "DENY"
    assert r["X-Content-Type-Options"] == "nosniff"
    assert r["Referrer-Policy"] == "same-origin"
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400


def test_it_reports_health(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"ok": True}
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"database": "ok", "broker": "ok", "cache": "ok", "ok": True}


def test_it_serves_a_valid_schema_and_the_docs_without_a_cdn(client):
    r = client.get("/api/v1/schema/?format=json")
    assert r.status_code == 200
    schema = json.loads(r.content)
    assert "/api/v1/games/numx/score/" in schema["paths"]
    docs = client.get("/api/v1/docs/").content.decode()
    assert "swagger" in docs.lower() and "cdn" not in docs.lower() and "//unpkg" not in docs


def test_it_has_every_french_string_translated():
    po = (ROOT / "locale/fr/LC_MESSAGES/django.po").read_text()
    untranslated = []
    for block in po.split("\n\n")[1:]:
        if "#, fuzzy" in block:
            untranslated.append(block)
        strs = re.findall(r'^msgstr(?:\[\d\])? "(.*)"\n?((?:".*"\n?)*)', block, flags=re.M)
        if any(first == "" and not rest.strip() for first, rest in strs):
            untranslated.append(block)
    assert untranslated == []


def rates(monkeypatch, **scopes):
    """Set the throttle rates of these scopes (the pages and the API read the same ones)."""
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, **scopes})


def test_it_limits_sheet_creation_from_the_page(client, monkeypatch):
    rates(monkeypatch, sheet_create="2/min")
    for _ in range(2):
        assert client.post("/new/coop/", {"player": ["A", "B"]}).status_code == 302
    r = client.post("/new/coop/", {"player": ["A", "B"]})
    assert r.status_code == 429
    assert "Trop de tentatives" in r.content.decode()
    assert 1 <= int(r["Retry-After"]) <= 60
    assert Sheet.objects.count() == 2


def test_it_limits_the_admin_login(client, monkeypatch):
    rates(monkeypatch, admin_login="3/5m")
    codes = [client.post("/admin/login/", {"username": "x", "password": "y"}).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


def test_it_shows_hostile_names_as_text_everywhere(client):
    names = ["<script>alert(1)</script>", "עִברִית 🎲"]
    sheet = start(client, "numx-malus", names)
    client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "3", "points-1": "4"})
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "עִברִית 🎲" in page
    api = client.get(f"/api/v1/sheets/{sheet.pk}/").json()
    assert api["players"] == names


def test_it_plays_a_num_win_tie_break_with_only_the_tied_players(client):
    sheet = start(client, "numwin", ["Elya", "Sasha", "Mendy"], rounds="1")
    client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "5", "points-1": "5", "points-2": "9"})
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Manche de départage" in page
    assert 'name="points-2"' not in page  # Mendy is not in the tie-break
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "3", "points-1": "8"})
    assert r.status_code == 302
    sheet.refresh_from_db()
    assert sheet.finished
    assert {p.name for p in sheet.seats.all() if p.winner} == {"Elya"}
    # Tie-break points decide, they do not add to the totals.
    assert {p.name: p.total for p in sheet.seats.all()} == {"Elya": 5, "Sasha": 5, "Mendy": 9}


def test_it_validates_the_openapi_schema(tmp_path):
    from django.core.management import call_command

    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert "/api/v1/sheets/{sheet_id}/rounds/" in out.read_text()


def test_it_uses_production_security_settings_when_debug_is_off():
    import subprocess
    import sys

    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY, s.SESSION_COOKIE_SAMESITE, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_SSL_REDIRECT)"
    )
    env = {"DEBUG": "0", "SECRET_KEY": "x" * 50, "DJANGO_SETTINGS_MODULE": "numapp.settings", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "True", "Lax", "31536000", "True"]
    refused = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env={**env, "SECRET_KEY": ""},
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0 and "SECRET_KEY must be set" in refused.stderr


def test_it_offers_the_mode_default_for_short_rules_scoring(client):
    page = client.get("/new/numx-malus/").content.decode()
    assert re.search(r'name="opt-scoring" value="" checked', page)
    sheet = start(client, "numx-malus", ["A", "B"], mode="speedgame", scoring="")
    assert sheet.options["scoring"] == "competition"


def test_it_scores_num_x_teams_on_the_union_of_their_cards(client):
    r = client.post(
        "/new/numx/",
        {
            "player": ["A", "B", "C", "D"],
            "team-0": "Équipe A",
            "team-1": "Équipe A",
            "team-2": "Équipe B",
            "team-3": "Équipe B",
        },
    )
    assert r.status_code == 302
    sheet = Sheet.objects.get()
    assert sheet.options["teams"] == {"Équipe A": ["A", "B"], "Équipe B": ["C", "D"]}

    def hand(kind, value):
        return json.dumps([{"kind": kind, "value": value}])

    client.post(
        f"/sheets/{sheet.pk}/rounds/",
        {
            "cards-0": hand("red", 7),
            "cards-1": hand("rainbow", 7),
            "cards-2": hand("blue", 9),
            "cards-3": hand("red", 9),
        },
    )
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    # 7🔴 (A) + 7🌈 (B) together: the rainbow adds → 14; 9🔵 + 9🔴 together: a pair → 0.
    # The teams' own table: each team's total, the winning team highlighted.
    heads = re.findall(
        r'<th scope="col" class="(lead)?"><span class="dot p\d"></span>([^<]+)<small class="members">([^<]+)<', page
    )
    assert [(h[1], h[2]) for h in heads] == [("Équipe A", "A, B"), ("Équipe B", "C, D")]
    totals = re.search(r'<tr class="team-total-row">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r'<td class="(lead)?">([^<]+)</td>', totals) == [("lead", "14 🏆"), ("", "0")]
    assert "Gagnant : Équipe A" in page


def _share_path(client, sheet) -> str:
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    return re.search(r'class="share-url" readonly value="([^"]+)"', page).group(1).split("testserver", 1)[1]


def test_it_shows_every_watcher_the_same_share_page_until_the_sheet_changes(client, django_user_model):
    import gzip

    sheet = start(client, "numx", ["Ana", "Bea"])
    path = _share_path(client, sheet)
    first, second = Client(), Client()
    plain = first.get(path)
    zipped = second.get(path, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
    # The same page for everyone, but for the CSRF token of each visitor's language switch.
    assert CSRF_INPUT.sub("", gzip.decompress(zipped.content).decode()) == CSRF_INPUT.sub("", plain.content.decode())
    assert CSRF_INPUT.search(plain.content.decode())
    english = Client().get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert "This page updates by itself." in english.content.decode()
    assert english["ETag"] != plain["ETag"]  # a browser's French copy is not current in English
    fragment = f"{path}?fragment=1"
    assert first.get(fragment, HTTP_IF_NONE_MATCH=plain["ETag"]).status_code == 304

    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "7", "points-1": "3"})
    assert r.status_code == 302
    after = first.get(path)
    assert after["ETag"] != plain["ETag"]
    assert ">7<" in after.content.decode() and ">7<" not in plain.content.decode()

    # A logged-in watcher sees their own header, not the anonymous page.
    user = django_user_model.objects.create_user("watcher", "w@example.org", "pw-long-enough-1")
    logged = Client()
    logged.force_login(user)
    assert "/accounts/logout/" in logged.get(path).content.decode()
    assert "/accounts/logout/" not in Client().get(path).content.decode()


CSRF_INPUT = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)">')


def language_token(page: str) -> str:
    """Return the CSRF token of the header's language switch in `page`."""
    form = re.search(r'<form action="/i18n/setlang/" method="post" class="lang">(.*?)</form>', page, re.S).group(1)
    return CSRF_INPUT.search(form).group(1)


def test_it_switches_language_only_from_its_own_pages():
    client = Client(enforce_csrf_checks=True)  # as a browser: Django's CSRF check runs
    token = language_token(client.get("/").content.decode())
    asked = {"language": "en", "next": "/", "csrfmiddlewaretoken": token}
    r = client.post("/i18n/setlang/", asked, HTTP_ORIGIN="https://evil.example")
    assert r.status_code == 403
    assert "Comptez les points" in client.get("/").content.decode()
    r = client.post("/i18n/setlang/", asked, HTTP_ORIGIN="http://testserver")
    assert r.status_code == 302
    assert "Keep the score" in client.get("/").content.decode()
    assert client.get("/i18n/setlang/").status_code == 405


def test_it_refuses_the_language_switch_without_its_csrf_token_and_follows_next_with_it():
    client = Client(enforce_csrf_checks=True)
    page = client.get("/rules/numking/").content.decode()
    r = client.post("/i18n/setlang/", {"language": "en", "next": "/rules/numking/"})
    assert r.status_code == 403
    assert "django_language" not in r.cookies
    assert "Comptez les points" in client.get("/").content.decode()
    r = client.post(
        "/i18n/setlang/", {"language": "en", "next": "/rules/numking/", "csrfmiddlewaretoken": language_token(page)}
    )
    assert r.status_code == 302 and r.url == "/rules/numking/"
    assert r.cookies["django_language"].value == "en"
    assert "Keep the score" in client.get("/").content.decode()


@pytest.mark.django_db(transaction=True)  # pages are answered after their transaction, as in production
def test_it_switches_language_from_a_share_link_opened_by_anyone(client):
    sheet = start(client, "numx", ["Ana", "Bea"])
    path = _share_path(client, sheet)
    for _ in range(2):  # each with a token of their own
        watcher = Client(enforce_csrf_checks=True)  # no session, no cookie: someone who was sent the link
        page = watcher.get(path).content.decode()
        assert "Ana" in page
        asked = {"language": "en", "next": path, "csrfmiddlewaretoken": language_token(page)}
        r = watcher.post("/i18n/setlang/", asked)
        assert r.status_code == 302 and r.url == path
        assert "This page updates by itself." in watcher.get(path).content.decode()


def test_it_ignores_team_choices_left_behind_an_unticked_play_in_teams_box(client):
    form = {"player": ["A", "B", "C", "D"], "teams-asked": "1", "team-0": "Équipe A", "team-1": "Équipe A"}
    r = client.post("/new/numx/", {**form, "team-2": "Équipe B", "team-3": "Équipe B"})
    assert r.status_code == 302
    assert Sheet.objects.get().options["teams"] is None
    r = client.post("/new/numx/", {**form, "team-2": "Équipe B", "team-3": "Équipe B", "play-teams": "on"})
    assert r.status_code == 302
    assert Sheet.objects.latest("created_at").options["teams"] == {"Équipe A": ["A", "B"], "Équipe B": ["C", "D"]}
