"""The installable app: the in-page Python engine scores as the API does, and sheets open offline."""

import json
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.e2e.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NO_WORKER,
    PHONE,
    module,
    new_sheet,
    shot,
    submit,
    totals,
    wait_until,
)
from web.middleware import CSP, WORKER_CSP

pytestmark = [pytest.mark.browser, pytest.mark.engine, pytest.mark.django_db(transaction=True)]

ENGINE_TIMEOUT_MS = 120_000  # the runtime is ~13 MB uncompressed from the test server; it usually takes 5–10 s


def c(kind, value=None, **extra):
    card = {"kind": kind, **extra}
    if value is not None:
        card["value"] = value
    return card


# Several rounds of every game (and a game without rounds), each as the API takes them.
CASES = [
    (
        "numx",
        ["Elya", "Sasha", "Mendy"],
        {"mode": "xgame"},
        [
            {
                "entries": {
                    "Elya": {"cards": [c("red", 7), c("rainbow", 7), c("blue", 9)]},
                    "Sasha": {"cards": [c("blue", 3), c("joker")]},
                    "Mendy": {"points": 12},
                }
            },
            {
                "entries": {
                    "Elya": {"cards": [c("green", 1), c("green", 13), c("yellow", 5), c("shadow", 8)]},
                    "Sasha": {"cards": [c("infini")]},
                    "Mendy": {"cards": [c("action", name="malus"), c("red", 2)]},
                }
            },
        ],
    ),
    (
        "numx",
        ["Elya", "Sasha"],
        {"mode": "family", "same_colour": True},
        [
            {
                "entries": {
                    "Elya": {"cards": [c("blue", 6), c("blue", 5), c("blue", 16), c("rainbow", 6)]},
                    "Sasha": {"cards": [c("red", 9), c("yellow", 9)]},
                }
            }
        ],
    ),
    (
        "numx-malus",
        ["Elya", "Sasha", "Noa"],
        {"mode": "speedrun", "scoring": "classic", "end": "threshold"},
        [
            {
                "entries": {
                    "Elya": {"cards": [c("blue", 3), c("joker")]},
                    "Sasha": {"cards": []},
                    "Noa": {"cards": [c("action", name="double"), c("red", 8)]},
                }
            },
            {
                "entries": {
                    "Elya": {"cards": []},
                    "Sasha": {"cards": [c("green", 12), c("yellow", 4)]},
                    "Noa": {"points": 5},
                }
            },
        ],
    ),
    (
        "numx-malus",
        ["Elya", "Sasha"],
        {"mode": "speedgame"},
        [
            {"entries": {"Elya": {"cards": [c("blue", 13), c("shadow", 2)]}, "Sasha": {"cards": []}}},
            {"entries": {"Elya": {"cards": []}, "Sasha": {"cards": [c("red", 10)]}}},
        ],
    ),
    (
        "numwin",
        ["Elya", "Sasha", "Mendy"],
        {"mode": "classic"},
        [
            {
                "declarer": "Elya",
                "entries": {
                    "Elya": {"cards": [c("rainbow", 5), c("shadow", 8)]},
                    "Sasha": {"points": 4},
                    "Mendy": {"cards": [c("red", 2)]},
                },
            },
            {
                "declarer": "Sasha",
                "entries": {
                    "Elya": {"cards": [c("blue", 9)]},
                    "Sasha": {"cards": [c("green", 1)]},
                    "Mendy": {"cards": [c("yellow", 12), c("infini")]},
                },
            },
            {
                "entries": {
                    "Elya": {"cards": [c("red", 3)]},
                    "Sasha": {"cards": [c("action", name="tornade")]},
                    "Mendy": {"points": 7},
                }
            },
        ],
    ),
    (
        "numking",
        ["Elya", "Sasha", "Mendy", "Noa"],
        {"start": 1},
        [
            {
                "cards": 1,
                "entries": {
                    "Elya": {"bid": 1, "tricks": 1},
                    "Sasha": {"bid": 0, "tricks": 0},
                    "Mendy": {"bid": 0, "tricks": 0},
                    "Noa": {"bid": 1, "tricks": 0},
                },
            },
            {
                "entries": {
                    "Elya": {"bid": 0, "tricks": 1},
                    "Sasha": {"bid": 1, "tricks": 1},
                    "Mendy": {"bid": 0, "tricks": 0},
                    "Noa": {"bid": 0, "tricks": 0},
                }
            },
            {
                "entries": {
                    "Elya": {"bid": 2, "tricks": 2},
                    "Sasha": {"bid": 0, "tricks": 0},
                    "Mendy": {"bid": 1, "tricks": 1},
                    "Noa": {"bid": 0, "tricks": 0},
                }
            },
        ],
    ),
    ("coop", ["Elya", "Sasha", "Mendy"], {"mode": "cooperatif"}, [{"placed": 96}, {"placed": 71}, {"placed": 60}]),
    ("coop", ["Elya", "Sasha"], {"mode": "adversaire"}, None),
]

# Refused inputs, one per game: the engine's errors must be the API's, word for word.
REFUSED = [
    (
        "numx",
        ["Elya", "Sasha"],
        {},
        [{"entries": {"Elya": {"cards": [c("blue", 7)]}, "Sasha": {"cards": [c("blue", 7)]}}}],
    ),
    ("numx-malus", ["Elya", "Elya"], {"mode": "nope"}, []),
    ("numwin", ["A", "B"], {}, [{"entries": {"A": {"cards": [c("joker")]}, "B": {"cards": []}}}]),
    ("numking", ["A", "B"], {"start": 1}, [{"cards": 3, "entries": {"A": {"bid": 2, "tricks": 5}, "B": {}}}]),
    ("coop", ["A"], {"expert": "yes"}, [{"placed": -1}]),
]

IN_PAGE = (
    """async ([slug, players, options, rounds, lang]) => {
  try {
    const { NumEngine } = """
    + module("engine")
    + """;
    return { status: 200, body: await NumEngine.score(slug, players, options, rounds, lang) };
  } catch (e) {
    return { status: e.status || 0, errors: e.errors || null, detail: e.message };
  }
}"""
)


def api(slug, players, options, rounds, lang):
    """Return (status, body) of POST /api/v1/games/{slug}/score/ for this input, as the page sends it."""
    body = json.dumps({"players": players, "options": options, "rounds": rounds})
    r = Client().post(f"/api/v1/games/{slug}/score/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)
    return r.status_code, r.json()


def engine_ready(page):
    """Return what NumEngine.ready resolves with (or "timeout")."""
    return page.evaluate(
        f"async (ms) => Promise.race([{module('engine')}.NumEngine.ready, new Promise((r) => setTimeout(() => r('timeout'), ms))])",
        ENGINE_TIMEOUT_MS,
    )


CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
}"""
RUNTIME_KEPT = """() => caches.keys().then(async (names) => {
  const pyodide = names.find((n) => n.startsWith("num-pyodide-"));
  const engine = names.find((n) => n.startsWith("num-engine-"));
  if (!pyodide || !engine) return false;
  const files = (await (await caches.open(pyodide)).keys()).length;
  return files === 5 && (await (await caches.open(engine)).keys()).length === 1;
})"""

PAGE_KEPT = """([path, text]) => caches.match(path, { cacheName: "num-pages-3" })
  .then((r) => (r ? r.text() : null)).then((html) => html !== null && html.includes(text))"""


def reload_without_engine(page):
    """Reload the page with its engine unable to start; return the reload's response."""
    page.add_init_script(NO_WORKER)  # the engine cannot start: the page shows what the device kept
    response = page.reload()
    assert engine_ready(page) is False
    return response


def offline_ready(page, sheet_id):
    """Wait until the engine runs and the service worker keeps the runtime and the sheet's page, then go offline."""
    assert engine_ready(page) is True
    wait_until(page, RUNTIME_KEPT, timeout=ENGINE_TIMEOUT_MS)
    wait_until(page, PAGE_KEPT, [f"/sheets/{sheet_id}/", ""])
    page.context.set_offline(True)


def open_sheet(page) -> str:
    sheet_id = new_sheet(page, "numx", ["Elya", "Sasha"])
    assert engine_ready(page) is True
    return sheet_id


def test_it_scores_every_game_in_the_page_as_the_api_does(phone):
    page = phone
    open_sheet(page)
    assert page.evaluate(f"async () => {module('engine')}.NumEngine.isReady()") is True
    compared = 0
    for lang in ("fr", "en"):
        for slug, players, options, rounds in CASES:
            status, expected = api(slug, players, options, rounds, lang)
            assert status == 200, expected
            got = page.evaluate(IN_PAGE, [slug, players, options, rounds, lang])
            assert got["status"] == 200, got
            assert got["body"] == expected, (slug, lang)
            compared += 1
        for slug, players, options, rounds in REFUSED:
            status, expected = api(slug, players, options, rounds, lang)
            assert status == 400
            got = page.evaluate(IN_PAGE, [slug, players, options, rounds, lang])
            assert got["status"] == 400
            assert got["errors"] == expected["errors"], (slug, lang)
            assert got["detail"] == expected["detail"]
            compared += 1
    assert compared == 2 * (len(CASES) + len(REFUSED))
    # The messages really are in each language (a French answer to an English request would
    # have passed the comparison only if the API made the same mistake).
    fr = page.evaluate(IN_PAGE, [*REFUSED[2], "fr"])
    en = page.evaluate(IN_PAGE, [*REFUSED[2], "en"])
    assert fr["errors"][0]["path"] == en["errors"][0]["path"] == "rounds[0].entries.A.cards[0]"
    assert fr["errors"][0]["message"] != en["errors"][0]["message"]


# Num King tricks, each as the trick endpoint takes them: the spec's examples, a refused one, a game without a referee.
R9, FLIP, S4 = c("rainbow", 9), c("action", name="flip"), c("shadow", 4)
TRICKS = [
    ("numking", ["A", "B", "C", "D"], {}, [R9, FLIP, S4, {"kind": "numx", "as": 17}], None),
    ("numking", ["A", "B", "C", "D"], {}, [c("rainbow", 5), c("shadow", 5), c("action", name="flash"), FLIP], []),
    ("numking", ["A", "B", "C"], {"extra_family": False}, [c("rainbow", 8), c("action", name="quantique"), S4], [R9]),
    ("numking", ["A", "B", "C", "D"], {}, [R9, FLIP, S4, {"kind": "numx"}], [FLIP]),  # 400: two errors
    ("numking", ["A", "B"], {}, [R9], None),  # 400: B's card is missing
    ("numx", ["A", "B"], {}, [R9, S4], None),  # 404: no referee
]

IN_PAGE_TRICK = (
    """async ([slug, players, options, plays, played, lang]) => {
  try {
    const { NumEngine } = """
    + module("engine")
    + """;
    return { status: 200, body: await NumEngine.trick(slug, players, options, plays, played, lang) };
  } catch (e) {
    return { status: e.status || 0, errors: e.errors || null, detail: e.message };
  }
}"""
)


def test_it_resolves_tricks_in_the_page_as_the_api_does(phone):
    page = phone
    open_sheet(page)
    for lang in ("fr", "en"):
        for slug, players, options, cards, played in TRICKS:
            plays = [{"player": p, "card": card} for p, card in zip(players, cards)]
            body = {"players": players, "options": options, "plays": plays}
            if played is not None:
                body["played"] = played
            r = Client().post(
                f"/api/v1/games/{slug}/trick/",
                json.dumps(body),
                content_type="application/json",
                HTTP_ACCEPT_LANGUAGE=lang,
            )
            got = page.evaluate(IN_PAGE_TRICK, [slug, players, options, plays, played, lang])
            assert got["status"] == r.status_code, (got, r.content)
            if r.status_code == 200:
                assert got["body"] == r.json(), (cards, lang)
            else:
                assert (got["errors"], got["detail"]) == (r.json()["errors"], r.json()["detail"]), (cards, lang)
    # The messages really are in each language.
    slug, players, options, cards, _played = TRICKS[0]
    plays = [{"player": p, "card": card} for p, card in zip(players, cards)]
    fr = page.evaluate(IN_PAGE_TRICK, [slug, players, options, plays, None, "fr"])["body"]
    en = page.evaluate(IN_PAGE_TRICK, [slug, players, options, plays, None, "en"])["body"]
    assert fr["winner"] == en["winner"] == "D"
    assert fr["details"][1] == "⚡ Num-X 17 joué après Flip : la plus haute carte valide gagne"
    assert en["details"][1] == "⚡ Num-X 17 played after Flip: the highest valid card wins"


def test_it_previews_points_in_the_page_without_asking_the_server(phone):
    page = phone
    open_sheet(page)
    asked = []
    page.route("**/api/v1/games/*/score/", lambda route: (asked.append(route.request.url), route.abort()))
    elya = page.locator("fieldset.hand[data-name='Elya']")
    elya.locator(".colour[data-kind='red']").click()
    elya.locator(".value[data-value='7']").click()
    elya.locator(".colour[data-kind='rainbow']").click()
    elya.locator(".value[data-value='7']").click()
    expect(elya.locator("output.live")).to_have_text("= 14 pts")
    assert asked == []


@pytest.mark.parametrize(("policy", "ready"), [(WORKER_CSP, True), (CSP, False)], ids=["worker-policy", "page-policy"])
def test_it_loads_the_engine_only_where_its_worker_may_compile_webassembly(browser, live_server, policy, ready):
    # The test server hands out static files without the app's headers: the worker script
    # gets here the policy that web/middleware.py gives it in production (or a page's).
    context = browser.new_context(viewport=PHONE, locale="fr-FR", base_url=live_server.url, service_workers="block")
    try:
        page = context.new_page()

        def with_policy(route):
            response = route.fetch()
            route.fulfill(response=response, headers={**response.headers, "content-security-policy": policy})

        page.route("**/static/js/engine-worker.js", with_policy)
        new_sheet(page, "numx", ["Elya", "Sasha"])
        assert engine_ready(page) is ready
        assert page.evaluate(f"async () => {module('engine')}.NumEngine.isReady()") is ready
        # Without the engine the preview asks the server, as before.
        elya = page.locator("fieldset.hand[data-name='Elya']")
        elya.locator(".colour[data-kind='red']").click()
        elya.locator(".value[data-value='7']").click()
        expect(elya.locator("output.live")).to_have_text("= 7 pts")
    finally:
        context.close()


def test_the_first_page_a_phone_opens_is_kept_though_it_went_past_the_worker(phone):
    # The first page loads before the service worker is installed, so its request goes past
    # it, even if the worker takes the page over a moment later: the page asks to be kept.
    page = phone
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    wait_until(page, PAGE_KEPT, ["/", "<main"])
    page.context.set_offline(True)
    response = page.reload()
    assert response.from_service_worker
    expect(page.locator("h1")).not_to_have_text("📵 Pas de réseau")
    page.context.set_offline(False)


def test_it_opens_a_known_sheet_and_scores_without_network(phone):
    page = phone
    sheet_id = open_sheet(page)
    # The service worker stores the page and what the engine's worker fetched as they go by
    # (or fetches them itself when the page loaded while it was being installed): wait for
    # the page, the five runtime files and the engine bundle before cutting the network.
    wait_until(page, RUNTIME_KEPT, timeout=ENGINE_TIMEOUT_MS)
    wait_until(page, PAGE_KEPT, [f"/sheets/{sheet_id}/", ""])
    context = page.context
    context.set_offline(True)

    # The sheet page comes from the service worker, with its styles and its engine.
    response = page.reload()
    assert response.status == 200 and response.from_service_worker
    expect(page.locator("h1")).to_have_text("Num-X")
    expect(page.locator("#round-form")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert engine_ready(page) is True

    # Once more: everything the engine needs is now read from the service worker's caches.
    response = page.reload()
    assert response.from_service_worker
    assert engine_ready(page) is True
    got = page.evaluate(IN_PAGE, [*CASES[0], "fr"])
    assert got["status"] == 200 and got["body"] == api(*CASES[0], "fr")[1]
    # The scripts' words come from the service worker too, in the page's language; a page kept
    # before a deployment names an older catalogue, for which the current one stands in.
    assert page.evaluate("gettext('Pick a colour first.')") == "Choisissez d'abord une couleur."
    older = page.evaluate("fetch('/jsi18n/fr/00000000000000000000.js').then((r) => r.text())")
    assert "Choisissez d'abord une couleur." in older

    # The live preview works offline too.
    elya = page.locator("fieldset.hand[data-name='Elya']")
    elya.locator(".colour[data-kind='blue']").click()
    elya.locator(".value[data-value='9']").click()
    expect(elya.locator("output.live")).to_have_text("= 9 pts")
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 844})
        shot(page, f"offline-sheet-{width}")

    # A page this phone never opened: the offline page, in the app's layout and language.
    page.goto(f"/sheets/{sheet_id}/rounds/1/edit/")
    expect(page.locator("h1")).to_have_text("📵 Pas de réseau")
    expect(page.locator("header.top .brand")).to_be_visible()
    expect(page.get_by_role("link", name="Page d'accueil")).to_have_attribute("href", "/")
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 844})
        shot(page, f"offline-page-{width}")

    # Back online, the sheet comes from the network again; a round saved through the form
    # leaves the new page in the cache, and nothing posted, nothing from the API.
    context.set_offline(False)
    response = page.goto(f"/sheets/{sheet_id}/")
    assert response.status == 200
    page.set_viewport_size(PHONE)
    elya = page.locator("fieldset.hand[data-name='Elya']")
    # The blue 9 picked offline is still there (the device kept it as the round's draft).
    expect(elya.locator("output.live")).to_have_text("= 9 pts")
    elya.locator(".colour[data-kind='green']").click()
    elya.locator(".value[data-value='4']").click()
    expect(elya.locator("output.live")).to_have_text("= 13 pts")
    submit(page, page.locator("#save-round"))
    submit(page, page.locator("#confirm-empty"))  # Sasha has no card: the page asks first
    # The new page is stored once its answer has gone by: wait for the copy with the round.
    wait_until(page, PAGE_KEPT, [f"/sheets/{sheet_id}/", '<details class="cell">'])
    cached = page.evaluate(CACHED)
    pages = cached["num-pages-3"]
    assert set(pages) <= {"/", f"/sheets/{sheet_id}/"} and f"/sheets/{sheet_id}/" in pages
    everything = [path for paths in cached.values() for path in paths]
    assert not [p for p in everything if p.startswith("/api/") or p.endswith("/rounds/")]
    context.set_offline(True)
    page.reload()
    expect(page.locator("table.scores tbody tr:has(details.cell)")).to_have_count(1)  # the saved round, offline
    context.set_offline(False)


def test_it_is_installable(browser, live_server, tmp_path):
    # Chromium never offers to install from an incognito profile (a new context is one):
    # this check runs in a profile on disk.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        locale="fr-FR",
        base_url=live_server.url,
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto("/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        session = context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        assert manifest["url"] == f"{live_server.url}/manifest.webmanifest"
        assert manifest["errors"] == []
        parsed = json.loads(manifest["data"])
        assert parsed["name"] == "Num scores" and parsed["display"] == "standalone"
        assert session.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


def test_it_plays_rounds_offline_with_their_points_from_the_device_and_sends_them_once(phone):
    """Issue check: offline, two rounds wait with their points (scored by the in-page engine),
    the page reloads from the service worker with them, and back online each is sent once."""
    from scoring.models import IdempotentRequest, Round, Sheet

    page = phone
    # Classic scoring: the cards left are counted with the steppers (numeric, specials).
    sheet_id = new_sheet(page, "numx-malus", ["Léa", "Tom"])
    offline_ready(page, sheet_id)
    for counts, points in ((((3, 0), (1, 2)), (3, 5)), (((2, 1), (2, 0)), (4, 2))):
        for seat, (numeric, specials) in enumerate(counts):
            if numeric:
                page.locator(f"#numeric-{seat}").fill(str(numeric))
            for _ in range(specials):
                page.locator(f".stepper:has(#specials-{seat}) .step[data-step='1']").click()
        # The preview scores the counts on the device, without network.
        for seat, pts in enumerate(points):
            expect(page.locator(f"#live-{seat}")).to_have_text(f"= {pts} pts")
        submit(page, page.locator("#save-round"))
    pending = page.locator("tr.pending")
    expect(pending).to_have_count(2, timeout=20000)
    expect(pending.nth(0)).to_contain_text("en attente de réseau")
    expect(pending.nth(0)).not_to_contain_text("points calculés au retour du réseau")
    expect(pending.nth(1)).to_contain_text("2")
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 844})
        shot(page, f"offline-pending-with-points-{width}")
    assert Sheet.objects.get(pk=sheet_id).round_count == 0

    # A reload without network: the page comes from the service worker, the rounds still wait.
    # It shows what it showed before the reload at once, before its engine runs again (here, never).
    response = reload_without_engine(page)
    assert response.from_service_worker
    expect(page.locator("tr.pending")).to_have_count(2, timeout=20000)
    expect(page.locator("tr.pending").nth(0)).to_contain_text("3")
    expect(page.locator("tr.pending").nth(1)).not_to_contain_text("points calculés")
    expect(page.locator("tr.empty-row")).to_be_hidden()
    expect(page.locator("table.scores tfoot tr.total-row td.provisional")).to_have_count(2)
    assert totals(page) == [7, 7]
    expect(page.locator("#entry h2")).to_have_text("Manche 3")
    shot(page, "offline-pending-after-reload")

    page.context.set_offline(False)
    expect(page.locator("tr.pending")).to_have_count(0, timeout=15000)
    # The page shows the sheet as stored: both rounds, the totals, the next round's form.
    expect(page.locator("table.scores tbody tr:has(details.cell)")).to_have_count(2)
    expect(page.locator("#entry h2")).to_contain_text("3")
    rounds = list(Round.objects.filter(sheet_id=sheet_id).order_by("number").values_list("number", "data"))
    assert rounds == [
        (1, {"entries": {"Léa": {"numeric": 3, "specials": 0}, "Tom": {"numeric": 1, "specials": 2}}}),
        (2, {"entries": {"Léa": {"numeric": 2, "specials": 1}, "Tom": {"numeric": 2, "specials": 0}}}),
    ]
    assert totals(page) == [7, 7]
    assert IdempotentRequest.objects.filter(sheet_id=sheet_id).count() == 2


def test_a_one_round_game_waiting_for_the_network_is_over_before_and_after_a_reload(phone):
    """Issue check: a Speed Run's only round saved offline ends the game on the device: no « Manche 2 »."""
    page = phone
    sheet_id = new_sheet(page, "numx", ["Léa", "Tom"], {"mode": "speedrun"})
    offline_ready(page, sheet_id)
    page.locator("#points-0").fill("12")
    page.locator("#points-1").fill("−4")
    submit(page, page.locator("#save-round"))
    expect(page.locator("tr.pending")).to_have_count(1, timeout=20000)
    expect(page.locator("#entry")).to_be_hidden()
    reload_without_engine(page)
    expect(page.locator("tr.pending")).to_have_count(1)
    expect(page.locator("tr.pending")).to_contain_text("−4")
    expect(page.locator("#entry")).to_be_hidden()
    assert totals(page) == [12, -4]
    page.context.set_offline(False)


def test_a_num_king_round_waiting_for_the_network_keeps_the_next_rounds_deal_after_a_reload(phone):
    """Issue check: the next round's « /N · 2 cartes » stays, before and after a reload without the engine."""
    page = phone
    sheet_id = new_sheet(page, "numking", ["Léa", "Tom"])
    expect(page.locator("#entry h2")).to_have_text(re.compile(r"^Manche 1/(\d+) · 1 carte\s*$"))
    of = re.search(r"/(\d+)", page.locator("#entry h2").inner_text()).group(1)
    offline_ready(page, sheet_id)
    for field, value in (("#bid-0", "1"), ("#bid-1", "0"), ("#tricks-0", "1"), ("#tricks-1", "0")):
        page.locator(field).fill(value)
    submit(page, page.locator("#save-round"))
    expect(page.locator("tr.pending")).to_have_count(1, timeout=20000)
    title = f"Manche 2/{of} · 2 cartes"
    expect(page.locator("#entry h2")).to_have_text(title)
    reload_without_engine(page)
    expect(page.locator("tr.pending")).to_have_count(1)
    expect(page.locator("#entry h2")).to_have_text(title)
    expect(page.locator("#deal")).to_have_text("🃏 2 cartes par joueur")
    assert totals(page) == [13, 22]
    page.context.set_offline(False)


def test_offline_the_device_reads_a_round_before_it_waits_as_the_server_will(phone):
    """Without network, the in-page engine reads the entry form as the rounds endpoint will: points
    it cannot read are said at once, and a round with nothing entered is asked about first."""
    page = phone
    sheet_id = new_sheet(page, "numx", ["Elya", "Sasha"])
    offline_ready(page, sheet_id)
    page.locator("#points-0").fill("1O")
    page.locator("#points-1").fill("4")
    submit(page, page.locator("#save-round"))
    expect(page.locator("#form-errors")).to_contain_text("Elya : « 1O » n'est pas un nombre entier.")
    expect(page.locator("tr.pending")).to_have_count(0)
    page.locator("#points-0").fill("")
    page.locator("#points-1").fill("")
    submit(page, page.locator("#save-round"))
    expect(page.locator("#empty-question")).to_contain_text("Aucune carte saisie — enregistrer quand même ?")
    expect(page.locator("tr.pending")).to_have_count(0)
    submit(page, page.locator("#confirm-empty"))
    expect(page.locator("tr.pending")).to_have_count(1)
    expect(page.locator("tr.pending")).to_contain_text("en attente de réseau")
    page.context.set_offline(False)
    expect(page.locator("tr.pending")).to_have_count(0, timeout=15000)
    from scoring.models import Round

    assert Round.objects.get(sheet_id=sheet_id).data == {"entries": {"Elya": {"cards": []}, "Sasha": {"cards": []}}}
