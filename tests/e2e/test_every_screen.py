"""Every screen of every game reads right in a player's hand (issue 24).

Each page is opened once per language (logged in as the creator, or logged out for the
account pages and the pages of a refused or failed request: 404, 429, 500, 503); the same loaded page is then looked at 320, 360 and 390 px wide, in the
light and the dark theme (the window resized and ``prefers-color-scheme`` emulated, no
reload). At each size: the page never scrolls sideways, every player's name is whole in
the score table's header, no text runs out of its box, every score cell looks tappable
(a pointer, its points underlined), no target is under 24 × 24 CSS px
(44 px tall for the ones used at the table every round), the score table of 4 players fits
at 320 px and of 6 at 390 px; axe-core (tests/e2e/vendor, from npm) finds no violation at
320 and 390 px in both themes (in the dark one, of the rules that read colours: AXE_AT).
Screenshots: var/screenshots/every-*.png.
"""

import os
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.shortcuts import render
from django.test import Client, RequestFactory
from django.utils import translation

from accounts.models import Profile, TablePlayer
from accounts.services import player_link_make, players_register, standings_recount
from scoring import access, services, tokens
from scoring.games import GAMES
from scoring.models import Player
from web import views as app_views

from .conftest import SCREENSHOTS, shot
from .test_phone_fits import OVERFLOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
WIDTHS = (320, 360, 390)
# axe-core at both widths in both themes (issue 24's goal): all its rules in the light theme;
# in the dark one, the rules that read colours, for the dark theme changes colours alone (the
# custom properties of static/css/app.css): every other rule would find what it found in the
# light theme, at twice the cost (they are about half of axe's time on a page).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
AXE_AT = {("light", 320): None, ("light", 390): None, ("dark", 320): COLOUR_RULES, ("dark", 390): COLOUR_RULES}
SCHEMES = ("light", "dark")
WORD40 = "Wolfeschlegelsteinhausenbergerdorffwelch"  # one unbroken 40-character word
# Names of 1 to 40 characters; the first four are every game's table of four.
NAMES = [
    "A",
    WORD40,
    "Maximilien-Alexandre",
    "Anne-Sophie de Beauregard",
    "Zoé",
    "Jean-Baptiste Delacroix",
    "Tom",
    "Hugo Lefebvre-Martin",
]
assert len(WORD40) == 40 and " " not in WORD40 and "-" not in WORD40
# The table's score table fits without scrolling up to this many players at this width.
FITS = {320: 4, 360: 4, 390: 6}
OPTIONS = {"numx": {"mode": "xgame"}}  # a game of several rounds
SHOTS = {(320, 4), (390, 6), (390, 8), (360, 8)}


def counts(slug):
    """The table sizes each game is tried with: 4, 6 and 8 players, as many as the game allows."""
    top = GAMES[slug].max_players
    return sorted({min(n, top) for n in (4, 6, 8)})


def first_round(slug, names):
    if slug == "numking":  # one card each: one trick, the first player's
        return {"entries": {n: {"bid": i % 2, "tricks": int(i == 0)} for i, n in enumerate(names)}}
    if slug == "coop":
        return {"placed": 80}
    if slug == "numx":
        entries = {n: {"points": 3 * i - 4} for i, n in enumerate(names)}
        entries[names[1]] = {"cards": [{"kind": k, "value": v} for k, v in (("red", 7), ("yellow", 9), ("green", 3))]}
        return {"entries": entries}
    return {"entries": {n: {"points": 3 * i + 1} for i, n in enumerate(names)}}


def second_round(slug, names):
    if slug == "numking":  # two cards each: the second player takes both tricks
        return {"entries": {n: {"bid": 2 * int(i == 1), "tricks": 2 * int(i == 1)} for i, n in enumerate(names)}}
    if slug == "coop":
        return {"placed": 93}
    return {"entries": {n: {"points": (5 * i) % 7} for i, n in enumerate(names)}}


@pytest.fixture
def world(live_server):
    """One sheet per game and table size, owned by a logged-in account; return the pages to open."""
    user = get_user_model().objects.create_user("lea", "lea@example.org", "une phrase assez longue")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    Profile.objects.update_or_create(user=user, defaults={"display_name": WORD40, "public": True})
    client = Client()
    client.force_login(user)
    # A sheet this browser kept before logging in: the account is asked whether to take it.
    session = client.session
    session[access.OWNER_SESSION_KEY] = "owner-key-of-this-browser"
    session.save()
    services.sheet_create(game="numwin", players=NAMES[:3], options={}, owner_key="owner-key-of-this-browser")
    # /leaderboards/ goes to the first game's board, looked at below.
    pages = [("home", "/"), ("my-sheets", "/sheets/"), ("404", "/nowhere/")]
    pages += [(f"new-{slug}", f"/new/{slug}/") for slug in GAMES]
    pages += [(f"rules-{slug}", f"/rules/{slug}/") for slug in GAMES]
    pages += [(f"leaderboard-{slug}", f"/leaderboards/{slug}/") for slug in GAMES]
    sheets = []
    for slug in GAMES:
        for n in counts(slug):
            names = NAMES[:n]
            sheet = services.sheet_create(game=slug, players=names, options=OPTIONS.get(slug, {}), user=user).sheet
            for data in (first_round(slug, names), second_round(slug, names))[: 1 if slug == "numx" else 2]:
                services.round_add(sheet=sheet, data=data)
            sheet.refresh_from_db()
            assert not sheet.finished, (slug, n)  # its entry form shows
            pk, tag = sheet.pk, f"{slug}-{n}"
            sheets.append((f"sheet-{tag}", f"/sheets/{pk}/"))
            if n == 4:  # the same score table as the creator's page, a form of one player or none
                sheets += [
                    (f"share-{tag}", f"/w/{pk}/{tokens.read_token(pk)}/"),
                    (f"seat-{tag}", f"/p/{pk}/1/{tokens.entry_token(pk, 1)}/"),
                    (f"edit-{tag}", f"/sheets/{pk}/rounds/1/edit/"),
                ]
    # A finished game of the account: its history, stats, players and leaderboards have rows.
    king = services.sheet_create(game="numking", players=[WORD40, NAMES[2]], options={}, user=user).sheet
    Player.objects.filter(sheet=king, seat=0).update(user=user)
    for _ in range(18):
        services.round_add(
            sheet=king, data={"entries": {WORD40: {"bid": 0, "tricks": 0}, NAMES[2]: {"bid": 1, "tricks": 0}}}
        )
    king.refresh_from_db()
    assert king.finished
    standings_recount(user_ids=[user.pk], game="numking")
    players_register(user_id=user.pk, sheet_ids=[king.pk])
    mate = TablePlayer.objects.filter(owner=user).exclude(name=WORD40).first()
    link = player_link_make(user=user, player_id=mate.pk)
    pages += [
        ("sheet-finished", f"/sheets/{king.pk}/"),
        ("history", "/me/"),
        ("players", "/me/players/"),
        ("table-player", f"/me/players/{mate.pk}/"),
        ("stats", f"/players/{user.pk}/"),
        ("account-delete", "/me/delete/"),
        ("sheet-delete", f"/me/sheets/{king.pk}/delete/"),
        ("seat-join", f"/seat/{king.pk}/1/{tokens.claim_token(king.pk, 1)}/"),
        ("email", "/accounts/email/"),
        ("password-change", "/accounts/password/change/"),
        ("logout", "/accounts/logout/"),
        ("player-link", f"/players/link/{mate.pk}/{link}/"),
        ("claim", "/me/claim/"),
        ("offline", "/offline/fr/"),
    ]
    logged_out = [
        ("login", "/accounts/login/"),
        ("signup", "/accounts/signup/"),
        ("password-reset", "/accounts/password/reset/"),
        *((name, f"/answered/{name}/") for name in ANSWERS),
    ]
    return {
        "session": client.cookies["sessionid"].value,
        "in": pages + sheets,
        "out": logged_out,
    }


# What one look at a page finds wrong, as short lines naming the element.
LOOK = """([fits, tall]) => {
  const NAMED = '.stepper label, .count-row legend, .hand-name, .slot-player, .leader-choice, .segmented span, .player-link';
  const out = [], W = window.innerWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
    ' «' + (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 30) + '»';
  const kind = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + [...el.classList].filter((c) => !c.startsWith('c-')).map((c) => '.' + c).join('');
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && el.checkVisibility({opacityProperty: true, visibilityProperty: true}); };
  const srOnly = (el) => el.closest('.sr-only');
  // 1. No sideways scroll of the page: OVERFLOW (test_phone_fits) says it and names the culprits.
  // 2. No text out of its box: each line of text inside the nearest box that is not inline,
  //    and not cut by an ancestor that hides what overflows (a scrolling box may scroll).
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.data.trim()) continue;
    const el = t.parentElement;
    if (!el || srOnly(el) || el.closest('script, style, option, svg, .qr-full:not(:target)')) continue;
    range.selectNodeContents(t);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length || !shown(el)) continue;
    let box = el;
    while (box.parentElement && getComputedStyle(box).display.startsWith('inline') && !getComputedStyle(box).display.startsWith('inline-')) box = box.parentElement;
    const b = box.getBoundingClientRect();
    for (const r of rects) {
      if (r.left < b.left - 1 || r.right > b.right + 1) { out.push(`text out of its box: ${name(box)} (${Math.round(r.right - b.right)} px)`); break; }
    }
    for (let p = el; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'hidden' || s.overflowX === 'clip' || s.textOverflow === 'ellipsis') {
        if (p.scrollWidth > p.clientWidth + 1) { out.push(`text cut: ${name(p)} (${p.scrollWidth} > ${p.clientWidth})`); }
        break;
      }
    }
  }
  // 3. Every player's name whole in the score table's header, the header inside its table.
  for (const n of document.querySelectorAll('table.scores thead .pname')) {
    const th = n.closest('th'), r = n.getBoundingClientRect(), b = th.getBoundingClientRect();
    if (th.scrollWidth > th.clientWidth + 1 || r.right > b.right + 1 || r.left < b.left - 1) out.push(`name cut: «${n.textContent}»`);
  }
  // 3b. A name in a form breaks between its words: a word that fits the line is never cut in two.
  for (const el of document.querySelectorAll(NAMED)) {
    if (!shown(el)) continue;
    const width = el.getBoundingClientRect().width;
    for (const t of [...el.childNodes].filter((n) => n.nodeType === 3)) {
      for (const m of t.data.matchAll(/[^\\s-]+-?/g)) {
        range.setStart(t, m.index);
        range.setEnd(t, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const whole = rects.reduce((sum, r) => sum + r.width, 0);
        if (rects.length > 1 && whole <= width) out.push(`word cut in two: «${m[0]}» in ${kind(el)}`);
      }
    }
  }
  // 4. A small table fits its box: no scrolling to see the last player.
  for (const wrap of document.querySelectorAll('.table-wrap')) {
    const players = wrap.querySelectorAll('table.scores thead .pname').length;
    if (players && players <= fits && wrap.scrollWidth > wrap.clientWidth + 1) out.push(`${players} players do not fit: ${wrap.scrollWidth} > ${wrap.clientWidth}`);
  }
  // 5. Targets: 24 × 24 at least (a link inside a sentence excepted, WCAG 2.5.8); 44 px tall
  //    at the table (tall: the selectors of what is tapped every round).
  const targets = 'a[href], button, summary, select, textarea, input:not([type=hidden]), [role=button], [tabindex]:not([tabindex="-1"])';
  for (const el of document.querySelectorAll(targets)) {
    if (!shown(el) || srOnly(el)) continue;
    const s = getComputedStyle(el);
    if (el.tagName === 'A' && s.display === 'inline') {
      const block = el.parentElement, own = el.textContent.trim().length;
      if (block && block.textContent.trim().length - own >= 20) continue;  // a link in running text
    }
    if (el.matches('.table-wrap')) continue;  // a scrolling region, not a button
    const r = el.getBoundingClientRect();
    if (r.width < 24 - 0.01 || r.height < 24 - 0.01) out.push(`target under 24 px: ${name(el)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    else if (tall && el.matches(tall) && r.height < 44 - 0.01) out.push(`table target under 44 px tall: ${kind(el)} ${Math.round(r.height)} px`);
  }
  // 6. A score cell that opens its explanation looks tappable: a pointer, its points underlined.
  for (const cell of document.querySelectorAll('details.cell > summary')) {
    if (!shown(cell)) continue;
    const pts = cell.querySelector('.pts');
    if (getComputedStyle(cell).cursor !== 'pointer' || !pts || !getComputedStyle(pts).textDecorationLine.includes('underline')) out.push(`cell not shown as tappable: ${name(cell)}`);
  }
  return [...new Set(out)];
}"""

# Tapped at the table every round: the round's form, the score cells, the hands, the steppers.
TALL = (
    "#round-form button, #round-form summary, #round-form select, #round-form input:not([type=checkbox]):not([type=radio]),"
    " #seat-form button, #seat-form input:not([type=checkbox]):not([type=radio]),"
    " details.cell > summary, .scores a.edit, #save-round, .toast button"
)

AXE_RUN = """async (rules) => {
  const only = rules ? {runOnly: {type: 'rule', values: rules}} : {};
  const r = await axe.run(document, {resultTypes: ['violations'], ...only});
  return r.violations.map((v) => `axe ${v.id} (${v.impact}): ` + v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n').slice(1, 2).join('')).join(' | '));
}"""


ONLY = os.environ.get("E2E_PAGES", "")  # while working on a page: E2E_PAGES=sheet-numking,history


# The pages a refused or failed request answers with, as the app renders them (web/views.py,
# web/ratelimit.py); the browser is handed them at /answered/<status>/.
ANSWERS = {
    "429": lambda request: render(request, "429.html", {"message": "Trop de tentatives"}, status=429),
    "500": app_views.server_error,
    "503": app_views.unavailable,
}
STATUS = {"404": 404, **{name: int(name) for name in ANSWERS}}


def answer_pages(context, lang):
    """Hand the browser the app's own 429, 500 and 503 pages in `lang` at /answered/<status>/."""
    request = RequestFactory().get("/sheets/")
    request.user, request.session = AnonymousUser(), {}
    with translation.override(lang):
        bodies = {name: answer(request) for name, answer in ANSWERS.items()}
    for name, response in bodies.items():
        context.route(f"**/answered/{name}/", fulfil_with(response))


def fulfil_with(response):
    """Return a route handler answering what `response` (a Django response) says."""
    return lambda route: route.fulfill(
        status=response.status_code, body=response.content, content_type=response["Content-Type"]
    )


def look_everywhere(browser, base_url, session, pages, lang, problems):
    """Open each page once; look at it at each width in both themes; add what is wrong to problems.

    axe-core runs in both languages on every page, at AXE_AT. The tables of six and eight are
    seen on the creator's page, whose score table and form the share and seat pages show too.
    """
    context = browser.new_context(
        viewport={"width": 390, "height": 740},
        locale="fr-FR" if lang == "fr" else "en-GB",
        base_url=base_url,
        bypass_csp=True,  # axe is injected into each page; the app's CSP allows only its own scripts
        service_workers="block",
    )
    host = base_url.split("//", 1)[1].split(":")[0]
    cookies = [{"name": "django_language", "value": lang, "domain": host, "path": "/"}]
    if session:
        cookies.append({"name": "sessionid", "value": session, "domain": host, "path": "/"})
    context.add_cookies(cookies)
    answer_pages(context, lang)
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        for name, url in pages:
            if ONLY and not any(o in name for o in ONLY.split(",")):
                continue
            page.set_viewport_size({"width": 390, "height": 740})
            status = page.goto(url).status
            if not page.url.endswith(url):
                problems.setdefault(f"{name} {lang}: {url} went to {page.url}", []).append("")
                continue
            if status != STATUS.get(name, 200):
                problems.setdefault(f"{name} {lang}: {url} answered {status}", []).append("")
                continue
            page.add_script_tag(path=str(AXE))
            players = page.locator("table.scores thead .pname").count()
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": 740})
                    found = page.evaluate(LOOK, [FITS[width], TALL])
                    wide = page.evaluate(OVERFLOW)
                    if wide:
                        found.append(f"page too wide: {wide}")
                    if (scheme, width) in AXE_AT:
                        found += page.evaluate(AXE_RUN, AXE_AT[scheme, width])
                    for problem in found:
                        problems.setdefault(f"{name} {lang}: {problem}", []).append(f"{scheme} {width}")
                    if lang == "fr" and (width, players) in SHOTS and (scheme == "light" or width == 390):
                        shot(page, f"every-{scheme}-{width}-{name}")
            page.emulate_media(color_scheme="light")
    finally:
        context.close()
    assert errors == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_screen_reads_right_on_a_phone(browser, live_server, world, lang):
    problems = {}
    look_everywhere(browser, live_server.url, world["session"], world["in"], lang, problems)
    look_everywhere(browser, live_server.url, "", world["out"], lang, problems)
    found = [f"{problem} [{', '.join(where)}]" for problem, where in problems.items()]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"every-{lang}.txt").write_text("\n".join(found))
    assert not found, f"{len(found)} problems:\n" + "\n".join(found)


# What axe-core finds in Swagger UI's own markup, which the page cannot change without
# patching it: a clickable summary holding a button, tag headings one level down from the
# title, the title block outside any landmark.
SWAGGER_UIS_OWN = {"nested-interactive", "heading-order", "region"}


@pytest.mark.parametrize("width", [320, 390])
def test_the_api_docs_read_right_but_for_swagger_uis_own_markup(browser, live_server, width):
    """The API's documentation (/api/v1/docs/): a language, and every badge and link readable."""
    context = browser.new_context(
        viewport={"width": width, "height": 740}, base_url=live_server.url, bypass_csp=True, service_workers="block"
    )
    try:
        page = context.new_page()
        page.goto("/api/v1/docs/")
        page.locator(".swagger-ui .opblock").first.wait_for()
        assert page.evaluate("document.documentElement.lang") == "en"
        page.add_script_tag(path=str(AXE))
        found = [line for line in page.evaluate(AXE_RUN, None) if line.split()[1] not in SWAGGER_UIS_OWN]
        if width == 390:
            shot(page, "every-api-docs-390")
    finally:
        context.close()
    assert found == []
