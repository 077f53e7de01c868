"""One phone, two people (issue 23, item 2): after a logout or an account deletion nothing of the
first person stays readable on the phone, and their rounds waiting for the network are sent
first or discarded knowingly, never under the next person's session. Each story runs on ONE
browser context (one profile: the same localStorage, IndexedDB and service worker)."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scoring.models import IdempotentRequest, Round, Sheet
from tests.e2e.conftest import module, new_sheet, shot, submit, wait_until
from tests.e2e.test_offline_app import ENGINE_TIMEOUT_MS, PAGE_KEPT, RUNTIME_KEPT, engine_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "une phrase assez longue"
LEA = ["Léa", "Tomasz"]  # the first person's table: names nobody else typed

# Everything the page's origin keeps in localStorage and IndexedDB's outbox, as text.
STORED = """async () => {
  const outbox = await new Promise((resolve) => {
    const req = indexedDB.open("num-outbox", 1);
    req.onupgradeneeded = () => req.result.createObjectStore("outbox", { keyPath: "key" });
    req.onsuccess = () => {
      const get = req.result.transaction("outbox").objectStore("outbox").getAll();
      get.onsuccess = () => { req.result.close(); resolve(get.result); };
    };
  });
  return JSON.stringify({ local: { ...localStorage }, outbox });
}"""
# Every page the service worker keeps, as text.
PAGES_TEXT = """async () => {
  let out = "";
  for (const name of (await caches.keys()).filter((n) => n.startsWith("num-pages-"))) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) out += (await (await cache.match(request)).text());
  }
  return out;
}"""


@pytest.fixture
def people(db):
    """Léa and Sacha, each with a checked email."""
    made = {}
    for email in ("lea@example.org", "sacha@example.org"):
        user = get_user_model().objects.create_user(email.split("@")[0], email, PASSWORD)
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        made[email.split("@")[0]] = user
    return made


def log_in(page, email: str):
    # Often a test's first page: a busy machine can take longer than the default to answer it.
    page.goto("/accounts/login/", wait_until="domcontentloaded", timeout=30000)
    page.locator("input[name=login]").fill(email)
    page.locator("input[name=password]").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").first.click()
    expect(page.get_by_role("link", name="Déconnexion")).to_be_visible()


def log_out(page):
    """Log out from the page's own form (the script lets it go only when no round waits)."""
    with page.expect_navigation(url="**/"):
        page.get_by_role("button", name="Se déconnecter").click()
    expect(page.get_by_role("link", name="Connexion")).to_be_visible()


def rounds_unavailable(page, sheet_id: str):
    """Make the server unable to take this sheet's rounds (503 to a POST); return the route's handler, to unroute it."""

    def unavailable(route):
        if route.request.method == "POST":
            route.fulfill(status=503, content_type="application/json", body='{"detail": "busy"}')
        else:
            route.continue_()

    page.route(f"**/api/v1/sheets/{sheet_id}/rounds/", unavailable)
    return unavailable


def save_round_that_waits(page, sheet_id: str):
    """Save a round while the server cannot take it (503 on this sheet's rounds): it waits in the outbox."""
    unavailable = rounds_unavailable(page, sheet_id)
    page.locator("#points-0").fill("12")
    page.locator("#points-1").fill("5")
    submit(page, page.locator("#save-round"))
    expect(page.locator("tr.pending")).to_have_count(1)
    return unavailable


def posts_to(page, sheet_id: str) -> list[str]:
    """Record every round sent to this sheet from now on, whatever the page."""
    seen = []
    page.context.on(
        "request",
        lambda r: seen.append(r.url) if r.method == "POST" and f"/sheets/{sheet_id}/rounds/" in r.url else None,
    )
    return seen


def sacha_opens_his_own_sheet(page) -> str:
    """Sacha logs in on the same phone and opens a sheet: the page sends what waits for him (nothing of Léa's)."""
    log_in(page, "sacha@example.org")
    sheet_id = new_sheet(page, "numx", ["Sacha", "Noé"])
    page.reload()  # a sheet page sends the outbox when it opens: once more, then wait until it is done
    page.evaluate(f"async () => {{ const {{ NumTable }} = {module('table')}; await NumTable.flushNow(); }}")
    page.wait_for_function(f"async () => !{module('table')}.NumTable.writing()")
    return sheet_id


def test_after_a_logout_the_next_person_finds_none_of_the_first_ones_names_or_drafts(new_phone, people):
    page = new_phone()
    log_in(page, "lea@example.org")
    sheet_id = new_sheet(page, "numx", LEA)
    page.locator("#points-0").fill("17")  # a draft of round 1, kept on the phone as it is typed
    expect(page.locator("#draft-state")).to_have_text("Saisie gardée sur ce téléphone")
    assert "Tomasz" in page.evaluate(STORED)
    page.goto("/accounts/logout/")
    shot(page, "shared-phone-logout")
    log_out(page)
    # Nothing of Léa's is left in the phone's storage: names, the draft.
    assert "Tomasz" not in page.evaluate(STORED) and "17" not in page.evaluate(STORED)

    # Sacha, on the same phone: an empty new-sheet form, logged in or not.
    for who in ("anonymous", "sacha"):
        if who == "sacha":
            log_in(page, "sacha@example.org")
        page.goto("/new/numx/")
        expect(page.locator("#player-0")).to_have_value("")
        expect(page.locator("#player-1")).to_have_value("")
        assert page.locator("#known-names option[value='Tomasz']").count() == 0
    # The names he types are his, on the next form, not anyone else's.
    new_sheet(page, "numx", ["Sacha", "Noé"])
    page.goto("/new/numx/")
    expect(page.locator("#player-0")).to_have_value("Sacha")
    expect(page.locator("#round-form")).to_have_count(0)
    assert Sheet.objects.get(pk=sheet_id).user == people["lea"]


def test_a_waiting_round_is_sent_before_the_logout_when_the_person_asks(new_phone, people):
    page = new_phone()
    log_in(page, "lea@example.org")
    leas = new_sheet(page, "numx", LEA)
    unavailable = save_round_that_waits(page, leas)

    page.goto("/accounts/logout/")
    warning = page.locator("#pending-rounds")
    expect(warning).to_contain_text("1 manche enregistrée sans réseau n'est pas encore sur le serveur")
    expect(warning).to_contain_text("Manche 1 — Léa, Tomasz : en attente de réseau")
    for width in (320, 360, 390):
        page.set_viewport_size({"width": width, "height": 740})
        shot(page, f"shared-phone-logout-warning-{width}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The server still cannot take it: it still waits, and the logout waits too.
    page.get_by_role("button", name="Les envoyer maintenant").click()
    expect(page.locator("#pending-state")).to_contain_text("elles attendent encore")
    page.get_by_role("button", name="Se déconnecter").click()
    expect(page.locator("#pending-state")).to_have_text("Envoyez ou abandonnez d'abord les manches en attente.")
    assert Round.objects.filter(sheet_id=leas).count() == 0
    page.unroute(f"**/api/v1/sheets/{leas}/rounds/", unavailable)
    page.get_by_role("button", name="Les envoyer maintenant").click()
    expect(page.locator("#pending-state")).to_have_text("✓ Tout est envoyé : vous pouvez continuer.")
    # Sent under Léa's session, to her sheet.
    assert list(Round.objects.filter(sheet_id=leas).values_list("number", "data")) == [
        (1, {"entries": {"Léa": {"points": 12}, "Tomasz": {"points": 5}}})
    ]
    log_out(page)

    sent = posts_to(page, leas)
    sacha_opens_his_own_sheet(page)
    assert sent == []
    assert Round.objects.filter(sheet_id=leas).count() == 1
    assert IdempotentRequest.objects.filter(sheet_id=leas).count() == 1


def test_the_logout_page_names_a_coop_sessions_waiting_games_with_its_own_word(new_phone, people):
    page = new_phone()
    log_in(page, "lea@example.org")
    sheet_id = new_sheet(page, "coop", ["Léa", "Tomasz"], options={"mode": "cooperatif"})
    rounds_unavailable(page, sheet_id)
    for placed in ("70", "81"):
        page.locator("#placed").fill(placed)
        submit(page, page.locator("#save-round"))
    expect(page.locator("tr.pending")).to_have_count(2)
    expect(page.locator("#outbox-note")).to_contain_text("2 parties en attente de réseau")

    page.goto("/accounts/logout/")
    warning = page.locator("#pending-rounds")
    expect(warning).to_contain_text("2 parties enregistrées sans réseau ne sont pas encore sur le serveur")
    # Each game is named with the table's players (the sheet's, kept with the round).
    expect(warning.locator("li")).to_have_text(
        ["Partie 1 — Léa, Tomasz : en attente de réseau", "Partie 2 — Léa, Tomasz : en attente de réseau"]
    )
    page.get_by_role("button", name="Se déconnecter").click()
    expect(page.locator("#pending-state")).to_have_text("Envoyez ou abandonnez d'abord les parties en attente.")
    page.get_by_role("button", name="Les abandonner (effacées de ce téléphone)").click()
    expect(page.locator("#pending-state")).to_have_text("Parties abandonnées : elles ont été effacées de ce téléphone.")
    assert Round.objects.filter(sheet_id=sheet_id).count() == 0


def test_a_waiting_round_discarded_knowingly_is_never_sent_under_the_next_persons_session(new_phone, people):
    page = new_phone()
    log_in(page, "lea@example.org")
    leas = new_sheet(page, "numx", LEA)
    save_round_that_waits(page, leas)  # the server stays unable to take it: the route stays

    page.goto("/accounts/logout/")
    expect(page.locator("#pending-rounds")).to_be_visible()
    page.get_by_role("button", name="Les abandonner (effacées de ce téléphone)").click()
    expect(page.locator("#pending-state")).to_have_text("Manches abandonnées : elles ont été effacées de ce téléphone.")
    log_out(page)
    assert "Tomasz" not in page.evaluate(STORED)

    sent = posts_to(page, leas)  # from now on, any round sent to Léa's sheet would be under someone else's session
    sacha_opens_his_own_sheet(page)
    assert sent == []
    assert Round.objects.filter(sheet_id=leas).count() == 0
    assert not IdempotentRequest.objects.filter(sheet_id=leas).exists()


def test_a_round_left_by_a_session_that_ended_without_logout_is_not_sent_under_the_next_account(new_phone, people):
    # Léa's session ends without the logout page (cookies cleared, session expired): her round
    # stays on the phone, tagged as hers, and Sacha's pages neither show nor send it.
    page = new_phone()
    log_in(page, "lea@example.org")
    leas = new_sheet(page, "numx", LEA)
    unavailable = save_round_that_waits(page, leas)
    page.goto("/")  # her sheet's page (and its retries) left behind
    page.context.clear_cookies()
    sent = posts_to(page, leas)

    sacha_opens_his_own_sheet(page)
    expect(page.locator("tr.pending")).to_have_count(0)
    assert sent == []
    assert Round.objects.filter(sheet_id=leas).count() == 0
    # Léa back on the phone: her round is sent to her sheet.
    page.unroute(f"**/api/v1/sheets/{leas}/rounds/", unavailable)
    page.context.clear_cookies()
    log_in(page, "lea@example.org")
    page.goto(f"/sheets/{leas}/")
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(page.locator("table.scores tbody tr:has(details.cell)")).to_have_count(1)
    assert Round.objects.filter(sheet_id=leas).count() == 1


@pytest.mark.engine
def test_after_an_account_deletion_its_sheets_cannot_be_read_offline(new_phone, people):
    page = new_phone()
    log_in(page, "lea@example.org")
    leas = new_sheet(page, "numx", LEA)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()
    wait_until(page, PAGE_KEPT, [f"/sheets/{leas}/", "Tomasz"])
    page.goto("/")
    wait_until(page, PAGE_KEPT, ["/", "Tomasz"])

    page.goto("/me/delete/")
    page.locator("input[name=confirm]").check()
    with page.expect_navigation(url="**/"):
        page.get_by_role("button", name="Supprimer mon compte").click()
    expect(page.locator(".messages")).to_contain_text("supprimés")
    assert not get_user_model().objects.filter(email="lea@example.org").exists()
    # The home page after the deletion is seen by the service worker (kept or not): then look at what it keeps.
    wait_until(
        page, "() => caches.match('/').then((r) => (r ? r.text() : '')).then((html) => !html.includes('Tomasz'))"
    )
    assert "Tomasz" not in page.evaluate(PAGES_TEXT)
    assert "Tomasz" not in page.evaluate(STORED)

    # Offline, the next person finds neither her sheet nor her home page with its names.
    page.context.set_offline(True)
    for path in (f"/sheets/{leas}/", "/"):
        page.goto(path)
        expect(page.locator("h1")).to_have_text("📵 Pas de réseau")
        expect(page.locator("body")).not_to_contain_text("Tomasz")
    page.context.set_offline(False)


@pytest.mark.engine
def test_after_a_logout_anonymous_play_still_works_offline(new_phone, people):
    page = new_phone()
    log_in(page, "lea@example.org")
    new_sheet(page, "numx", LEA)
    page.goto("/accounts/logout/")
    log_out(page)

    # Someone without an account on the same phone: the sheet opens and takes rounds offline.
    theirs = new_sheet(page, "numx", ["Noé", "Inès"])
    wait_until(page, RUNTIME_KEPT, timeout=ENGINE_TIMEOUT_MS)
    wait_until(page, PAGE_KEPT, [f"/sheets/{theirs}/", "Inès"])
    page.context.set_offline(True)
    response = page.reload()
    assert response.from_service_worker
    assert engine_ready(page) is True  # scored on the phone, as in test_offline_app
    page.locator("#points-0").fill("8")
    page.locator("#points-1").fill("3")
    submit(page, page.locator("#save-round"))
    expect(page.locator("tr.pending")).to_have_count(1)
    response = page.reload()
    assert response.from_service_worker
    expect(page.locator("tr.pending")).to_have_count(1, timeout=20000)
    page.context.set_offline(False)
    expect(page.locator("tr.pending")).to_have_count(0, timeout=15000)
    assert list(Round.objects.filter(sheet_id=theirs).values_list("number", "data")) == [
        (1, {"entries": {"Noé": {"points": 8}, "Inès": {"points": 3}}})
    ]
