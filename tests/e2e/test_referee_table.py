"""« Qui remporte le pli ? » at the table: a Num King hand played trick by trick through the referee on the
sheet's phone, at 360 px, the tricks counting themselves; a player's phone sees each trick's result live."""

import pytest
from playwright.sync_api import expect

from scoring import services, tokens
from scoring.games import GAMES
from scoring.models import Sheet
from tests.e2e.conftest import module, new_sheet, shot, submit, totals
from tests.e2e.test_live_table import PHONE, TABLE, mark, not_reloaded, seat_links
from tests.games.test_numking_tricks_played import BIDS as BID_ENTRIES
from tests.games.test_numking_tricks_played import HAND

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
OPTIONS = {"start": 3}  # round 1 deals 3 cards: a hand of 3 tricks
BIDS = [1, 0, 1, 2]  # Léa, Bruno, Chloé, David
# ms: a write's answer, or another phone's, shown (the machine running the tests may be busy).


@pytest.fixture
def small_phone(new_phone):
    """Return a factory of 360 px French phones, each on its own browser context (JavaScript errors fail the test)."""
    return lambda: new_phone(viewport=PHONE)


def card(page, kind, value=None, name=None):
    """Return the referee's button of one card."""
    if kind == "action":
        return page.locator(f"#referee-picker .ref-card[data-name={name}]")
    if kind == "numx":
        return page.locator("#referee-picker .ref-card[data-kind=numx]")
    return page.locator(f"#referee-picker .ref-card[data-kind={kind}][data-value='{value}']")


def R(page, value):
    return card(page, "rainbow", value)


def S(page, value):
    return card(page, "shadow", value)


def action(page, name):
    return card(page, "action", name=name)


def played(page, number, winner_text, line):
    """Wait until the sheet's phone shows trick ``number`` resolved and stored (the page shown afresh)."""
    result = page.locator("#referee-result")
    expect(result).to_contain_text(f"Pli {number} · {winner_text}")
    expect(result).to_contain_text(line)
    expect(page.locator("#hand-tricks")).to_contain_text(f"Pli {number} · {winner_text}")


def test_a_hand_refereed_trick_by_trick_fills_the_tricks_and_every_phone_sees_each_result(small_phone):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, OPTIONS)
    links = seat_links(creator)
    bruno = small_phone()
    bruno.goto(links["Bruno"])
    expect(bruno.locator("h1")).to_contain_text("Bruno")
    for page in (creator, bruno):
        mark(page)

    # No referee before the bids: a table that does not want it never sees it.
    expect(creator.locator("#referee")).to_have_count(0)
    for seat, bid in enumerate(BIDS):
        creator.locator(f"#bid-{seat}").fill(str(bid))
    creator.locator("#save-bids").click()
    expect(creator.locator("#draft")).to_contain_text("Léa annonce 1")
    referee = creator.locator("#referee")
    expect(referee).to_be_visible()
    expect(referee).not_to_have_attribute("open", "")  # closed: one tap to open
    expect(referee.locator("summary")).to_contain_text("Qui remporte le pli ?")
    expect(referee.locator("summary")).to_contain_text("pli 1 / 3")
    expect(creator.locator("#referee-picker")).to_be_hidden()
    referee.locator("summary").click()
    expect(creator.locator("#referee-title")).to_contain_text("Pli 1 / 3 · Bruno mène")  # the player after the dealer

    # Trick 1: Léa leads (chosen once for the round); Rainbow 12 and Shadow 12 cancel, Léa's 9 takes it.
    creator.locator(".leader-choice[data-player='Léa']").click()
    expect(creator.locator("#referee-title")).to_contain_text("Pli 1 / 3 · Léa mène")
    R(creator, 9).click()
    expect(creator.locator("#referee-leaders")).to_be_hidden()
    S(creator, 4).click()
    R(creator, 12).click()
    shot(creator, "referee-trick-1-three-cards")
    S(creator, 12).click()
    played(creator, 1, "Léa le remporte", "Rainbow 12 et Shadow 12 s'annulent")
    expect(bruno.locator("#hand-tricks")).to_contain_text("Pli 1 · Léa le remporte")
    expect(bruno.locator("#hand-tricks")).to_contain_text("Rainbow 12 et Shadow 12 s'annulent")
    shot(creator, "referee-trick-1-resolved")
    shot(bruno, "referee-seat-sees-trick-1")

    # Trick 2, led by Léa, who took the first: Flash, then Flip replaces it: the lowest card, David's 2.
    expect(creator.locator("#referee")).to_have_attribute("open", "")  # still open after the page was shown afresh
    expect(creator.locator("#referee-title")).to_contain_text("Pli 2 / 3 · Léa mène")
    for cancelled in (R(creator, 9), S(creator, 4), R(creator, 12), S(creator, 12)):
        expect(cancelled).to_be_disabled()  # played already this round
    R(creator, 5).click()
    action(creator, "flash").click()
    action(creator, "flip").click()
    S(creator, 2).click()
    played(creator, 2, "David le remporte", "Flip joué après Flash : la plus petite carte valide gagne")
    expect(bruno.locator("#hand-tricks")).to_contain_text("Pli 2 · David le remporte")

    # Trick 3, led by David: Num-X asks 0 or 17; a card tapped by mistake is taken back.
    expect(creator.locator("#referee-title")).to_contain_text("Pli 3 / 3 · David mène")
    expect(action(creator, "flip")).to_be_disabled()
    card(creator, "numx").click()
    expect(creator.locator("#numx-ask")).to_be_visible()
    expect(creator.locator("#numx-ask")).to_contain_text("0 ou 17 ?")
    shot(creator, "referee-numx-asks")
    creator.locator("#numx-ask button[data-as='0']").click()
    R(creator, 3).click()
    S(creator, 7).click()  # Bruno's card was Shadow 3, not 7: tapped again, it is taken back
    creator.locator("#referee-slots .chip", has_text="Shadow 7").click()
    expect(creator.locator("#referee-slots .slot.next")).to_contain_text("Bruno")
    expect(S(creator, 7)).to_be_enabled()
    S(creator, 3).click()
    action(creator, "quantique").click()
    played(creator, 3, "David le remporte", "David remporte le pli avec ⚡ Num-X 0")
    expect(bruno.locator("#hand-tricks")).to_contain_text("Pli 3 · David le remporte")

    # The hand is over: the tricks column filled itself, and every phone shows it.
    taken = [1, 0, 0, 2]
    for seat, took in enumerate(taken):
        expect(creator.locator(f"#tricks-{seat}")).to_have_value(str(took))
    expect(creator.locator("#referee-title")).to_contain_text("Main terminée")
    expect(creator.locator("#referee-picker")).to_be_hidden()
    expect(bruno.locator("input[name^=tricks-]")).to_have_value("0")
    expect(bruno.locator("#draft")).to_contain_text("Plis joués : 3 / 3")
    shot(creator, "referee-hand-over")
    shot(bruno, "referee-seat-hand-over")
    draft = Sheet.objects.get(pk=sheet_id).draft
    assert len(draft["fields"]["tricks_played"]) == 3
    assert {n: e["tricks"] for n, e in draft["entries"].items()} == dict(zip(TABLE, taken, strict=True))

    submit(creator, creator.locator("#save-round"))
    expected = GAMES["numking"].score(
        TABLE,
        OPTIONS,
        [{"cards": 3, "entries": {n: {"bid": b, "tricks": t} for n, b, t in zip(TABLE, BIDS, taken, strict=True)}}],
    )
    assert totals(creator) == [expected["totals"][n] for n in TABLE]
    sheet = Sheet.objects.get(pk=sheet_id)
    assert sheet.round_count == 1 and sheet.draft == {}
    expect(bruno.locator("#entry h2")).to_contain_text("Manche 2")
    expect(creator.locator("#referee")).to_have_count(0)  # round 2: the bids first
    for page in (creator, bruno):
        assert not_reloaded(page), page.url


def test_a_trick_is_reopened_and_corrected_and_a_stale_page_never_overwrites_another_phone(small_phone):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, OPTIONS)
    services.draft_put(sheet=Sheet.objects.get(pk=sheet_id), entries=BID_ENTRIES, fields={"tricks_played": HAND[:2]})
    watcher = small_phone()
    watcher.goto(f"/w/{sheet_id}/{tokens.read_token(sheet_id)}/")
    creator.reload()
    creator.locator("#referee summary").click()
    expect(creator.locator("#referee-title")).to_contain_text("Pli 3 / 3 · David mène")

    # This page stops following the sheet; meanwhile Bruno changes his bid from his phone.
    creator.evaluate(f"async () => {module('live')}.NumLive.stop()")
    services.draft_entry_put(sheet=Sheet.objects.get(pk=sheet_id), player="Bruno", entry={"bid": 1})
    # Trick 3 is stored all the same (412, read again, sent again): Bruno's bid stays as he sent it.
    card(creator, "numx").click()
    creator.locator("#numx-ask button[data-as='0']").click()
    R(creator, 3).click()
    S(creator, 3).click()
    action(creator, "quantique").click()
    played(creator, 3, "David le remporte", "David remporte le pli avec ⚡ Num-X 0")
    draft = Sheet.objects.get(pk=sheet_id).draft
    assert draft["entries"]["Bruno"] == {"bid": 1, "tricks": 0}
    assert len(draft["fields"]["tricks_played"]) == 3
    for seat, took in enumerate([1, 0, 0, 2]):
        expect(creator.locator(f"#tricks-{seat}")).to_have_value(str(took))

    # Trick 2 reopened: Chloé's card was Shadow 14, not Flip. Flash stays: nobody takes it.
    creator.locator(".reopen[data-index='1']").click()
    expect(creator.locator("#referee-title")).to_contain_text("Correction du pli 2 / 3 · Léa mène")
    expect(creator.locator("#referee-picker")).to_be_visible()
    expect(R(creator, 9)).to_be_disabled()  # trick 1's
    creator.locator("#referee-slots .chip", has_text="Flip").click()
    expect(action(creator, "flip")).to_be_enabled()
    shot(creator, "referee-correcting-trick-2")
    S(creator, 14).click()
    played(creator, 2, "personne ne le remporte", "Flash : le pli est annulé, personne ne le remporte")
    expect(creator.locator("#hand-tricks")).to_contain_text(
        "C'est Chloé qui aurait dû mener ce pli (résultat du pli 2)."
    )
    for seat, took in enumerate([1, 0, 0, 1]):  # the referee's count follows the correction
        expect(creator.locator(f"#tricks-{seat}")).to_have_value(str(took))
    expect(watcher.locator("#hand-tricks")).to_contain_text("Pli 2 · personne ne le remporte")
    expect(watcher.locator("#hand-tricks")).to_contain_text("Chloé : Shadow 14")
    shot(watcher, "referee-watcher-sees-the-correction")


def test_a_hand_tapped_from_two_players_own_phones_fills_the_tricks_column_of_the_sheets_phone(small_phone):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, OPTIONS)
    links = seat_links(creator)
    lea, bruno = small_phone(), small_phone()
    lea.goto(links["Léa"])
    bruno.goto(links["Bruno"])
    for page in (creator, lea, bruno):
        mark(page)
    for seat, bid in enumerate(BIDS):
        creator.locator(f"#bid-{seat}").fill(str(bid))
    creator.locator("#save-bids").click()

    # Every bid in: each player's own phone has the referee too, closed until tapped.
    for phone in (lea, bruno):
        referee = phone.locator("#referee")
        expect(referee).to_be_visible()
        expect(referee).not_to_have_attribute("open", "")
        expect(phone.locator("#referee-picker")).to_be_hidden()
    shot(lea, "referee-seat-closed")

    # Trick 1 from Léa's phone: she leads; Rainbow 12 and Shadow 12 cancel, her 9 takes it.
    lea.locator("#referee summary").click()
    expect(lea.locator("#referee-title")).to_contain_text("Pli 1 / 3 · Bruno mène")
    lea.locator(".leader-choice[data-player='Léa']").click()
    expect(lea.locator("#referee-title")).to_contain_text("Pli 1 / 3 · Léa mène")
    for button in (R(lea, 9), S(lea, 4), R(lea, 12), S(lea, 12)):
        button.click()
    played(lea, 1, "Léa le remporte", "Rainbow 12 et Shadow 12 s'annulent")
    for phone in (creator, bruno):
        expect(phone.locator("#hand-tricks")).to_contain_text("Pli 1 · Léa le remporte")
    shot(lea, "referee-seat-trick-1")

    # Trick 2 from Bruno's phone, led by Léa: Flash, then Flip replaces it: David's 2, the lowest.
    bruno.locator("#referee summary").click()
    expect(bruno.locator("#referee-title")).to_contain_text("Pli 2 / 3 · Léa mène")
    for cancelled in (R(bruno, 9), S(bruno, 4), R(bruno, 12), S(bruno, 12)):
        expect(cancelled).to_be_disabled()  # played already this round, on another phone
    R(bruno, 5).click()
    action(bruno, "flash").click()
    expect(action(bruno, "flash")).to_be_disabled()  # a card on the table is not tapped twice
    action(bruno, "flip").click()
    S(bruno, 2).click()
    played(bruno, 2, "David le remporte", "Flip joué après Flash : la plus petite carte valide gagne")
    for phone in (creator, lea):
        expect(phone.locator("#hand-tricks")).to_contain_text("Pli 2 · David le remporte")
    expect(lea.locator("#referee-result")).to_contain_text("Pli 2 · David le remporte")
    shot(bruno, "referee-seat-trick-2")

    # Trick 3 from Léa's phone again, led by David: Num-X asks 0 or 17; a wrong card is taken back.
    expect(lea.locator("#referee-title")).to_contain_text("Pli 3 / 3 · David mène")
    expect(action(lea, "flip")).to_be_disabled()
    card(lea, "numx").click()
    expect(lea.locator("#numx-ask")).to_contain_text("0 ou 17 ?")
    lea.locator("#numx-ask button[data-as='0']").click()
    R(lea, 3).click()
    S(lea, 7).click()
    lea.locator("#referee-slots .chip", has_text="Shadow 7").click()
    expect(lea.locator("#referee-slots .slot.next")).to_contain_text("Bruno")
    S(lea, 3).click()
    action(lea, "quantique").click()
    played(lea, 3, "David le remporte", "David remporte le pli avec ⚡ Num-X 0")

    # The tricks column of the sheet's phone fills by itself; each player's phone shows its own count.
    taken = [1, 0, 0, 2]
    for seat, took in enumerate(taken):
        expect(creator.locator(f"#tricks-{seat}")).to_have_value(str(took))
    expect(lea.locator("input[name^=tricks-]")).to_have_value("1")
    expect(bruno.locator("input[name^=tricks-]")).to_have_value("0")
    expect(bruno.locator("#referee-title")).to_contain_text("Main terminée")
    shot(creator, "referee-seats-hand-over")
    submit(creator, creator.locator("#save-round"))
    expected = GAMES["numking"].score(
        TABLE,
        OPTIONS,
        [{"cards": 3, "entries": {n: {"bid": b, "tricks": t} for n, b, t in zip(TABLE, BIDS, taken, strict=True)}}],
    )
    assert totals(creator) == [expected["totals"][n] for n in TABLE]
    assert Sheet.objects.get(pk=sheet_id).round_count == 1
    for phone in (lea, bruno):
        expect(phone.locator("#entry h2")).to_contain_text("Manche 2")
    for page in (creator, lea, bruno):
        assert not_reloaded(page), page.url


def test_two_players_phones_tapping_the_same_trick_store_it_once(small_phone):
    creator = small_phone()
    sheet_id = new_sheet(creator, "numking", TABLE, OPTIONS)
    services.draft_put(sheet=Sheet.objects.get(pk=sheet_id), entries=BID_ENTRIES, fields={"tricks_played": HAND[:1]})
    lea, bruno = small_phone(), small_phone()
    for phone, seat in ((lea, 0), (bruno, 1)):
        phone.goto(f"/p/{sheet_id}/{seat}/{tokens.entry_token(sheet_id, seat)}/")
        phone.locator("#referee summary").click()
        expect(phone.locator("#referee-title")).to_contain_text("Pli 2 / 3 · Léa mène")
    # Léa's phone has not heard of Bruno's write yet when she taps the last card of the same trick.
    lea.evaluate(f"async () => {module('live')}.NumLive.stop()")
    for phone in (bruno, lea):
        R(phone, 5).click()
        action(phone, "flash").click()
        action(phone, "flip").click()
        S(phone, 2).click()
        if phone is bruno:
            played(bruno, 2, "David le remporte", "Flip joué après Flash")
    # Her phone got 412, read the hand again, found trick 2 there and shows the hand as it is.
    expect(lea.locator("#referee-result")).to_contain_text("Un autre téléphone a enregistré ce pli entre-temps")
    expect(lea.locator("#hand-tricks")).to_contain_text("Pli 2 · David le remporte")
    expect(lea.locator("#referee-title")).to_contain_text("Pli 3 / 3 · David mène")
    shot(lea, "referee-seat-same-trick-twice")
    assert Sheet.objects.get(pk=sheet_id).draft["fields"]["tricks_played"] == HAND[:2]
