"""The table's phones fill in one round together: each player from their own phone."""

import pytest
from playwright.sync_api import expect

from scoring import services, tokens
from scoring.models import Round, Sheet
from tests.e2e.conftest import new_sheet, shot, submit, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
KING = ["Léa", "Marc", "Nina"]


def seat_links(page) -> dict[str, str]:
    page.locator("#seat-links > summary").click()
    urls = page.locator("input.seat-url").evaluate_all("els => els.map(e => e.value)")
    return dict(zip(KING, urls, strict=False))


def send(phone, field: str, value: int):
    phone.locator(f"input[name^={field}-]").fill(str(value))
    phone.locator("#save-entry").click()
    expect(phone.locator("#seat-status")).to_contain_text("✓")


def test_four_phones_play_a_num_king_round_bids_first(new_phone):
    creator = new_phone()
    sheet_id = new_sheet(creator, "numking", KING)
    links = seat_links(creator)
    watcher = new_phone()
    watcher.goto(f"/w/{sheet_id}/{tokens.read_token(sheet_id)}/")
    phones = {name: new_phone() for name in KING}
    for name, phone in phones.items():
        phone.goto(links[name])
        expect(phone.locator("h1")).to_contain_text(name)
    bids = {"Léa": 1, "Marc": 0, "Nina": 0}
    for name, bid in bids.items():
        send(phones[name], "bid", bid)
    # The sheet's phone and a watcher see every bid within 3 s, without a reload by hand.
    for page in (creator, watcher):
        draft = page.locator("#draft")
        for name, bid in bids.items():
            expect(draft.locator("li", has_text=name)).to_contain_text(f" {bid}")
    expect(creator.locator("#bid-0")).to_have_value("1")
    shot(creator, "table-bids-creator")
    shot(watcher, "table-bids-watcher")
    # After the hand, each player enters the tricks they took.
    tricks = {"Léa": 1, "Marc": 0, "Nina": 0}
    for name, took in tricks.items():
        phones[name].reload()
        send(phones[name], "tricks", took)
    expect(creator.locator("#draft")).to_contain_text("3/3")
    expect(creator.locator("#tricks-0")).to_have_value("1")
    shot(phones["Léa"], "table-player-phone")
    submit(creator, creator.locator("#save-round"))
    expect(creator.locator("table.scores tbody tr")).to_have_count(1)
    stored = Round.objects.get(sheet_id=sheet_id).data
    assert {n: e["bid"] for n, e in stored["entries"].items()} == bids
    assert {n: e["tricks"] for n, e in stored["entries"].items()} == tricks
    engine = services.score("numking", KING, {}, [stored], "fr")["totals"]
    expect(creator.locator("table.scores tfoot")).to_be_visible()
    assert totals(creator) == [engine[n] for n in KING]
    assert Sheet.objects.get(pk=sheet_id).draft == {}


def test_each_player_picks_their_own_cards_and_a_card_picked_twice_is_refused(new_phone):
    creator = new_phone()
    sheet_id = new_sheet(creator, "numx", ["Léa", "Marc"], {"mode": "speedrun"})
    creator.locator("#seat-links > summary").click()
    urls = creator.locator("input.seat-url").evaluate_all("els => els.map(e => e.value)")
    lea, marc = new_phone(), new_phone()
    for phone, url in ((lea, urls[0]), (marc, urls[1])):
        phone.goto(url)
        phone.locator(".colour.c-red").click()
        phone.locator(".value[data-value='7']").click()
    lea.locator("#save-entry").click()
    expect(lea.locator("#seat-status")).to_contain_text("✓")
    marc.locator("#save-entry").click()
    expect(marc.locator("#seat-status")).to_contain_text("Léa")
    expect(marc.locator("#seat-status")).not_to_contain_text("✓")
    shot(marc, "table-card-refused")
    draft = Sheet.objects.get(pk=sheet_id).draft
    assert draft["entries"] == {"Léa": {"cards": [{"kind": "red", "value": 7}]}}
    expect(creator.locator("#draft")).to_contain_text("1/2")


def test_a_players_entry_waits_on_the_phone_while_the_network_is_down(new_phone):
    creator = new_phone()
    sheet_id = new_sheet(creator, "numking", KING)
    links = seat_links(creator)
    phone = new_phone()
    phone.goto(links["Nina"])
    phone.context.set_offline(True)
    phone.locator("input[name^=bid-]").fill("1")
    phone.locator("#save-entry").click()
    expect(phone.locator("#seat-status")).to_contain_text("⏳")
    assert Sheet.objects.get(pk=sheet_id).draft == {}
    phone.context.set_offline(False)
    expect(phone.locator("#seat-status")).to_contain_text("✓")
    assert Sheet.objects.get(pk=sheet_id).draft["entries"] == {"Nina": {"bid": 1}}


def test_the_sheets_phone_keeps_what_it_typed_and_takes_the_other_phones_entries(new_phone):
    creator = new_phone()
    sheet_id = new_sheet(creator, "numking", KING)
    links = seat_links(creator)
    creator.locator("#bid-0").fill("1")  # typed on the sheet's phone, kept as its draft
    marc = new_phone()
    marc.goto(links["Marc"])
    send(marc, "bid", 1)
    # Marc's bid comes in by itself, beside what this phone typed, with no reload.
    creator.evaluate("window.__same = document.querySelector('#sheet-data') && performance.timeOrigin")
    expect(creator.locator("#draft li", has_text="Marc")).to_contain_text("1")
    assert creator.evaluate("window.__same === performance.timeOrigin")
    expect(creator.locator("#bid-0")).to_have_value("1")  # what this phone typed survived
    expect(creator.locator("#bid-1")).to_have_value("1")  # and Marc's phone's bid came in
    assert Sheet.objects.get(pk=sheet_id).draft["entries"] == {"Marc": {"bid": 1}}


def test_the_sheets_phone_still_takes_the_players_entries_after_saving_a_round_in_place(new_phone):
    creator = new_phone()
    sheet_id = new_sheet(creator, "numking", KING)
    links = seat_links(creator)
    for seat, (bid, took) in enumerate(((1, 1), (0, 0), (0, 0))):
        creator.locator(f"#bid-{seat}").fill(str(bid))
        creator.locator(f"#tricks-{seat}").fill(str(took))
    board = creator.locator("#board")
    submit(creator, creator.locator("#save-round"))  # saved in place: the page is not loaded again
    expect(creator.locator("table.scores tbody tr")).to_have_count(1)
    expect(creator.locator("#board")).to_have_attribute("data-version", str(Sheet.objects.get(pk=sheet_id).version))
    assert board.count() == 1
    # Round 2: Marc announces his bid from his own phone; the sheet's phone, untouched since the save, takes it.
    marc = new_phone()
    marc.goto(links["Marc"])
    send(marc, "bid", 2)
    expect(creator.locator("#bid-1")).to_have_value("2")
    expect(creator.locator("#draft li", has_text="Marc")).to_contain_text("2")
    # Typed here since: the next entry is offered, not forced in.
    creator.locator("#bid-0").fill("1")
    nina = new_phone()
    nina.goto(links["Nina"])
    send(nina, "bid", 1)
    expect(creator.locator("#bid-2")).to_have_value("1")
    expect(creator.locator("#bid-0")).to_have_value("1")
