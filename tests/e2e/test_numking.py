"""Num King played to the end on a phone, totals checked against the spec's formulas."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import new_sheet, shot, submit, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Alice", "Bruno", "Chloé", "David"]
# Round k deals k cards (4 players: 36 // 4 = 9 rounds). (bids, tricks) per round.
PLAN = [
    ([0, 1, 0, 0], [0, 1, 0, 0]),
    ([1, 0, 1, 0], [1, 0, 1, 0]),
    ([1, 1, 0, 1], [1, 0, 1, 1]),
    ([2, 1, 1, 0], [2, 1, 1, 0]),
    ([2, 2, 0, 1], [2, 1, 0, 2]),
    ([3, 0, 2, 1], [3, 0, 1, 2]),
    ([2, 3, 2, 0], [1, 3, 3, 0]),
    ([4, 2, 1, 1], [4, 2, 1, 1]),
    ([3, 3, 3, 0], [2, 3, 3, 0]),
]


def spec_points(bid: int, took: int, cards: int) -> int:
    """scoring.md, Num King: one player's round."""
    if bid == 0:
        return 20 + 2 * cards if took == 0 else -(10 + 5 * took)
    return 10 + 3 * bid if took == bid else -3 * abs(bid - took)


def spec_bonus(longest: int) -> int:
    """scoring.md, Num King: bonus of the longest run of exact rounds."""
    return 40 if longest >= 5 else {2: 5, 3: 10, 4: 15}.get(longest, 0)


def expected_after(rounds: int) -> tuple[list[int], list[int]]:
    """Return (totals with the streak bonus, bonuses) after the first `rounds` rounds."""
    sums, bonuses = [], []
    for seat in range(len(PLAYERS)):
        total = run = best = 0
        for k, (bids, tricks) in enumerate(PLAN[:rounds], start=1):
            total += spec_points(bids[seat], tricks[seat], k)
            run = run + 1 if bids[seat] == tricks[seat] else 0
            best = max(best, run)
        bonuses.append(spec_bonus(best))
        sums.append(total + bonuses[-1])
    return sums, bonuses


def step(page, field: str, delta: int, times: int = 1):
    button = page.locator(f".stepper:has(#{field}) .step[data-step='{delta}']")
    for _ in range(times):
        button.click()


def test_numking_four_players_to_the_end(phone):
    page = phone
    new_sheet(page, "numking", PLAYERS, screenshot="numking-new")
    save = page.locator("#save-round")
    hint = page.locator("#tricks-hint")

    for k, (bids, tricks) in enumerate(PLAN, start=1):
        expect(page.locator("#entry h2")).to_have_text(f"Manche {k}/{len(PLAN)} · {k} carte{'s' if k > 1 else ''}")
        expect(page.locator("p.deal")).to_contain_text(f"{k} carte{'s' if k > 1 else ''} par joueur")
        if k == 1:
            # Tricks over the cards dealt: the hint says so and the round cannot be saved.
            step(page, "tricks-0", +1)
            step(page, "tricks-1", +1)
            expect(hint).to_have_text("Les plis pris (2) dépassent les cartes distribuées (1).")
            expect(save).to_be_disabled()
            expect(page.locator("#tricks-sum")).to_have_text("2 / 1")
            shot(page, "numking-tricks-over")
            step(page, "tricks-0", -1)
            expect(hint).to_have_text("")
            expect(save).to_be_enabled()
        for seat in range(len(PLAYERS)):
            # Odd rounds: bids with the steppers, tricks typed; even rounds the other way.
            steppers, typed = ("bid", "tricks") if k % 2 else ("tricks", "bid")
            wanted = {"bid": bids[seat], "tricks": tricks[seat]}
            field = page.locator(f"#{steppers}-{seat}")
            if field.input_value() == "":
                step(page, f"{steppers}-{seat}", -1)  # a stepper starts empty: "−" sets it to 0
            current = int(field.input_value() or 0)
            if wanted[steppers] != current:
                step(
                    page, f"{steppers}-{seat}", 1 if wanted[steppers] > current else -1, abs(wanted[steppers] - current)
                )
            expect(field).to_have_value(str(wanted[steppers]))
            page.locator(f"#{typed}-{seat}").fill(str(wanted[typed]))
        expect(page.locator("#bid-sum")).to_have_text(f"total {sum(bids)}")
        expect(page.locator("#tricks-sum")).to_have_text(f"{sum(tricks)} / {k}")
        expect(save).to_be_enabled()
        submit(page, save)

        want, bonuses = expected_after(k)
        if k < len(PLAN):
            # The round header says where the game is: "Manche 3/9 · 3 cartes" (round k + 1 deals k + 1 cards).
            expect(page.locator("#entry h2")).to_have_text(f"Manche {k + 1}/{len(PLAN)} · {k + 1} cartes")
        assert totals(page) == want, f"after round {k}"
        bonus_cells = page.locator("table.scores tfoot tr.bonus-row td").all_inner_texts()[: len(PLAYERS)]
        assert [c.strip() for c in bonus_cells] == [
            (f"+{b}" + ("*" if k < len(PLAN) else "")) if b else "·" for b in bonuses
        ], f"after round {k}"
        if k == 4:
            shot(page, "numking-mid-game")

    final, bonuses = expected_after(len(PLAN))
    assert bonuses == [40, 15, 5, 15]  # Alice 6 exact in a row, Bruno 4, Chloé 2, David 4
    assert totals(page) == final
    best = max(final)
    winners = [p for p, t in zip(PLAYERS, final) if t == best]
    assert len(winners) == 1
    expect(page.locator("section.winners .trophy")).to_have_text(re.compile(rf"Gagnant : {winners[0]}\s*$"))
    expect(page.locator("#round-form")).to_have_count(0)
    expect(page.locator("form.rematch button")).to_contain_text("Revanche")
    assert page.locator("table.scores tbody tr").count() == len(PLAN)
    shot(page, "numking-finished")
