// Num scores: the small bits of behaviour the pages need. No framework, no inline script, no
// build step: each script is an ES module that imports what it uses from the others (nothing
// is shared through `window`). The sheet pages' own parts (table.js, phones.js, referee.js,
// engine.js) join this page's set-up when their page loads them (`join`).
import { NumDevice } from "./device.js";
import { NumLive } from "./live.js";
import { NumWords } from "./words.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

// The parts of the page that its own modules bring: {table, phones, referee, engine}.
const parts = {};
export function join(name, part) { parts[name] = part; }
// The part a page's module joined (undefined on a page without it).
export const part = (name) => parts[name];
// Words are said with Django's JavaScript catalogue (gettext, ngettext, interpolate), loaded
// first on every page in the page's language (base.html; French in locale/fr/LC_MESSAGES/djangojs.po).

// New sheet: show as many name fields as needed, remember names on this device.
function setUpNewSheet(form) {
  const min = Number(form.dataset.min);
  const rows = $$(".player-row", form);
  const button = $("#add-player");
  // The names this browser's identity typed (static/js/device.js); an array is from before identities.
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem("num.names") || "null"); } catch (e) { kept = null; }
  const known = Array.isArray(kept) ? kept : kept && NumDevice.mine(kept) && Array.isArray(kept.names) ? kept.names : [];
  const list = $("#known-names");
  // « Mes joueurs » come with the page (an account's); the names typed on this device are added, once each.
  const offered = new Set($$("option", list).map((o) => o.value));
  known.forEach((name) => { if (!offered.has(name)) list.append(new Option(name)); });
  const lastFilled = rows.reduce((acc, row, i) => ($("input", row).value ? i : acc), -1);
  const shown = Math.max(min, lastFilled + 1, known.length ? Math.min(known.length, rows.length) : min);
  rows.forEach((row, i) => {
    row.hidden = i >= shown;
    if (!$("input", row).value && i < known.length && lastFilled < 0) $("input", row).value = known[i];
  });
  // A list of the players' places (the first dealer) names the players as they are typed,
  // one choice per name field shown; a place left unnamed keeps its "Player N".
  const seatLists = $$("select.seat-choice", form);
  const followNames = () => {
    seatLists.forEach((select) => {
      $$("option", select).forEach((option) => {
        const row = rows[Number(option.value)];
        if (!row) return;
        const input = $("input", row);
        option.textContent = input.value.trim() || input.placeholder;
        option.hidden = row.hidden;
        option.disabled = row.hidden;
      });
      if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "0";
    });
  };
  const refresh = () => { button.hidden = rows.every((r) => !r.hidden); followNames(); };
  button.hidden = false;
  refresh();
  form.addEventListener("input", (ev) => { if (ev.target.name === "player") followNames(); });
  button.addEventListener("click", () => {
    const next = rows.find((r) => r.hidden);
    if (next) { next.hidden = false; $("input", next).focus(); }
    refresh();
  });
  form.addEventListener("submit", () => {
    const names = rows.map((r) => $("input", r).value.trim()).filter(Boolean);
    try { localStorage.setItem("num.names", JSON.stringify(NumDevice.tagged({ names }))); } catch (e) { /* not kept */ }
  });
}

// A preview's points: "= −3 pts", "= 1 pt" (static/js/words.js: the pages' minus sign and plural rule).
const pointsSaid = (n) => `= ${NumWords.number(n)} ${NumWords.plural(n, "pt", "pts")}`;

// The entry form's fields as the form posts them ({name: text}). The page never reads a round
// out of them: the engine does (scoring/games/form.py), on the server or in this page, so a
// round is read one way, and a value typed for a round is only ever that round's.
const NOT_ENTERED = new Set(["csrfmiddlewaretoken", "number", "version"]);
export function formFields(form, submitter) {
  const out = {};
  for (const [name, value] of new FormData(form)) {
    if (!NOT_ENTERED.has(name) && typeof value === "string") out[name] = value;
  }
  // The button pressed, as the form posts it ("save anyway", "won"): said here for the
  // browsers whose FormData does not take the submitter.
  if (submitter && submitter.name) out[submitter.name] = submitter.value;
  return out;
}

// The previews score a round alone, some of its seats only: fields are named by seat (`cards-3`),
// so the seats at the preview's table are numbered again in their order (`cards-0`…).
function seatedAs(fields, seats) {
  const out = {};
  Object.entries(fields).forEach(([name, value]) => {
    const m = name.match(/^(.*)-(\d+)$/);
    if (!m) { if (name !== "declarer") out[name] = value; return; }
    const at = seats.indexOf(Number(m[2]));
    if (at >= 0) out[`${m[1]}-${at}`] = value;
  });
  if ("declarer" in fields && seats.includes(Number(fields.declarer))) out.declarer = String(seats.indexOf(Number(fields.declarer)));
  return out;
}

// Card picker: tap a colour then a value; specials and actions in one tap.
// The cards' names are the game's catalogue's (the engine's, in the page's language, in the
// form's data-game): a chip shows a colour card's value, or a special's or an action's name.
function cardNames(game) {
  const picker = (game.cards && game.cards.picker) || { colours: [], specials: [], actions: [] };
  const colours = new Map(picker.colours.map((c) => [c.kind, c.label]));
  const specials = new Map(picker.specials.map((c) => [c.kind, c.chip]));
  const actions = new Map(picker.actions.map((a) => [a.name, a.label]));
  const named = (c) => (c.kind === "action" ? actions.get(c.name) || c.name : specials.get(c.kind) || c.kind);
  return {
    colour: (c) => colours.has(c.kind),
    chip: (c) => (colours.has(c.kind) ? String(c.value) : named(c)),
    full: (c) => (colours.has(c.kind) ? `${c.value} ${colours.get(c.kind)}` : named(c)),
  };
}

export function setUpPicker(form) {
  const game = JSON.parse(form.dataset.game);
  const names = cardNames(game);
  // Anything that changes the picks tells the form (the draft keeps them as typed).
  const changed = () => form.dispatchEvent(new Event("picked", { bubbles: true }));
  const hands = $$("fieldset.hand", form);
  const state = new Map();
  hands.forEach((hand) => {
    const seat = hand.dataset.seat;
    const input = $(`#cards-${seat}`);
    let cards = [];
    try { cards = JSON.parse(input.value || "[]"); } catch (e) { cards = []; }
    state.set(seat, { cards, colour: null });
    const toggle = $(".hand-toggle", hand);
    toggle.addEventListener("click", () => open(hand));
    $$(".colour", hand).forEach((b) => b.addEventListener("click", () => {
      state.get(seat).colour = b.dataset.kind;
      $$(".colour", hand).forEach((o) => o.setAttribute("aria-pressed", String(o === b)));
      const grid = $(".card-grid", hand);
      if (grid) grid.dataset.colour = b.dataset.kind;
      render();
    }));
    // A card of the grid in one tap; tapped again, it goes back.
    $$(".cell", hand).forEach((b) => b.addEventListener("click", () => {
      const s = state.get(seat);
      const value = Number(b.dataset.value);
      const at = s.cards.findIndex((c) => c.kind === b.dataset.kind && c.value === value);
      if (at >= 0) { s.cards.splice(at, 1); render(); schedule(); return; }
      add(seat, { kind: b.dataset.kind, value });
    }));
    $$(".value", hand).forEach((b) => b.addEventListener("click", () => {
      const s = state.get(seat);
      if (!s.colour) { hint(hand, gettext("Pick a colour first.")); return; }
      add(seat, { kind: s.colour, value: Number(b.dataset.value) });
    }));
    $$(".special", hand).forEach((b) => b.addEventListener("click", () => {
      add(seat, b.dataset.name ? { kind: "action", name: b.dataset.name } : { kind: b.dataset.kind });
    }));
    $(`#points-${seat}`).addEventListener("input", schedule);
    const sign = $(".sign", hand);
    if (sign) sign.addEventListener("click", () => {
      const field = $(`#points-${seat}`);
      const v = field.value.trim();
      field.value = /^[-\u2212]/.test(v) ? v.replace(/^[-\u2212]/, "") : `-${v}`;
      field.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });

  // One picker open at a time keeps the form short with many players.
  function open(target) {
    hands.forEach((hand) => {
      const on = hand === target;
      $(".picker", hand).hidden = !on;
      $(".hand-toggle", hand).setAttribute("aria-expanded", String(on));
      hand.classList.toggle("open", on);
    });
  }
  if (hands.length) open(hands[0]);

  function used() {
    const set = new Map();
    state.forEach((s, seat) => s.cards.forEach((c) => { if (names.colour(c)) set.set(`${c.kind}-${c.value}`, seat); }));
    return set;
  }
  function hint(hand, text) {
    const out = $(".live", hand);
    out.textContent = text;
  }
  function add(seat, card) {
    const key = `${card.kind}-${card.value}`;
    if (names.colour(card) && used().has(key)) return;
    state.get(seat).cards.push(card);
    render();
    schedule();
  }
  function render() {
    renderPicks();
    changed();
  }
  function renderPicks() {
    const taken = used();
    hands.forEach((hand) => {
      const seat = hand.dataset.seat;
      const s = state.get(seat);
      $(`#cards-${seat}`, hand).value = s.cards.length ? JSON.stringify(s.cards) : "";
      const chips = $(`#chips-${seat}`, hand);
      chips.replaceChildren(...s.cards.map((c, i) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.className = `chip c-${c.kind}`;
        b.textContent = `${names.chip(c)} ×`;
        b.setAttribute("aria-label", interpolate(gettext("Remove %(card)s"), { card: names.full(c) }, true));
        b.addEventListener("click", () => { s.cards.splice(i, 1); render(); schedule(); });
        li.append(b);
        return li;
      }));
      $$(".value", hand).forEach((b) => {
        const owner = s.colour ? taken.get(`${s.colour}-${b.dataset.value}`) : undefined;
        b.disabled = owner !== undefined;
        b.classList.toggle("used", owner !== undefined);
      });
      // The grid shows this hand's cards pressed, and greys out the cards another hand holds.
      $$(".cell", hand).forEach((b) => {
        const owner = taken.get(`${b.dataset.kind}-${b.dataset.value}`);
        b.setAttribute("aria-pressed", String(owner === seat));
        b.disabled = owner !== undefined && owner !== seat;
      });
    });
  }
  let timer = null;
  const scoreNewest = newestOnly(scoreRounds);
  function schedule() { clearTimeout(timer); timer = setTimeout(preview, 250); }
  // Nothing picked and nothing typed: no points to show yet.
  const isEmpty = (hand) => !state.get(hand.dataset.seat).cards.length && $(`#points-${hand.dataset.seat}`, hand).value.trim() === "";
  async function preview() {
    // A player's own page scores their hand alone: the others' hands count as empty, not as absent.
    const own = form.dataset.player !== undefined;
    const shown = hands.filter((h) => !h.hidden);
    let fields = formFields(form);
    let players = game.players;
    if (own) {
      game.players.forEach((_name, seat) => { if (!(`cards-${seat}` in fields) && !(`points-${seat}` in fields)) fields[`cards-${seat}`] = ""; });
    } else if (shown.length !== game.players.length) {
      // A round that seats some players only (a tie-break): the preview's table is theirs.
      players = shown.map((h) => h.dataset.name);
      fields = seatedAs(fields, shown.map((h) => Number(h.dataset.seat)));
    }
    try {
      const answer = await scoreNewest(game.slug, players, previewOptions(game, players), [{ form: fields }]);
      if (!answer) return;
      const { ok, body } = answer;
      shown.forEach((hand) => {
        const name = hand.dataset.name;
        const out = $(".live", hand);
        if (ok) {
          hand.classList.remove("invalid");
          out.textContent = isEmpty(hand) ? "" : pointsSaid(body.rounds[0].points[name]);
          return;
        }
        // What the engine says of this hand, in its words (points it cannot read, cards and points
        // both…); the other hands show no points until the round reads again.
        const mine = (body.errors || []).filter((e) => e.path.startsWith(`rounds[0].entries.${name}.`) || e.path === `rounds[0].entries.${name}`);
        hand.classList.toggle("invalid", mine.length > 0);
        out.textContent = mine.length ? mine[0].message : "";
      });
    } catch (e) { /* offline: the server checks the round when it is saved */ }
  }
  $$("input[name=declarer]", form).forEach((r) => r.addEventListener("change", schedule));
  renderPicks();
  if (hands.some((h) => state.get(h.dataset.seat).cards.length)) schedule();
  // Read the picks again from the form's fields (a draft restored, the entry cleared).
  return {
    reload() {
      hands.forEach((hand) => {
        let cards = [];
        try { cards = JSON.parse($(`#cards-${hand.dataset.seat}`, hand).value || "[]"); } catch (e) { cards = []; }
        state.get(hand.dataset.seat).cards = Array.isArray(cards) ? cards : [];
        hand.classList.remove("invalid");
        $(".live", hand).textContent = "";
      });
      renderPicks();
      schedule();
    },
  };
}

// The counts' live preview: "= n pts" per player, as the engine scores the round (in the page
// when it is loaded, else by the API), or the engine's own words about what is wrong.
export function setUpCounts(form) {
  const game = JSON.parse(form.dataset.game);
  const rows = $$("fieldset.count-row", form);
  let timer = null;
  const scoreNewest = newestOnly(scoreRounds);
  const schedule = () => { clearTimeout(timer); timer = setTimeout(preview, 200); };
  async function preview() {
    const fields = formFields(form);
    // A player's own phone counts their cards alone: the others count as none.
    game.players.forEach((_name, seat) => {
      if (!["numeric", "specials", "points"].some((f) => `${f}-${seat}` in fields)) fields[`numeric-${seat}`] = "";
    });
    try {
      const answer = await scoreNewest(game.slug, game.players, previewOptions(game, game.players), [{ form: fields }]);
      if (!answer) return;
      const { ok, body } = answer;
      rows.forEach((row) => {
        const name = row.dataset.name;
        const out = $(".live", row);
        const mine = ok ? [] : (body.errors || []).filter((e) => e.path === `rounds[0].entries.${name}` || e.path.startsWith(`rounds[0].entries.${name}.`));
        row.classList.toggle("invalid", mine.length > 0);
        out.textContent = ok ? pointsSaid(body.rounds[0].points[name]) : mine.length ? mine[0].message : "";
      });
    } catch (e) { /* offline without the in-page engine: the round is checked when it is saved */ }
  }
  form.addEventListener("input", (ev) => { if (ev.target.closest("fieldset.count-row")) schedule(); });
  schedule();
  // The fields were written again (a draft restored, the entry cleared): score them afresh.
  return { reload: schedule };
}

// A live preview asks again at each change: an answer that arrives after a newer question's
// answer is dropped (null), so the preview always shows the newest entry's points.
function newestOnly(ask) {
  let asked = 0;
  return async (...args) => {
    asked += 1;
    const mine = asked;
    const answer = await ask(...args);
    return mine === asked ? answer : null;
  };
}

// Score without saving: in the page when the Python engine is loaded (engine.js), else by the API.
async function scoreRounds(slug, players, options, rounds) {
  const engine = parts.engine;
  const lang = document.documentElement.lang;
  if (engine && engine.isReady()) {
    try {
      return { ok: true, body: await engine.score(slug, players, options, rounds, lang) };
    } catch (e) {
      if (e.errors) return { ok: false, body: { errors: e.errors } };
    }
  }
  const resp = await fetch(`/api/v1/games/${slug}/score/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": lang },
    body: JSON.stringify({ players, options, rounds }),
  });
  return { ok: resp.ok, body: await resp.json() };
}

// A preview scores this round alone: the engine says which options it sets for that
// (game.preview); teams hold every player of the sheet, so a round seating fewer drops them.
function previewOptions(game, players) {
  const options = { ...game.options, ...(game.preview || {}) };
  if (players.length !== game.players.length) delete options.teams;
  return options;
}

// +/− steppers and the Num King tricks check (cards dealt unknown: no check).
export function setUpSteppers(root) {
  $$(".stepper", root).forEach((st) => {
    const input = $("input", st);
    $$(".step", st).forEach((b) => b.addEventListener("click", () => {
      const max = input.max === "" ? Infinity : Number(input.max);
      const next = Math.min(max, Math.max(Number(input.min || 0), Number(input.value || 0) + Number(b.dataset.step)));
      input.value = String(next);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }));
  });
  const box = $(".bidtricks", root);
  if (!box) return;
  const sum = (sel) => $$(sel, box).reduce((acc, i) => acc + Number(i.value || 0), 0);
  const update = () => {
    const cards = box.dataset.cards === "" ? Infinity : Number(box.dataset.cards);
    const bids = sum(".bids input");
    const tricks = sum(".tricks input");
    $("#bid-sum").textContent = interpolate(gettext("total %(bids)s"), { bids }, true);
    $("#tricks-sum").textContent = cards === Infinity ? String(tricks) : `${tricks} / ${cards}`;
    const over = tricks > cards;
    $("#tricks-hint").textContent = over
      ? interpolate(gettext("Tricks taken (%(tricks)s) exceed the cards dealt (%(cards)s)."), { tricks, cards }, true)
      : "";
    box.classList.toggle("invalid", over);
    const save = $("#save-round");
    if (save) save.disabled = over;
  };
  box.addEventListener("input", update);
  update();
}

// Share-link page: the board follows the sheet (static/js/live.js); each newer version is fetched once.
function setUpWatch(root) {
  const link = location.pathname.match(/^\/w\/([^/]+)\/([^/]+)\//);
  if (!link) return;
  const url = root.dataset.url;
  const version = () => $("#board", root).dataset.version;
  async function fetchBoard() {
    const etag = `"${version()}-${document.documentElement.lang}"`;  // as the server tags the page
    const resp = await fetch(url, { headers: { "If-None-Match": etag }, cache: "no-store" });
    if (resp.status === 200) root.innerHTML = await resp.text();
    return Number(version());
  }
  NumLive.follow({
    url: `/api/v1/sheets/${link[1]}/events/?share=${encodeURIComponent(link[2])}`,
    version: version(),
    onChange: fetchBoard,
    poll: async () => ({ version: await fetchBoard(), fetched: true }),
  });
}

// A link's share button: the phone's own share sheet (navigator.share) where there is one,
// else a copy to the clipboard, said beside the button.
function setUpShareButtons(root) {
  $$(".share-button", root).forEach((b) => {
    const canShare = typeof navigator.share === "function";
    if (canShare) b.textContent = b.dataset.shareLabel;
    const done = b.parentElement.querySelector(".share-done");
    const tell = (text) => { done.textContent = text; };
    b.addEventListener("click", async () => {
      const url = b.dataset.url;
      tell("");
      if (canShare) {
        try { await navigator.share({ title: document.title, text: b.dataset.text, url }); return; }
        catch (e) { if (e && e.name === "AbortError") return; }  // closed by the player: nothing to say
      }
      if (await copyText(url)) tell(b.dataset.copied);
      else tell(b.dataset.copyFailed);
    });
  });
}

// Copy text to the clipboard: the Clipboard API (secure pages), else the older copy command.
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* try the old way */ }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  area.remove();
  return ok;
}

// What a page's main part needs once it is shown (on load, and after it was swapped
// for a fresh copy of the sheet).
export function setUpMain(root) {
  const newSheet = $("#new-sheet", root);
  if (newSheet) setUpNewSheet(newSheet);
  const roundForm = $("#round-form", root);
  if (roundForm) {
    // Drafts are restored into the fields before the picker reads them (table.js).
    const table = parts.table ? parts.table.beforeForm(roundForm) : null;
    const picker = $("fieldset.hand", roundForm) ? setUpPicker(roundForm) : $(".counts", roundForm) ? setUpCounts(roundForm) : null;
    setUpSteppers(roundForm);
    if (table) table.afterForm(picker);
  }
  const watch = $("#watch", root);
  if (watch) setUpWatch(watch);
  $$(".share-url", root).forEach((i) => i.addEventListener("focus", () => i.select()));
  setUpShareButtons(root);
  if (parts.table) parts.table.setUpPage(root);
  if (parts.phones) parts.phones.setUpPage(root);
  if (parts.referee) parts.referee.setUp(root);
}
