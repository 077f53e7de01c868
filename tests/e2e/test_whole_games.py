"""A whole game of every registered game, played on a phone as a table plays it.

Each game is created on the new-sheet page and every round is entered through the
entry form (card grid taps, steppers, typed points, the table's result) until the
engine says the game is over (a coop session, never over by the rules, is closed
after a few games). After every round the board is read back and held to the
engine's own result for the stored rounds: every cell and total, the bonus row,
the teams' table, the coop summary, who is highlighted, the winner line, the
detail of the numbers opened, and no page scrolls sideways.

Each game runs at 360 px in French (light) and at 390 px in English (dark); the
finished sheets are saved in var/screenshots/whole-*.png (and at 320 px from the
French run).
"""

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.games import GAMES
from scoring.models import Round, Sheet
from tests.e2e.conftest import TIMEOUT_MS, shot, submit

from .test_phone_fits import OVERFLOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = [
    pytest.param(360, "fr", "light", id="360-fr-light"),
    pytest.param(390, "en", "dark", id="390-en-dark"),
]

WORDS = {
    "fr": {
        "start": "Commencer la partie",
        "winner": "Gagnant : {}",
        "winners": "Gagnants : {}",
        "leading": "En tête : {}",
        "won": "🎉 gagnée",
        "lost": "perdue",
        "eliminated": "éliminé",
        "cards": ["{} carte", "{} cartes"],
        "team": "Équipe {}",
        "summary": ["{wins} gagnée sur {games}", "{wins} gagnées sur {games}"],
        "summary_tail": " · taux de victoire {rate} % · meilleur {best}/{deck}",
        "reference": "Taux de victoire simulé par le livret pour cette table : {} %",
        "wins": ["{} : {} victoire", "{} : {} victoires"],
    },
    "en": {
        "start": "Start the game",
        "winner": "Winner: {}",
        "winners": "Winners: {}",
        "leading": "Leading: {}",
        "won": "🎉 won",
        "lost": "lost",
        "eliminated": "eliminated",
        "cards": ["{} card", "{} cards"],
        "team": "Team {}",
        "summary": ["{wins} won out of {games}", "{wins} won out of {games}"],
        "summary_tail": " · win rate {rate} % · best {best}/{deck}",
        "reference": "Rule book's simulated win rate for this table: {} %",
        "wins": ["{}: {} win", "{}: {} wins"],
    },
}


# ---- the phone ------------------------------------------------------------------------


@pytest.fixture
def table_phone(browser, live_server):
    """Return a factory of phones (width, language, colour scheme); any JavaScript or console error fails the test."""
    contexts, errors = [], []

    def make(width, lang, scheme):
        context = browser.new_context(
            viewport={"width": width, "height": 800},
            locale="fr-FR" if lang == "fr" else "en-GB",
            base_url=live_server.url,
            color_scheme=scheme,
        )
        host = live_server.url.split("//", 1)[1].split(":")[0]
        context.add_cookies([{"name": "django_language", "value": lang, "domain": host, "path": "/"}])
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        # The browser's own errors too: a refusal of the Content-Security-Policy is one.
        page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == [], errors


def create(page, slug, players, lang, options=(), teams=None):
    """Fill the new-sheet page as a player does; `options` are (name, value) pairs; return the sheet id."""
    page.goto(f"/new/{slug}/")
    if teams:
        page.locator("#play-teams").check()
    for seat, name in enumerate(players):
        field = page.locator(f"#player-{seat}")
        if not field.is_visible():
            page.locator("#add-player").click()
        expect(field).to_be_visible()
        field.fill(name)
        if teams:
            page.locator(f"#team-{seat}").select_option(label=WORDS[lang]["team"].format(teams[name]))
    for name, value in options:
        field = page.locator(f"input[name=opt-{name}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif isinstance(value, int):
            field.fill(str(value))
        else:
            page.locator(f"input[name=opt-{name}][value='{value}']").check()
    assert page.evaluate(OVERFLOW) is None
    button = page.locator("button.primary.big")
    expect(button).to_have_text(WORDS[lang]["start"])
    button.click()
    page.wait_for_url("**/sheets/*/")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


# ---- entering a round -----------------------------------------------------------------


def hand(page, name):
    return page.locator(f"fieldset.hand[data-name='{name}']")


def tap_cards(page, name, cards):
    """Tap a hand's cards on the grid: ("red", 7), ("joker",), ("action", "swipe")."""
    h = hand(page, name)
    if h.locator(".picker").is_hidden():
        h.locator(".hand-toggle").click()
    expect(h.locator(".picker")).to_be_visible()
    for card in cards:
        if card[0] == "action":
            h.locator(f".special.action[data-name='{card[1]}']").click()
        elif len(card) == 1:
            h.locator(f".special[data-kind='{card[0]}']").click()
        else:
            cell = h.locator(f".cell[data-kind='{card[0]}'][data-value='{card[1]}']")
            cell.click()
            expect(cell).to_have_attribute("aria-pressed", "true")
    expect(h.locator(".chips .chip")).to_have_count(len(cards))
    # Every colour's name is shown whole above its column (its text is not cut).
    assert h.locator(".card-grid .colour").evaluate_all(CUT) == []


CUT = """els => els.filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map(e => e.textContent + ' ' + e.scrollWidth + '×' + e.scrollHeight + ' in ' + e.clientWidth + '×' + e.clientHeight)"""


def as_json(card):
    if card[0] == "action":
        return {"kind": "action", "name": card[1]}
    return {"kind": card[0], "value": card[1]} if len(card) == 2 else {"kind": card[0]}


def enter_hands(page, sheet_id, hands, declarer=None):
    """Enter a card game's round: a list of cards is tapped on the grid, a number typed, None left empty.

    Each tapped hand's live points must be what the engine gives that hand in this round.
    """
    sheet = Sheet.objects.get(pk=sheet_id)
    for name, entry in hands.items():
        if isinstance(entry, int):
            hand(page, name).locator("input[name^=points-]").fill(str(entry))
        elif entry:
            tap_cards(page, name, entry)
    if declarer is not None:
        page.locator("fieldset.declarer label", has_text=re.compile(rf"^{declarer}$")).click()
    entries = {
        n: {"points": e} if isinstance(e, int) else {"cards": [as_json(c) for c in (e or [])]} for n, e in hands.items()
    }
    rnd = {"entries": entries, **({"declarer": declarer} if declarer else {})}
    alone = services.score(sheet.game, list(hands), _preview(sheet, hands), [rnd], "fr")["rounds"][0]["points"]
    for name, entry in hands.items():
        if isinstance(entry, list) and entry:
            lang = page.evaluate("document.documentElement.lang")
            unit = "pts" if many(abs(alone[name]), lang) else "pt"
            expect(hand(page, name).locator("output.live")).to_have_text(f"= {minus(alone[name])} {unit}")
    return rnd


def stored_last(sheet_id):
    """Return the entries of the last round stored, cards in a fixed order."""
    entries = Round.objects.filter(sheet_id=sheet_id).order_by("-number").first().data["entries"]
    key = lambda c: (c["kind"], c.get("value", -1), c.get("name", ""))  # noqa: E731
    return {n: {**e, "cards": sorted(e["cards"], key=key)} if "cards" in e else e for n, e in entries.items()}


def assert_stored(sheet_id, rnd):
    """The round stored is the round entered: every card tapped, every number typed, nothing else."""
    key = lambda c: (c["kind"], c.get("value", -1), c.get("name", ""))  # noqa: E731
    want = {n: {**e, "cards": sorted(e["cards"], key=key)} if "cards" in e else e for n, e in rnd["entries"].items()}
    assert stored_last(sheet_id) == want
    if "declarer" in rnd:
        assert Round.objects.filter(sheet_id=sheet_id).order_by("-number").first().data["declarer"] == rnd["declarer"]


def _preview(sheet, hands):
    """The options the page scores one round alone with (app.js previewOptions)."""
    options = {**sheet.options, **(sheet.engine.preview_options or {})}
    if len(hands) != len(sheet.players):
        options.pop("teams", None)
    return options


def step(page, field, target):
    """Bring a stepper to `target` with its − and + buttons (an empty stepper starts at 0 on "−")."""
    box = page.locator(f".stepper:has(#{field})")
    value = page.locator(f"#{field}")
    if value.input_value() == "":
        box.locator(".step[data-step='-1']").click()
    current = int(value.input_value())
    button = box.locator(f".step[data-step='{1 if target > current else -1}']")
    for _ in range(abs(target - current)):
        button.click()
    expect(value).to_have_value(str(target))


def save(page, button="#save-round", look=""):
    """Save the round (first saving a picture of the form as filled in, named `look`)."""
    if look:
        # Nothing focused: Chromium scrolls a focused field back into view once the full-page
        # picture gives the window its size back, under the thumb that taps "save".
        page.evaluate("document.activeElement && document.activeElement.blur()")
        shot(page, look)
    submit(page, page.locator(button))
    expect(page.locator("#form-errors")).to_have_count(0)


# ---- reading the board back -----------------------------------------------------------

CELLS = """rows => rows.map(tr => Array.from(tr.querySelectorAll(':scope > td')).map(td => {
  const s = td.querySelector('details.cell > summary');
  return s ? Array.from(s.children).map(e => e.textContent.trim()) : [td.textContent.trim()];
}))"""


def signed(n):
    return f"+{n}" if n > 0 else minus(n)


def minus(n):
    """A number as every page shows it: a true minus sign (U+2212)."""
    return f"−{-n}" if n < 0 else str(n)


def many(n, lang):
    """Whether ``n`` takes the plural: French counts 0 and 1 as singular."""
    return n > 1 if lang == "fr" else n != 1


def expected_cell(game, rnd, name, total, lang):
    kind = game.cell
    points, facts = rnd["points"].get(name), (rnd.get("facts") or {}).get(name) or {}
    if points is None:
        return ["—"]
    # A penalty or a bonus is marked in the cell itself.
    signs = {"penalty": "!", "bonus": "★", "tiebreak": "⚖"}
    marks = [signs[m["kind"]] for m in game.cell_marks(rnd["details"].get(name, []), lang)]
    if kind == "bid_tricks":
        return [f"{facts['bid']}/{facts['tricks']}" + ("" if facts["exact"] else " ✗"), signed(points), minus(total)]
    if kind == "coop":
        if facts.get("deck"):
            return [f"{facts['placed']}/{facts['deck']}", WORDS[lang]["won" if facts["won"] else "lost"]]
        return [
            str(points),
            *(["🏆"] if facts.get("winner") else []),
            *([WORDS[lang]["eliminated"]] if facts.get("eliminated") else []),
        ]
    return [minus(points)] + ([] if rnd.get("tiebreak") else [minus(total)]) + marks


def engine_result(sheet_id, lang):
    sheet = Sheet.objects.get(pk=sheet_id)
    rounds = [r.data for r in Round.objects.filter(sheet_id=sheet_id).order_by("number")]
    return sheet, services.score(sheet.game, sheet.players, sheet.options, rounds, lang)


def names_line(lang, names, key="winner"):
    if key == "winner" and len(names) > 1:
        key = "winners"
    return WORDS[lang][key].format(", ".join(names))


def open_detail(page, summary_locator, want):
    """Open a number's detail; it must say, line by line, how the engine reached it."""
    summary_locator.click()
    pop = summary_locator.locator("xpath=..").locator(".pop li")
    expect(pop).to_have_text(want)
    summary_locator.click()


def check_board(page, sheet_id, lang):
    """Hold everything the board shows to the engine's result for the stored rounds; return that result."""
    sheet, result = engine_result(sheet_id, lang)
    entry = sheet.engine.entry_form(sheet.options)
    game = GAMES[sheet.game]
    players = sheet.players
    expect(page.locator("table.scores tbody tr:has(details.cell)")).to_have_count(len(result["rounds"]))
    shown = page.locator("table.scores tbody tr:has(details.cell)").evaluate_all(CELLS)
    running = dict.fromkeys(players, 0)
    for number, rnd in enumerate(result["rounds"], start=1):
        want = []
        for name in players:
            if not rnd.get("tiebreak"):
                running[name] += rnd["points"].get(name, 0)
            want.append(expected_cell(game, rnd, name, running[name], lang))
        if entry["table_result"]:
            want = want[:1]  # one result for the whole table: said once
        assert shown[number - 1] == want, f"round {number}"
    if entry["total_row"]:
        totals = page.locator("table.scores tfoot tr.total-row td").all_inner_texts()
        assert [t.strip() for t in totals] == [minus(result["totals"][n]) for n in players]
    else:
        expect(page.locator("table.scores tfoot tr.total-row")).to_have_count(0)
    if entry["bonus_row"]:
        star = "" if result["finished"] else "*"
        bonus = page.locator("table.scores tfoot tr.bonus-row td").all_inner_texts()
        want = [f"+{result['bonuses'][n]}{star}" if result["bonuses"][n] else "·" for n in players]
        assert [b.strip() for b in bonus] == want
        for seat, name in enumerate(players):
            if result["bonuses"][name]:
                cell = page.locator("table.scores tfoot tr.bonus-row td").nth(seat).locator("summary")
                open_detail(page, cell, [d["text"] for d in result["bonus_details"][name]])
                break
    # The highlight: the winners (a session: the summary's leaders), in the players' order.
    leaders = result.get("session_leaders", result["winners"])
    assert page.locator("table.scores thead .pname").evaluate_all(CUT) == []  # short names: shown whole
    lead = page.locator("table.scores thead th.lead .pname").all_inner_texts()
    assert lead == [n for n in players if n in leaders]
    if result["finished"]:
        trophy = page.locator("section.winners .trophy")
        expect(trophy).to_have_text("🏆 " + names_line(lang, result["winners"]))
        expect(page.locator("#round-form")).to_have_count(0)
    elif not result.get("summary") and result["rounds"]:
        expect(page.locator("p.leader")).to_have_text(names_line(lang, result["winners"], "leading"))
    if result.get("teams"):
        check_teams(page, result, lang)
    if result.get("summary"):
        check_summary(page, result, lang)
    if not result["finished"]:
        check_round_title(page, game, result, lang)
    check_chart(page, result, players)
    shown_text = page.locator("main").inner_text()
    assert not re.search(r"\{[{%#]|[}%#]\}", shown_text), "template syntax shown on the page"
    assert page.evaluate(OVERFLOW) is None
    return result


def check_chart(page, result, players):
    """The chart ends on each side's total (a team's when teams decide) and its axis ends on the last round."""
    chart = page.locator("svg.chart")
    if result.get("summary"):
        expect(chart).to_have_count(0)  # a session's games are not added up
        return
    sides = result.get("teams") or {n: {"total": result["totals"][n]} for n in players}
    ends = chart.locator("polyline").evaluate_all("ls => ls.map(l => l.dataset.total)")
    assert ends == [str(s["total"]) for s in sides.values()]
    counted = [r for r in result["rounds"] if not r.get("tiebreak")]
    expect(chart.locator("text.tick[text-anchor=end]")).to_have_text(str(len(counted)))


def check_teams(page, result, lang):
    teams = result["teams"]
    running = dict.fromkeys(teams, 0)
    shown = page.locator(".team-scores tbody tr").evaluate_all(CELLS)
    counted = [r for r in result["rounds"] if "teams" in r and not r.get("tiebreak")]
    assert len(shown) == len(counted)
    for row, rnd in zip(shown, counted):
        want = []
        for team in teams:
            running[team] += rnd["teams"][team]
            want.append([str(rnd["teams"][team]), str(running[team])])
        assert row == want
    # Team totals, the leading team(s) with the trophy; the detail says how the team's cards were counted.
    totals = page.locator(".team-scores tfoot td").all_inner_texts()
    winners = set(result["winners"])
    leading = [t for t in teams if t in winners or set(teams[t]["members"]) <= winners]
    assert [t.strip() for t in totals] == [str(teams[t]["total"]) + (" 🏆" if t in leading else "") for t in teams]
    assert page.locator(".team-scores thead th.lead").count() == len(leading)
    rnd = counted[-1]
    first = next(iter(teams))
    own = rnd.get("team_details", {}).get(first)
    summary = page.locator(".team-scores tbody tr").last.locator("td").first.locator("summary")
    summary.click()
    lines = summary.locator("xpath=..").locator(".pop li")
    if own is not None:
        together = {"fr": "Cartes réunies : {}", "en": "Cards together: {}"}[lang]
        expect(lines).to_have_text([together.format(", ".join(teams[first]["members"])), *(d["text"] for d in own)])
    else:
        expect(lines).to_have_count(1)
    summary.click()


def check_summary(page, result, lang):
    s, box = result["summary"], page.locator(".summary-box")
    if "wins" in s and isinstance(s["wins"], dict):
        want = [WORDS[lang]["wins"][many(s["wins"][n], lang)].format(n, s["wins"][n]) for n in s["wins"]]
        expect(box.locator("li")).to_have_text(want)
        return
    rate = str(s["win_rate"]).replace(".", "," if lang == "fr" else ".")
    noun = GAMES["coop"].round_words(lang)["other" if many(s["games"], lang) else "one"]
    line = WORDS[lang]["summary"][many(s["wins"], lang)].format(wins=s["wins"], games=f"{s['games']} {noun}")
    line += WORDS[lang]["summary_tail"].format(rate=rate, best=s["best"], deck=s["deck"])
    expect(box.locator("p").first).to_have_text(line.replace(" %", "\u00a0%"))
    ref = str(s["reference_win_rate"]).replace(".", "," if lang == "fr" else ".")
    expect(box.locator("p.muted")).to_have_text(WORDS[lang]["reference"].format(ref).replace(" %", "\u00a0%"))


def check_round_title(page, game, result, lang):
    nxt, of = result["next_round"], (result.get("schedule") or {}).get("rounds")
    title = f"{game.round_words(lang)['one'].capitalize()} " + str(f"{nxt['number']}/{of}" if of else nxt["number"])
    if nxt.get("cards"):
        title += " · " + WORDS[lang]["cards"][nxt["cards"] != 1].format(nxt["cards"])
    expect(page.locator("#entry h2")).to_have_text(title)


def detail_of(page, result, seat, number=None):
    """Open the cell of `seat` in round `number` (the last by default): its lines are the engine's."""
    rows = page.locator("table.scores tbody tr:has(details.cell)")
    row = rows.nth((number or len(result["rounds"])) - 1)
    rnd = result["rounds"][(number or len(result["rounds"])) - 1]
    name = list(result["totals"])[seat]
    open_detail(page, row.locator("td").nth(seat).locator("summary"), [d["text"] for d in rnd["details"][name]])


def finish(page, name, width, lang, scheme):
    """Screenshot the finished sheet; the French run also looks at it at 320 px."""
    shot(page, f"whole-{name}-{lang}-{width}-{scheme}")
    if width == 360:
        page.set_viewport_size({"width": 320, "height": 800})
        expect(page.locator("#board")).to_be_visible()
        assert page.evaluate(OVERFLOW) is None
        shot(page, f"whole-{name}-{lang}-320-{scheme}")


# ---- the games ------------------------------------------------------------------------


@pytest.mark.parametrize("width, lang, scheme", PHONES)
def test_num_x_speed_run(table_phone, width, lang, scheme):
    page = table_phone(width, lang, scheme)
    players = ["Léa", "Marc", "Hugo"]
    sheet_id = create(page, "numx", players, lang, [("mode", "speedrun")])
    rnd = enter_hands(
        page,
        sheet_id,
        {
            # 7 red + 7 rainbow = 14, three 12s = 36
            "Léa": [("red", 7), ("rainbow", 7), ("blue", 12), ("green", 12), ("yellow", 12)],
            # a pair of 9s cancels, a shadow alone and a joker count nothing
            "Marc": [("blue", 9), ("red", 9), ("shadow", 3), ("joker",)],
            "Hugo": 23,
        },
    )
    save(page, look=f"whole-numx-speedrun-entry-{lang}-{width}-{scheme}")
    assert_stored(sheet_id, rnd)
    result = check_board(page, sheet_id, lang)
    assert result["finished"] and result["totals"] == {"Léa": 50, "Marc": 0, "Hugo": 23}
    detail_of(page, result, 0)
    detail_of(page, result, 1)
    finish(page, "numx-speedrun", width, lang, scheme)


@pytest.mark.parametrize("width, lang, scheme", PHONES)
def test_num_x_family_in_teams(table_phone, width, lang, scheme):
    page = table_phone(width, lang, scheme)
    players = ["Léa", "Marc", "Hugo", "Zoé"]
    teams = {"Léa": "A", "Marc": "A", "Hugo": "B", "Zoé": "B"}
    sheet_id = create(page, "numx", players, lang, [("mode", "family")], teams=teams)
    rnd = enter_hands(
        page,
        sheet_id,
        {
            "Léa": [("red", 5), ("blue", 5), ("green", 8)],  # a pair scores 0: 8
            "Marc": [("yellow", 5), ("rainbow", 3)],  # 8; the team's 5s make three: 15 + 8 + 3 = 26
            "Hugo": [("red", 16), ("shadow", 2)],  # 18
            "Zoé": [("blue", 16)],  # 16; together a pair of 16s: 2
        },
    )
    save(page, look=f"whole-numx-family-teams-entry-{lang}-{width}-{scheme}")
    assert_stored(sheet_id, rnd)
    result = check_board(page, sheet_id, lang)
    assert result["finished"]
    assert [t["total"] for t in result["teams"].values()] == [26, 2]
    detail_of(page, result, 1)
    finish(page, "numx-family-teams", width, lang, scheme)


@pytest.mark.parametrize("width, lang, scheme", PHONES)
def test_num_win_classic(table_phone, width, lang, scheme):
    page = table_phone(width, lang, scheme)
    players = ["Léa", "Marc", "Hugo"]
    sheet_id = create(page, "numwin", players, lang, [("mode", "classic"), ("rounds", 2)])
    # Round 1: Marc declares "Num Win" but Léa's hand is lower: +20 for Marc.
    rnd = enter_hands(
        page,
        sheet_id,
        {
            "Léa": [("red", 3), ("blue", 0), ("green", 1), ("yellow", 2), ("rainbow", 3)],  # 9
            "Marc": 25,
            "Hugo": [("infini",), ("action", "swipe"), ("red", 10), ("blue", 4), ("green", 6)],  # trap: 20 + 20
        },
        declarer="Marc",
    )
    save(page, look=f"whole-numwin-entry-{lang}-{width}-{scheme}")
    assert_stored(sheet_id, rnd)
    result = check_board(page, sheet_id, lang)
    assert result["totals"] == {"Léa": 9, "Marc": 45, "Hugo": 40}
    detail_of(page, result, 1)
    detail_of(page, result, 2)
    # Round 2: Marc declares and has the lowest hand (rainbow and shadow 5 neutralised).
    rnd = enter_hands(
        page,
        sheet_id,
        {
            "Léa": 12,
            "Marc": [("shadow", 5), ("rainbow", 5), ("red", 1), ("blue", 1), ("green", 2)],  # 4
            "Hugo": 30,
        },
        declarer="Marc",
    )
    save(page)
    assert_stored(sheet_id, rnd)
    result = check_board(page, sheet_id, lang)
    assert result["finished"] and result["totals"] == {"Léa": 21, "Marc": 49, "Hugo": 70}
    assert result["winners"] == ["Léa"]
    detail_of(page, result, 1)
    finish(page, "numwin", width, lang, scheme)


@pytest.mark.parametrize("width, lang, scheme", PHONES)
def test_num_king_classic(table_phone, width, lang, scheme):
    page = table_phone(width, lang, scheme)
    players = ["Léa", "Marc", "Hugo", "Zoé"]
    # The first round deals 8 cards: 8 then 9 (36 cards ÷ 4 players), two rounds.
    sheet_id = create(page, "numking", players, lang, [("mode", "classic"), ("start", 8)])
    plan = [([3, 2, 0, 2], [3, 2, 0, 3]), ([2, 4, 1, 1], [2, 3, 1, 3])]
    for k, (bids, tricks) in enumerate(plan):
        for seat in range(len(players)):
            # Bids on the steppers; tricks typed in the first round, on the steppers in the second.
            step(page, f"bid-{seat}", bids[seat])
            if k == 0:
                page.locator(f"#tricks-{seat}").fill(str(tricks[seat]))
            else:
                step(page, f"tricks-{seat}", tricks[seat])
        expect(page.locator("#tricks-sum")).to_have_text(f"{sum(tricks)} / {8 + k}")
        save(page, look=f"whole-numking-entry-{lang}-{width}-{scheme}")
        assert stored_last(sheet_id) == {n: {"bid": bids[i], "tricks": tricks[i]} for i, n in enumerate(players)}
        result = check_board(page, sheet_id, lang)
        detail_of(page, result, 3)
    assert result["finished"]
    # Léa: 19 + 16 + 5 (two exact in a row); Hugo: 36 + 13 + 5; Marc 16 − 3; Zoé −3 − 6.
    assert result["totals"] == {"Léa": 40, "Marc": 13, "Hugo": 54, "Zoé": -9}
    detail_of(page, result, 0, number=1)
    finish(page, "numking", width, lang, scheme)


@pytest.mark.parametrize("width, lang, scheme", PHONES)
def test_num_x_short_rules_speed_game(table_phone, width, lang, scheme):
    page = table_phone(width, lang, scheme)
    players = ["Léa", "Marc", "Hugo"]
    sheet_id = create(page, "numx-malus", players, lang, [("mode", "speedgame"), ("scoring", "competition")])
    # Round 1: Léa went out (no cards left); competition scoring: face values, 5 a special or action.
    rnd = enter_hands(
        page, sheet_id, {"Léa": None, "Marc": [("red", 12), ("blue", 3), ("joker",), ("action", "double")], "Hugo": 14}
    )
    save(page, look=f"whole-numx-malus-speedgame-entry-{lang}-{width}-{scheme}")
    assert_stored(sheet_id, rnd)
    result = check_board(page, sheet_id, lang)
    assert result["totals"] == {"Léa": 0, "Marc": 25, "Hugo": 14}
    detail_of(page, result, 1)
    rnd = enter_hands(
        page, sheet_id, {"Léa": [("shadow", 16), ("rainbow", 0)], "Marc": None, "Hugo": [("green", 7), ("infini",)]}
    )
    save(page)
    assert_stored(sheet_id, rnd)
    result = check_board(page, sheet_id, lang)
    assert result["finished"] and result["totals"] == {"Léa": 16, "Marc": 25, "Hugo": 26}
    assert result["winners"] == ["Léa"]
    detail_of(page, result, 2)
    finish(page, "numx-malus-speedgame", width, lang, scheme)


@pytest.mark.parametrize("width, lang, scheme", PHONES)
def test_coop_cooperatif_session(table_phone, width, lang, scheme):
    page = table_phone(width, lang, scheme)
    players = ["Léa", "Marc", "Hugo"]
    sheet_id = create(page, "coop", players, lang, [("mode", "cooperatif")])
    # Three games: lost with 61 cards placed, won (the whole deck, in one tap), lost with 80.
    page.locator("#placed").fill("61")
    save(page, look=f"whole-coop-cooperatif-entry-{lang}-{width}-{scheme}")
    check_board(page, sheet_id, lang)
    save(page, "button[name=won]")
    check_board(page, sheet_id, lang)
    page.locator("#placed").fill("80")
    save(page)
    result = check_board(page, sheet_id, lang)
    assert not result["finished"]  # a session: the table closes it
    assert [r["placed"] for r in result["rounds"]] == [61, 96, 80]
    summary = result["summary"]
    assert (summary["wins"], summary["best"], summary["reference_win_rate"]) == (1, 96, 39.5)
    detail_of(page, result, 0, number=2)
    finish(page, "coop-cooperatif", width, lang, scheme)


@pytest.mark.parametrize("width, lang, scheme", PHONES)
def test_coop_adversaire_session(table_phone, width, lang, scheme):
    page = table_phone(width, lang, scheme)
    players = ["Léa", "Marc", "Hugo"]
    sheet_id = create(page, "coop", players, lang, [("mode", "adversaire")])
    games = [
        # (cards of one's own colour placed, eliminated) per player; typed or on the stepper.
        {"Léa": (17, False), "Marc": (9, False), "Hugo": (12, True)},
        {"Léa": (5, False), "Marc": (14, False), "Hugo": (11, True)},
    ]
    for g, placed in enumerate(games):
        for seat, name in enumerate(players):
            count, out = placed[name]
            if (seat + g) % 2:
                step(page, f"placed-{seat}", count)
            else:
                page.locator(f"#placed-{seat}").fill(str(count))
            if out:
                page.locator(f"input[name=eliminated-{seat}]").check()
        save(page, look=f"whole-coop-adversaire-entry-{lang}-{width}-{scheme}")
        assert stored_last(sheet_id) == {n: {"placed": p, "eliminated": out} for n, (p, out) in placed.items()}
        result = check_board(page, sheet_id, lang)
        detail_of(page, result, 2)
    assert [r["points"] for r in result["rounds"]] == [{n: p for n, (p, _) in gm.items()} for gm in games]
    assert result["summary"]["wins"] == {"Léa": 1, "Marc": 1, "Hugo": 0}
    finish(page, "coop-adversaire", width, lang, scheme)
