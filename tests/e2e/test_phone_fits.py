"""A phone that fits: no page scrolls sideways at 320, 360 or 390 px, in French and English.

Every page a browser without an account can open is opened once on a phone with long
names and eight players, then looked at 320, 360 and 390 px wide (the window resized); the
document may not be wider than the window (the logged-in pages: test_every_screen.py). Screenshots at 360 px land in var/screenshots/fit-*.png.
"""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from playwright.sync_api import expect

from accounts.models import Profile
from accounts.services import standings_recount
from scoring import access, services, tokens
from scoring.models import Player

from .conftest import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Charlotte de La Rochefoucauld-Lisa"  # 40 characters
assert len(LONG) == 40
EIGHT = [LONG, "Léa", "Tom", "Hugo", "Anne-Sophie Beauregard", "Marc", "Zoé", "Jean-Baptiste Delacroix"]
SLUGS = ("numx", "numx-malus", "numwin", "numking", "coop")

OVERFLOW = """() => {
  const w = window.innerWidth, doc = document.documentElement;
  if (doc.scrollWidth <= w) return null;
  // Name the widest culprits: the elements whose right edge passes the window.
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 0.5 && r.width > 0) {
      let inScroller = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden') { inScroller = true; break; }
        if (s.position === 'fixed') { inScroller = true; break; }
      }
      if (!inScroller) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
        ' right=' + Math.round(r.right));
    }
  }
  return doc.scrollWidth + ' > ' + w + ': ' + out.slice(0, 6).join(', ');
}"""


def _cards(*pairs):
    return {"cards": [{"kind": k, "value": v} for k, v in pairs]}


def _play(sheet, datas):
    for data in datas:
        services.round_add(sheet=sheet, data=data)
    sheet.refresh_from_db()
    return sheet


def make_sheets(user=None, owner_key=""):
    """Create one sheet of each game with rounds (8 players and a 40-character name where the game allows)."""
    own = {"user": user} if user else {"owner_key": owner_key}
    sheets = {}
    numx = services.sheet_create(game="numx", players=EIGHT, options={"mode": "xgame"}, **own).sheet
    first = {n: {"points": 10 + i} for i, n in enumerate(EIGHT)}
    first[LONG] = _cards(("red", 7), ("blue", 9), ("green", 3), ("yellow", 12))
    sheets["numx"] = _play(numx, [{"entries": first}])
    malus = services.sheet_create(game="numx-malus", players=EIGHT[:5], options={}, **own).sheet
    sheets["numx-malus"] = _play(malus, [{"entries": {n: {"points": 5 + i} for i, n in enumerate(EIGHT[:5])}}])
    win = services.sheet_create(game="numwin", players=EIGHT[:4], options={}, **own).sheet
    sheets["numwin"] = _play(win, [{"entries": {n: {"points": 4 * i} for i, n in enumerate(EIGHT[:4])}}])
    king = services.sheet_create(game="numking", players=EIGHT[:6], options={}, **own).sheet
    sheets["numking"] = _play(
        king,
        [{"entries": {n: {"bid": i % 2, "tricks": 1 if i == 0 else 0} for i, n in enumerate(EIGHT[:6])}}],
    )
    coop = services.sheet_create(game="coop", players=EIGHT[:4], options={}, **own).sheet
    sheets["coop"] = _play(coop, [{"placed": 80}, {"placed": 93}])
    return sheets


def urls_of(sheets):
    """Return (name, url) for every page a browser without an account can open."""
    urls = [("home", "/")]
    urls += [(f"new-{s}", f"/new/{s}/") for s in SLUGS]
    urls += [(f"sheet-{s}", f"/sheets/{sheets[s].pk}/") for s in SLUGS]
    urls += [(f"rules-{s}", f"/rules/{s}/") for s in SLUGS]
    numx = sheets["numx"]
    urls += [
        ("share", f"/w/{numx.pk}/{tokens.read_token(numx.pk)}/"),
        ("seat", f"/p/{numx.pk}/0/{tokens.entry_token(numx.pk, 0)}/"),
        ("seat-king", f"/p/{sheets['numking'].pk}/0/{tokens.entry_token(sheets['numking'].pk, 0)}/"),
        # An account's seat link, opened by someone not logged in yet.
        ("seat-join", f"/seat/{sheets['joinable'].pk}/0/{tokens.claim_token(sheets['joinable'].pk, 0)}/"),
        ("edit", f"/sheets/{numx.pk}/rounds/1/edit/"),
        ("edit-king", f"/sheets/{sheets['numking'].pk}/rounds/1/edit/"),
        ("leaderboard", "/leaderboards/numx/"),
        ("leaderboard-king", "/leaderboards/numking/"),
        ("404", "/nowhere/"),
        ("my-sheets", "/sheets/"),
        ("login", "/accounts/login/"),
        ("signup", "/accounts/signup/"),
    ]
    return urls


@pytest.fixture
def site(live_server):
    """Return the sheets of a browser without an account, and its session cookie."""
    user = get_user_model().objects.create_user("lea", "lea@example.org", "une phrase assez longue")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    Profile.objects.update_or_create(user=user, defaults={"display_name": LONG, "public": True})
    # A finished game of Num King played by an account: the leaderboard has a row.
    king = services.sheet_create(game="numking", players=[LONG, "Léa"], options={}, user=user).sheet
    Player.objects.filter(sheet=king, seat=0).update(user=user)
    _play(king, [{"entries": {LONG: {"bid": 0, "tricks": 0}, "Léa": {"bid": 1, "tricks": 0}}}] * 18)
    assert king.finished
    standings_recount(user_ids=[user.pk], game="numking")
    anon = SessionStore()
    anon[access.OWNER_SESSION_KEY] = "owner-key-of-the-test-browser"
    anon.save()
    guest = make_sheets(owner_key="owner-key-of-the-test-browser")
    guest["joinable"] = services.sheet_create(game="numx", players=EIGHT[:4], options={}, user=user).sheet
    return guest, anon.session_key


WIDTHS = (320, 360, 390)


def open_all(browser, live_server, site, lang, screenshots_at=360):
    """Open each page once, 360 px wide, and look for a sideways scroll at each of WIDTHS (the window resized)."""
    sheets, session = site
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        locale="fr-FR" if lang == "fr" else "en-GB",
        base_url=live_server.url,
    )
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [
            {"name": "sessionid", "value": session, "domain": host, "path": "/"},
            {"name": "django_language", "value": lang, "domain": host, "path": "/"},
        ]
    )
    errors, overflows = [], []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        for name, url in urls_of(sheets):
            response = page.goto(url)
            assert response.status == (404 if name == "404" else 200), (name, url, response.status)
            assert page.evaluate("document.documentElement.lang") == lang, (name, url)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 740})
                problem = page.evaluate(OVERFLOW)
                if problem:
                    overflows.append(f"{name} {url} at {width} px: {problem}")
                if width == screenshots_at:
                    shot(page, f"fit-{lang}-{width}-{name}")
    finally:
        context.close()
    assert errors == []
    return overflows


# Logged in, every page is looked at in both themes by test_every_screen.py (names of up to
# 40 characters without a space, tables of 4, 6 and 8): here, the pages of a browser that plays
# without an account.
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_it_never_scrolls_sideways_without_an_account(browser, live_server, site, lang):
    overflows = open_all(browser, live_server, site, lang)
    assert not overflows, "\n".join(overflows)


def _phone(browser, live_server, session, width=360, height=740, lang="fr"):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR", base_url=live_server.url)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [
            {"name": "sessionid", "value": session, "domain": host, "path": "/"},
            {"name": "django_language", "value": lang, "domain": host, "path": "/"},
        ]
    )
    return context


def test_it_shows_the_share_qr_code_full_screen_to_scan_across_the_table(browser, live_server, site):
    sheets, session = site
    context = _phone(browser, live_server, session)
    try:
        page = context.new_page()
        page.goto(f"/sheets/{sheets['numx'].pk}/")
        page.locator("#share-box summary").click()
        page.get_by_role("link", name="Montrer aux autres téléphones").click()
        full = page.locator("#show-qr")
        expect(full).to_be_visible()
        shot(page, "fit-qr-full-screen")
        # The drawing itself (not only its box) spans most of the screen's width, and all of it is on screen.
        code = page.evaluate(
            """() => { const r = document.querySelector('#show-qr svg .qrline').getBoundingClientRect();
                       return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; }"""
        )
        assert code["width"] >= 0.65 * 360, code  # the dark modules, inside the quiet zone
        assert code["left"] >= 0 and code["right"] <= 360 and code["top"] >= 0 and code["bottom"] <= 740, code
        page.locator("#show-qr-close").click()
        expect(full).to_be_hidden()
    finally:
        context.close()


def test_it_gives_each_name_field_the_whole_width_without_teams(browser, live_server, site):
    _sheets, session = site
    context = _phone(browser, live_server, session, width=320)
    try:
        page = context.new_page()
        page.goto("/new/numx/")
        row, name = page.locator("#player-0").locator(".."), page.locator("#player-0")
        expect(page.locator("#team-0")).to_be_hidden()
        assert name.bounding_box()["width"] >= row.bounding_box()["width"] - 1
        page.locator("#play-teams").check()
        expect(page.locator("#team-0")).to_be_visible()
        assert name.bounding_box()["width"] < row.bounding_box()["width"] * 0.7
        shot(page, "fit-new-numx-teams")
    finally:
        context.close()
