"""How long each link's right lasts (docs/security.md, "Who holds which right, and until when").

- a player's entry link (read the sheet, write their own entry): with an anonymous sheet,
  as long as the sheet; once the sheet is in an account, until its game is finished, and
  never longer than 48 hours after the sheet's last change;
- the share link (read): with an anonymous sheet, as long as the sheet; an account's sheet,
  until 30 days after its last change;
- a seat's claim link (an account's sheet only): until 30 days after its last change;
- and the sheet's editor can end them all at once, getting new ones.
"""

import re
from datetime import timedelta

import pytest
from django.test import Client

from scoring import services, tokens
from scoring.models import Sheet
from tests.accounts import verified_user

pytestmark = pytest.mark.django_db
MALUS = {"game": "numx-malus", "players": ["Léa", "Tom"], "options": {"scoring": "competition"}}


def seat_rights(sheet_id: str, seat: int = 1, name: str = "Tom", number: int = 1) -> dict:
    """Try every right of a player's entry link: its page, the API read, and writing their entry."""
    token = tokens.entry_token(sheet_id, seat)
    phone = Client()
    return {
        "page": phone.get(f"/p/{sheet_id}/{seat}/{token}/").status_code,
        "read": phone.get(f"/api/v1/sheets/{sheet_id}/", HTTP_X_SEAT_TOKEN=token).status_code,
        "write": phone.put(
            f"/api/v1/sheets/{sheet_id}/draft/entries/{name}/",
            {"points": 1, "number": number},
            content_type="application/json",
            HTTP_X_SEAT_TOKEN=token,
        ).status_code,
    }


LIVE = {"page": 200, "read": 200, "write": 200}
ENDED = {"page": 404, "read": 404, "write": 404}


def finish(sheet: Sheet) -> None:
    """Play the malus game to its end (30 points)."""
    services.round_add(
        sheet=Sheet.objects.get(pk=sheet.pk), data={"entries": {"Léa": {"points": 30}, "Tom": {"points": 0}}}
    )
    assert Sheet.objects.get(pk=sheet.pk).finished


def age(sheet: Sheet, **delta) -> None:
    """Make the sheet's last change as old as `delta` (its expiry follows, as a change would have set it)."""
    then = Sheet.objects.get(pk=sheet.pk).updated_at - timedelta(**delta)
    kept = Sheet.objects.get(pk=sheet.pk).expires_at
    Sheet.objects.filter(pk=sheet.pk).update(updated_at=then, expires_at=kept and kept - timedelta(**delta))


def test_it_ends_a_players_entry_link_once_the_sheet_is_in_an_account_and_its_game_finished():
    owner = verified_user("owner@example.org")
    sheet = services.sheet_create(**MALUS).sheet
    assert seat_rights(sheet.pk) == LIVE
    services.sheet_save_to_account(sheet=sheet, user=owner)
    assert seat_rights(sheet.pk) == LIVE  # saved, still played: the table goes on
    finish(sheet)
    assert seat_rights(sheet.pk, number=2) == ENDED
    # The owner still reads and writes it; the share link still reads it.
    sheet = Sheet.objects.get(pk=sheet.pk)
    assert Client().get(f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/").status_code == 200


def test_it_keeps_an_anonymous_sheets_entry_link_as_long_as_the_sheet():
    sheet = services.sheet_create(**MALUS).sheet
    finish(sheet)
    assert seat_rights(sheet.pk, number=2)["page"] == 200  # the final scores, for 48 hours
    age(sheet, hours=49)
    assert seat_rights(sheet.pk, number=2) == ENDED  # the sheet is gone, and its links with it


def test_it_ends_an_unfinished_account_sheets_entry_link_48_hours_after_its_last_change():
    owner = verified_user("owner@example.org")
    sheet = services.sheet_create(**MALUS, user=owner).sheet
    age(sheet, hours=47)
    assert seat_rights(sheet.pk) == LIVE  # a player's entry is a change: 48 hours from now again
    age(sheet, hours=49)
    assert seat_rights(sheet.pk) == ENDED
    # The owner plays a round: the table is back, and so are its players' links.
    services.round_add(
        sheet=Sheet.objects.get(pk=sheet.pk), data={"entries": {"Léa": {"points": 1}, "Tom": {"points": 2}}}
    )
    assert seat_rights(sheet.pk, number=2) == LIVE


def test_it_ends_an_account_sheets_share_and_claim_links_30_days_after_its_last_change():
    owner = verified_user("owner@example.org")
    sheet = services.sheet_create(**MALUS, user=owner).sheet
    finish(sheet)
    share = f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/"
    claim = f"/seat/{sheet.pk}/1/{tokens.claim_token(sheet.pk, 1)}/"
    read = {"HTTP_X_SHARE_TOKEN": tokens.read_token(sheet.pk)}
    age(sheet, days=29)
    assert Client().get(share).status_code == 200
    assert Client().get(f"/api/v1/sheets/{sheet.pk}/", **read).status_code == 200
    assert Client().get(claim).status_code == 200
    age(sheet, days=2)
    assert Client().get(share).status_code == 404
    assert Client().get(f"/api/v1/sheets/{sheet.pk}/", **read).status_code == 404
    assert Client().get(claim).status_code == 404
    # The owner keeps the sheet.
    browser = Client()
    browser.force_login(owner)
    assert browser.get(f"/sheets/{sheet.pk}/").status_code == 200


def test_the_sheets_editor_ends_every_link_at_once_and_gets_new_ones():
    owner = verified_user("owner@example.org")
    sheet = services.sheet_create(**MALUS, user=owner).sheet
    old = {
        "share": f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/",
        "entry": f"/p/{sheet.pk}/1/{tokens.entry_token(sheet.pk, 1)}/",
        "claim": f"/seat/{sheet.pk}/1/{tokens.claim_token(sheet.pk, 1)}/",
    }
    assert {name: Client().get(url).status_code for name, url in old.items()} == dict.fromkeys(old, 200)
    # Only the sheet's editor may: a watcher, a player or a stranger gets the plain 404.
    for outsider in (Client(), Client(HTTP_X_SHARE_TOKEN=tokens.read_token(sheet.pk))):
        assert outsider.post(f"/sheets/{sheet.pk}/links/").status_code == 404
    owners_phone = Client()
    owners_phone.force_login(owner)
    r = owners_phone.post(f"/sheets/{sheet.pk}/links/", follow=True)
    assert "Nouveaux liens : les anciens n'ouvrent plus cette feuille." in r.content.decode().replace("&#x27;", "'")
    assert {name: Client().get(url).status_code for name, url in old.items()} == dict.fromkeys(old, 404)
    assert seat_rights(sheet.pk) == ENDED
    # The page gives the new links, and they work.
    page = owners_phone.get(f"/sheets/{sheet.pk}/").content.decode()
    new = {
        "share": re.search(r'value="http://testserver(/w/[^"]+)"', page)[1],
        "entry": re.search(r'value="http://testserver(/p/[^"]+/1/[^"]+)"', page)[1],
        "claim": re.search(r'value="http://testserver(/seat/[^"]+/1/[^"]+)"', page)[1],
    }
    assert all(new[name] != old[name] for name in old)
    assert {name: Client().get(url).status_code for name, url in new.items()} == dict.fromkeys(new, 200)
    token = new["entry"].rstrip("/").rsplit("/", 1)[1]
    r = Client().get(f"/api/v1/sheets/{sheet.pk}/", HTTP_X_SEAT_TOKEN=token)
    assert r.status_code == 200
    assert owners_phone.get(f"/api/v1/sheets/{sheet.pk}/").json()["share_url"].endswith(new["share"])


def test_an_anonymous_sheets_creator_renews_its_links_too():
    browser = Client()
    r = browser.post("/new/numx-malus/", {"player": ["Léa", "Tom"], "opt-scoring": "competition"})
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    share = f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/"
    assert browser.post(f"/sheets/{sheet.pk}/links/").status_code == 302
    assert Client().get(share).status_code == 404
    assert seat_rights(sheet.pk) == ENDED
    assert Sheet.objects.get(pk=sheet.pk).version == sheet.version  # the scores did not change
