"""The live table: five phones follow a Num King game as it is played, pushed by the server, never reloaded."""

import pytest
from playwright.sync_api import expect

from scoring import tokens
from scoring.games import GAMES
from scoring.models import Sheet
from tests.e2e.conftest import new_sheet, shot, submit, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TABLE = ["Léa", "Bruno", "Chloé", "David"]
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def small_phone(new_phone):
    """A factory of 360 × 740 French phones, each on its own browser context."""
    return lambda: new_phone(viewport=PHONE)


def seat_links(page) -> dict[str, str]:
    page.locator("#seat-links > summary").click()
    urls = page.locator("input.seat-url").evaluate_all("els => els.map(e => e.value)")
    page.locator("#seat-links > summary").click()
    return dict(zip(TABLE, urls, strict=True))


def send(phone, field: str, value: int):
    phone.locator(f"input[name^={field}-]").fill(str(value))
    phone.locator("#save-entry").click()
    expect(phone.locator("#seat-status")).to_contain_text("✓")


def mark(page):
    """Mark the page: a reload would wipe the mark."""
    page.evaluate("window.__notReloaded = true")


def not_reloaded(page) -> bool:
    return page.evaluate("window.__notReloaded === true")


# Bids and tricks for the five rounds (5 to 9 cards), Léa's first; tricks never exceed the cards.
PLAY = [
    ([1, 2, 0, 1], [1, 1, 0, 2]),
    ([2, 0, 1, 1], [2, 0, 1, 1]),
    ([0, 3, 2, 1], [1, 3, 2, 0]),
    ([3, 1, 2, 0], [3, 1, 1, 0]),
    ([2, 2, 2, 2], [2, 3, 2, 2]),
]


def test_five_phones_play_a_whole_num_king_game_without_a_reload(small_phone):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, {"start": 5})
    links = seat_links(creator)
    watcher = small_phone()
    watcher.goto(f"/w/{sheet_id}/{tokens.read_token(sheet_id)}/")
    phones = {name: small_phone() for name in TABLE[1:]}
    for name, phone in phones.items():
        phone.goto(links[name])
        expect(phone.locator("h1")).to_contain_text(name)
    every = [creator, watcher, *phones.values()]
    for page in every:
        mark(page)

    rounds = []
    for index, (bids, tricks) in enumerate(PLAY):
        number, cards = index + 1, index + 5
        for phone in phones.values():
            expect(phone.locator("#entry h2")).to_contain_text(f"Manche {number}")
            expect(phone.locator("input[name^=bid-]")).to_have_value("")
            expect(phone.locator("input[name^=bid-]")).to_have_attribute("max", str(cards))
            expect(phone.locator("input[name^=tricks-]")).to_have_count(0)  # the bids first
        # The players bid from their phones; the sheet's phone sees each bid come in.
        for seat, name in enumerate(TABLE[1:], start=1):
            send(phones[name], "bid", bids[seat])
            expect(creator.locator(f"#bid-{seat}")).to_have_value(str(bids[seat]))
        creator.locator("#bid-0").fill(str(bids[0]))
        creator.locator("#save-bids").click()
        expect(creator.locator("#draft")).to_contain_text(f"Léa annonce {bids[0]}")
        # Every bid in: each player's phone shows the table's bids and asks for the tricks.
        for phone in phones.values():
            expect(phone.locator("#bids-shown")).to_contain_text(
                " · ".join(f"{n} {b}" for n, b in zip(TABLE, bids, strict=True))
            )
            expect(phone.locator("input[name^=tricks-]")).to_have_value("")
        if index == 0:
            shot(phones["Bruno"], "live-table-tricks-phase")
        for seat, name in enumerate(TABLE[1:], start=1):
            send(phones[name], "tricks", tricks[seat])
            expect(creator.locator(f"#tricks-{seat}")).to_have_value(str(tricks[seat]))
        creator.locator("#tricks-0").fill(str(tricks[0]))
        submit(creator, creator.locator("#save-round"))
        rounds.append(
            {
                "cards": cards,
                "entries": {n: {"bid": b, "tricks": t} for n, b, t in zip(TABLE, bids, tricks, strict=True)},
            }
        )
        expected = GAMES["numking"].score(TABLE, {"start": 5}, rounds, "fr")
        # The watcher's board follows each saved round.
        expect(watcher.locator("table.scores tbody tr:has(details.cell)")).to_have_count(number)
        if number < len(PLAY):
            assert totals(creator) == [expected["totals"][n] for n in TABLE]

    for phone in phones.values():
        expect(phone.locator(".banner", has_text="La partie est terminée")).to_be_visible()
    expected = GAMES["numking"].score(TABLE, {"start": 5}, rounds, "fr")
    assert expected["finished"]
    for page in (creator, watcher):
        assert totals(page) == [expected["totals"][n] for n in TABLE]
    assert Sheet.objects.get(pk=sheet_id).round_count == 5
    shot(phones["Chloé"], "live-table-over")
    for page in every:
        assert not_reloaded(page), page.url


def test_last_rounds_tricks_never_reach_the_next_round(small_phone):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, {"start": 5})
    links = seat_links(creator)
    david = small_phone()
    david.goto(links["David"])
    # Round 1, entered on the sheet's phone; David's phone is away (offline) meanwhile.
    david.context.set_offline(True)
    for seat, (bid, took) in enumerate(((1, 1), (2, 2), (0, 0), (3, 1))):
        creator.locator(f"#bid-{seat}").fill(str(bid))
        creator.locator(f"#tricks-{seat}").fill(str(took))
    # David sends his round 1 bid from the phone that is still away: it waits on the phone.
    david.locator("input[name^=bid-]").fill("3")
    david.locator("#save-entry").click()
    expect(david.locator("#seat-status")).to_contain_text("⏳")
    submit(creator, creator.locator("#save-round"))
    assert Sheet.objects.get(pk=sheet_id).round_count == 1
    # Back on the network: the late round 1 bid is refused for round 2, the phone shows round 2,
    # and offers the bid again, as a bid alone.
    david.context.set_offline(False)
    expect(david.locator("#entry h2")).to_contain_text("Manche 2")
    expect(david.locator("#seat-status")).to_contain_text("La manche 1 a été enregistrée")
    expect(david.locator("input[name^=bid-]")).to_have_value("")
    keep = david.locator(".late-keep")
    expect(keep).to_have_text("Annoncer 3 pour la manche 2")
    assert Sheet.objects.get(pk=sheet_id).draft == {}
    keep.click()
    expect(david.locator("#seat-status")).to_contain_text("✓")
    assert Sheet.objects.get(pk=sheet_id).draft["entries"] == {"David": {"bid": 3}}
    # The sheet's phone shows David's bid for round 2, and no tricks box is filled from round 1.
    expect(creator.locator("#bid-3")).to_have_value("3")
    for seat in range(4):
        expect(creator.locator(f"#tricks-{seat}")).to_have_value("")
    expect(creator.locator("#draft")).to_contain_text("David")
    expect(creator.locator("#draft")).not_to_contain_text("plis")


def test_a_phone_that_slept_catches_up_as_it_wakes(small_phone):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, {"start": 5})
    links = seat_links(creator)
    chloe = small_phone()
    chloe.goto(links["Chloé"])
    mark(chloe)
    cdp = chloe.context.new_cdp_session(chloe)
    cdp.send("Page.setWebLifecycleState", {"state": "frozen"})  # the app in the background
    for seat, (bid, took) in enumerate(((1, 1), (2, 2), (0, 0), (3, 1))):
        creator.locator(f"#bid-{seat}").fill(str(bid))
        creator.locator(f"#tricks-{seat}").fill(str(took))
    submit(creator, creator.locator("#save-round"))
    assert Sheet.objects.get(pk=sheet_id).round_count == 1
    cdp.send("Page.setWebLifecycleState", {"state": "active"})
    expect(chloe.locator("#entry h2")).to_contain_text("Manche 2")
    expect(chloe.locator("input[name^=bid-]")).to_have_attribute("max", "6")
    assert not_reloaded(chloe)


@pytest.mark.parametrize("how", ["no EventSource", "streams refused"])
def test_a_phone_without_the_stream_follows_by_asking(small_phone, settings, how):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, {"start": 5})
    links = seat_links(creator)
    bruno = small_phone()
    if how == "no EventSource":
        bruno.add_init_script("delete window.EventSource")
    else:
        settings.LIVE_MAX_STREAMS = 0  # every stream is answered 503: the page asks now and then
    bruno.goto(links["Bruno"])
    mark(bruno)
    for seat, (bid, took) in enumerate(((1, 1), (2, 2), (0, 0), (3, 1))):
        creator.locator(f"#bid-{seat}").fill(str(bid))
        creator.locator(f"#tricks-{seat}").fill(str(took))
    submit(creator, creator.locator("#save-round"))
    assert Sheet.objects.get(pk=sheet_id).round_count == 1
    expect(bruno.locator("#entry h2")).to_contain_text("Manche 2")
    assert not_reloaded(bruno)


def test_saisie_reprise_is_said_only_when_a_kept_entry_is_put_back(small_phone):
    creator = small_phone()
    new_sheet(creator, "numking", TABLE, {"start": 5})
    mark(creator)
    for seat, bid in enumerate((1, 2, 0, 1)):
        creator.locator(f"#bid-{seat}").fill(str(bid))
    creator.locator("#save-bids").click()
    expect(creator.locator("#draft")).to_contain_text("Léa annonce 1")
    assert not_reloaded(creator)  # the bids were saved in place
    expect(creator.locator("#draft-state")).not_to_contain_text("reprise")
    creator.reload()
    expect(creator.locator("#bid-0")).to_have_value("1")
    expect(creator.locator("#draft-state")).not_to_contain_text("reprise")  # the server has them: nothing put back
    creator.locator("#tricks-0").fill("1")  # typed, kept on the phone, not sent
    creator.reload()
    expect(creator.locator("#tricks-0")).to_have_value("1")
    expect(creator.locator("#draft-state")).to_contain_text("Saisie reprise")
