"""Sign-up on a phone: the code typed in the same browser, the sheet added once asked, then in the history."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from scoring.models import Sheet

from .conftest import new_sheet, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_claims_the_sheet_and_shows_it_in_the_history(phone, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    page = phone
    sheet_id = new_sheet(page, "numx-malus", ["Léa", "Tom"])
    expect(page.locator(".banner")).to_contain_text("Scores conservés 48 heures")
    page.locator(".banner a").click()
    page.wait_for_load_state()
    page.get_by_role("link", name=re.compile("enregistrer", re.I)).first.click()
    page.wait_for_load_state()
    shot(page, "signup")
    page.locator("input[name=email]").fill("lea@example.org")
    page.locator("input[name=password1]").fill("une phrase assez longue")
    page.locator("input[name=password2]").fill("une phrase assez longue")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()
    shot(page, "signup-code")
    assert len(mail.outbox) == 1
    code = re.search(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4}|[A-Z0-9]{6})\s*$", mail.outbox[0].body, flags=re.M).group(1)
    page.locator("input[name=code]").fill(code)
    page.get_by_role("button", name="Confirmer").click()
    page.wait_for_load_state()
    # Logged in: the phone's sheet goes into the account only once the person says so.
    expect(page.locator("h1")).to_contain_text("Ajouter cette feuille à votre compte ?")
    assert Sheet.objects.get(pk=sheet_id).user is None
    shot(page, "claim")
    page.get_by_role("button", name="Oui, l'ajouter").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_contain_text("1 feuille ajoutée à votre compte.")
    sheet = Sheet.objects.get(pk=sheet_id)
    assert sheet.user is not None and sheet.user.email == "lea@example.org"
    assert sheet.expires_at is None
    page.goto("/me/")
    shot(page, "history")
    expect(page.locator("ul.history")).to_contain_text("Léa")
    page.goto(f"/sheets/{sheet_id}/")
    expect(page.locator(".banner")).to_have_count(0)
