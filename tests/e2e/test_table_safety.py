"""Nothing typed is lost at the table, on a phone: drafts, rounds saved offline, undo with
Restore, the empty-round question, one-step Back. Screenshots at 390 and 360 px."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from scoring.models import IdempotentRequest, Round, Sheet
from tests.e2e.conftest import JS_ERRORS, TIMEOUT_MS, new_sheet, round_count, shot, submit, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Competition scoring: the short rules' form picks the cards or takes typed points (classic scoring counts them).
PICKED = {"scoring": "competition"}
NARROW = {"width": 360, "height": 780}


@pytest.fixture
def narrow_phone(browser, live_server, request):
    errors = request.node.stash.setdefault(JS_ERRORS, [])
    context = browser.new_context(viewport=NARROW, locale="fr-FR", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    yield page
    context.close()


def pick(hand, *cards):
    if hand.locator(".picker").is_hidden():
        hand.locator(".hand-toggle").click()
    for kind, value in cards:
        hand.locator(f".colour[data-kind='{kind}']").click()
        hand.locator(f".value[data-value='{value}']").click()


def chips(hand) -> list[str]:
    return [c.replace(" ×", "") for c in hand.locator(".chips .chip").all_inner_texts()]


def type_points(page, *points):
    for seat, pts in enumerate(points):
        page.locator(f"#points-{seat}").fill(str(pts))


def api(live_server, method, path, body=None, token=""):
    req = urllib.request.Request(
        live_server.url + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"X-Edit-Token": token} if token else {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@pytest.mark.parametrize("width", [390, 360])
def test_it_keeps_the_picks_across_a_reload_and_clears_them_on_request(phone, narrow_phone, width):
    page = phone if width == 390 else narrow_phone
    new_sheet(page, "numx", ["Elya", "Sasha"])
    elya, sasha = page.locator("fieldset.hand").nth(0), page.locator("fieldset.hand").nth(1)
    pick(elya, ("red", 7), ("blue", 7), ("green", 3))
    sasha.locator(".hand-toggle").click()
    page.locator("#points-1").fill("12")
    assert chips(elya) == ["7", "7", "3"]

    page.reload()
    expect(page.locator("#draft-state")).to_contain_text("Saisie reprise")
    assert chips(elya) == ["7", "7", "3"]
    expect(page.locator("#points-1")).to_have_value("12")
    expect(elya.locator("output.live")).to_have_text(re.compile(r"= \d+ pts"))
    shot(page, f"safety-draft-restored-{width}")

    # A killed browser: a new page of the same phone finds the draft too.
    again = page.context.new_page()
    again.goto(page.url)
    assert chips(again.locator("fieldset.hand").nth(0)) == ["7", "7", "3"]
    again.close()

    page.locator("#clear-draft").click()
    expect(page.locator("#draft-state")).to_have_text("Saisie effacée")
    assert chips(elya) == []
    expect(page.locator("#points-1")).to_have_value("")
    page.reload()
    assert chips(page.locator("fieldset.hand").nth(0)) == []
    expect(page.locator("#points-1")).to_have_value("")


def test_it_saves_rounds_offline_and_sends_each_exactly_once(phone):
    page = phone
    sheet_id = new_sheet(page, "numx-malus", ["Léa", "Tom"], PICKED)
    type_points(page, 3, 5)
    submit(page, page.locator("#save-round"))
    assert totals(page) == [3, 5]

    page.context.set_offline(True)
    type_points(page, 4, 2)
    submit(page, page.locator("#save-round"))
    expect(page.locator("tr.pending")).to_have_count(1)
    expect(page.locator("#entry h2")).to_have_text("Manche 3")
    expect(page.locator("#points-0")).to_have_value("")
    type_points(page, 1, 6)
    submit(page, page.locator("#save-round"))
    pending = page.locator("tr.pending")
    expect(pending).to_have_count(2)
    expect(pending.nth(0)).to_contain_text("en attente de réseau")
    expect(pending.nth(0)).to_contain_text("points calculés au retour du réseau")
    expect(pending.nth(1).locator("th")).to_contain_text("3")
    expect(page.locator("#entry h2")).to_have_text("Manche 4")
    expect(page.locator("#outbox-note")).to_contain_text("2 manches en attente de réseau")
    assert Sheet.objects.get(pk=sheet_id).round_count == 1
    shot(page, "safety-offline-pending-390")

    page.context.set_offline(False)  # the page hears "online" and sends, in order
    expect(page.locator("tr.pending")).to_have_count(0, timeout=15000)
    assert round_count(page) == 3
    assert totals(page) == [8, 13]
    expect(page.locator("#outbox-note")).to_be_hidden()
    expect(page.locator("#entry h2")).to_have_text("Manche 4")
    rounds = list(Round.objects.filter(sheet_id=sheet_id).order_by("number").values_list("number", "data"))
    assert rounds == [
        (1, {"entries": {"Léa": {"points": 3}, "Tom": {"points": 5}}}),
        (2, {"entries": {"Léa": {"points": 4}, "Tom": {"points": 2}}}),
        (3, {"entries": {"Léa": {"points": 1}, "Tom": {"points": 6}}}),
    ]
    # Each offline round went with its own key, and was stored once.
    assert IdempotentRequest.objects.filter(sheet_id=sheet_id).count() == 3
    assert len(set(IdempotentRequest.objects.filter(sheet_id=sheet_id).values_list("key", flat=True))) == 3


def test_it_shows_a_refused_outbox_round_and_lets_the_player_load_it_back_or_discard_it(phone, live_server):
    page = phone
    status, created = api(
        live_server, "POST", "/api/v1/sheets/", {"game": "numx-malus", "players": ["Léa", "Tom"], "options": PICKED}
    )
    assert status == 201
    sheet_id, token = created["id"], created["edit_token"]
    page.goto(created["edit_url"])
    expect(page.locator("#entry h2")).to_have_text("Manche 1")

    page.context.set_offline(True)
    type_points(page, 3, 5)
    submit(page, page.locator("#save-round"))
    type_points(page, 4, 4)
    submit(page, page.locator("#save-round"))
    expect(page.locator("tr.pending")).to_have_count(2)
    # Meanwhile another phone adds round 1 through the API.
    status, _ = api(
        live_server,
        "POST",
        f"/api/v1/sheets/{sheet_id}/rounds/",
        {"number": 1, "entries": {"Léa": {"points": 1}, "Tom": {"points": 1}}},
        token,
    )
    assert status == 201

    page.context.set_offline(False)
    refused = page.locator("tr.pending.refused")
    expect(refused).to_have_count(1, timeout=15000)
    expect(refused).to_contain_text("Un autre téléphone a changé la feuille : la manche 1 n'a pas été ajoutée.")
    expect(page.locator("tr.pending:not(.refused)")).to_have_count(1)  # round 2 waits behind it
    assert round_count(page) == 1
    shot(page, "safety-refused-390")

    # Load it back: the form holds it as typed; the round waiting behind it goes on.
    refused.get_by_role("button", name="Reprendre dans la saisie").click()
    expect(page.locator("#points-0")).to_have_value("3")
    expect(page.locator("#points-1")).to_have_value("5")
    expect(page.locator("tr.pending")).to_have_count(0, timeout=15000)
    expect(page.locator("#points-0")).to_have_value("3")  # the page came back fresh, the draft with it
    expect(page.locator("#entry h2")).to_have_text("Manche 3")
    submit(page, page.locator("#save-round"))
    expect(page.locator("#entry h2")).to_have_text("Manche 4")
    datas = list(Round.objects.filter(sheet_id=sheet_id).order_by("number").values_list("data", flat=True))
    assert [d["entries"]["Léa"]["points"] for d in datas] == [1, 4, 3]

    # Discard: nothing is stored, the row goes.
    page.context.set_offline(True)
    type_points(page, 2, 2)
    submit(page, page.locator("#save-round"))
    status, _ = api(
        live_server,
        "POST",
        f"/api/v1/sheets/{sheet_id}/rounds/",
        {"number": 4, "entries": {"Léa": {"points": 9}, "Tom": {"points": 9}}},
        token,
    )
    assert status == 201
    page.context.set_offline(False)
    expect(refused).to_have_count(1, timeout=15000)
    refused.get_by_role("button", name="Abandonner cette manche").click()
    expect(page.locator("tr.pending")).to_have_count(0)
    assert Sheet.objects.get(pk=sheet_id).round_count == 4
    assert Round.objects.get(sheet_id=sheet_id, number=4).data["entries"]["Léa"] == {"points": 9}


def test_it_removes_a_round_at_once_and_restores_it_exactly(phone, narrow_phone):
    for page, width in ((phone, 390), (narrow_phone, 360)):
        sheet_id = new_sheet(page, "numx-malus", ["Léa", "Tom"], PICKED)
        type_points(page, 3, 5)
        submit(page, page.locator("#save-round"))
        pick(page.locator("fieldset.hand").nth(0), ("red", 7), ("blue", 2))
        page.locator("#points-1").fill("2")
        submit(page, page.locator("#save-round"))
        before = Round.objects.get(sheet_id=sheet_id, number=2).data
        shown = totals(page)
        # The remove control is in the header, far above Save.
        undo = page.locator("form.undo button")
        save_top = page.locator("#save-round").bounding_box()["y"]
        assert save_top - undo.bounding_box()["y"] > 300
        # The toast's time runs on the page's clock, held still from here on: the test moves it
        # on 10 s at once, and neither a busy machine nor a slow screenshot eats into the toast's life.
        page.clock.install()
        page.clock.pause_at(page.evaluate("Date.now()") + 1)
        submit(page, undo)
        toast = page.locator("#undo-toast")
        expect(toast).to_contain_text("Manche 2 supprimée")
        assert round_count(page) == 1
        page.clock.run_for(10_000)
        expect(toast).to_be_visible()  # still offered 10 seconds after it appeared
        shot(page, f"safety-undo-toast-{width}")
        submit(page, toast.get_by_role("button", name="Rétablir"))
        expect(page.locator("ul.messages")).to_contain_text("Manche 2 rétablie.")
        assert round_count(page) == 2
        assert totals(page) == shown
        assert Round.objects.get(sheet_id=sheet_id, number=2).data == before


# A browser whose FormData takes no submitter (Safari before 16.4): the form, not the button.
OLD_FORMDATA = """(() => {
  const Original = window.FormData;
  window.FormData = class extends Original { constructor(form) { super(form); } };
})()"""


@pytest.mark.parametrize("formdata", ["today's", "without the submitter"])
def test_it_asks_before_saving_a_round_with_nothing_entered(phone, formdata):
    page = phone
    if formdata != "today's":
        page.add_init_script(OLD_FORMDATA)
    sheet_id = new_sheet(page, "numx", ["Elya", "Sasha"])
    submit(page, page.locator("#save-round"))
    question = page.locator("#empty-question")
    expect(question).to_contain_text("Aucune carte saisie — enregistrer quand même ?")
    assert Sheet.objects.get(pk=sheet_id).round_count == 0
    pick(page.locator("fieldset.hand").nth(0), ("red", 7), ("blue", 7))
    submit(page, page.locator("#save-round"))
    expect(question).to_contain_text("Aucune carte saisie pour Sasha — enregistrer quand même ?")
    shot(page, "safety-empty-question-390")
    assert Sheet.objects.get(pk=sheet_id).round_count == 0
    submit(page, page.locator("#confirm-empty"))
    expect(page.locator("#empty-question")).to_have_count(0)
    assert Round.objects.get(sheet_id=sheet_id).data["entries"]["Sasha"] == {"cards": []}


def test_back_after_three_rounds_leaves_the_sheet_in_one_step(phone):
    page = phone
    page.goto("/")
    sheet_id = new_sheet(page, "numx-malus", ["Léa", "Tom"], PICKED)
    for pts in ((1, 2), (3, 4), (5, 6)):
        type_points(page, *pts)
        submit(page, page.locator("#save-round"))
    assert round_count(page) == 3
    # After saving, the totals and the next round's entry are on screen.
    expect(page.locator("#totals tfoot")).to_be_in_viewport()
    expect(page.locator("#entry h2")).to_be_in_viewport()
    shot(page, "safety-after-save-390")
    page.go_back()
    page.wait_for_url("**/new/numx-malus/")
    assert Sheet.objects.count() == 1  # the creation was not sent again
    page.go_back()
    page.wait_for_url(re.compile(r"/$"))
    page.go_forward()
    page.go_forward()
    page.wait_for_url(f"**/sheets/{sheet_id}/")
    # Brought back from the browser's history, the page shows the sheet as stored.
    expect(page.locator("table.scores tbody tr:has(details.cell)")).to_have_count(3)
