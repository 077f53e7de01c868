// Num King's referee at the table, on the sheet's phone and on each player's own phone (the seat
// page): « Qui remporte le pli ? ». The cards are tapped as they are played, the leader's first;
// the last one resolves the trick (the in-page engine when it is loaded, else POST
// /api/v1/games/numking/trick/) and stores it in the round in progress (one PUT
// /api/v1/sheets/{id}/draft/tricks/{n}/ with If-Match, with the seat's token on a player's phone),
// which every phone then shows. A trick being tapped stays on this phone (localStorage) until it is
// whole and stored.
// docs/api.md, « Num King's hand ».
import { $, $$, join } from "./app.js";
import { NumDevice } from "./device.js";
import { NumEngine } from "./engine.js";
import { NumLive } from "./live.js";
import { NumPhones } from "./phones.js";

export const NumReferee = (() => {
  const PREFIX = "num.referee.";
  let sending = false;
  let told = ""; // what the page said before it was shown afresh (another phone's write): said again there
  let redraw = null; // the referee on screen (a page shown afresh sets up a new one)
  let onOnline = null;
  window.addEventListener("online", () => { if (onOnline) onOnline(); });

  const keyOf = (c) => (c.kind === "numx" ? "numx" : c.kind === "action" ? `action-${c.name}` : `${c.kind}-${c.value}`);

  function csrf() { const i = $("input[name=csrfmiddlewaretoken]"); return i ? i.value : ""; }
  function headers(extra = {}) {
    return { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": document.documentElement.lang, "X-CSRFToken": csrf(), ...extra };
  }
  // The page as the server now has it: the sheet's phone's or the player's own (phones.js).
  const refreshPage = () => NumPhones.refresh();

  // What this phone keeps of a sheet's rounds that are over: nothing.
  function sweep(sheetId, number) {
    try {
      for (let i = localStorage.length - 1; i >= 0; i -= 1) {
        const key = localStorage.key(i);
        if (key && key.startsWith(`${PREFIX}${sheetId}.`) && Number(key.split(".").pop()) < number) localStorage.removeItem(key);
      }
    } catch (e) { /* no storage */ }
  }

  function setUp(root) {
    const box = $("#referee", root);
    if (!box) return;
    let data;
    try { data = JSON.parse($("#referee-data", box).textContent); } catch (e) { return; }
    const sheetId = data.sheet;
    const storeKey = `${PREFIX}${sheetId}.${data.number}`;
    const auth = data.auth || {}; // a player's own phone: their seat token
    sweep(sheetId, data.number);
    const players = data.players;
    const el = {
      title: $("#referee-title", box),
      leaders: $("#referee-leaders", box),
      slots: $("#referee-slots", box),
      picker: $("#referee-picker", box),
      ask: $("#numx-ask", box),
      result: $("#referee-result", box),
      back: $("#referee-back", box),
      progress: $("#referee-progress", box),
    };
    const buttons = $$(".ref-card", el.picker);
    const labelOf = (card) => {
      if (!card) return "";
      const b = buttons.find((x) => keyOf(x.dataset.kind === "numx" ? { kind: "numx" } : { kind: x.dataset.kind, value: Number(x.dataset.value), name: x.dataset.name }) === keyOf(card));
      const label = b ? b.dataset.label : card.kind;
      return card.kind === "numx" ? `${label} ${card.as}` : label;
    };

    let state = {};
    // Only a trick this browser's identity tapped is taken back (static/js/device.js).
    try { state = JSON.parse(localStorage.getItem(storeKey) || "null") || {}; } catch (e) { state = {}; }
    if (!NumDevice.mine(state)) state = {};
    const save = () => { try { localStorage.setItem(storeKey, JSON.stringify(NumDevice.tagged(state))); } catch (e) { /* kept on screen */ } };

    const stored = () => (data.fields && Array.isArray(data.fields.tricks_played) ? data.fields.tricks_played : []);
    const editing = () => Number.isInteger(state.editing) && state.editing < stored().length;
    const index = () => (editing() ? state.editing : stored().length);
    const over = () => !editing() && stored().length >= data.cards;
    const clockwise = (leader) => { const at = Math.max(0, players.indexOf(leader)); return [...players.slice(at), ...players.slice(0, at)]; };
    function leader() {
      const i = index();
      if (i < stored().length) return stored()[i].leader;
      if (i === 0) return players.includes(state.leader) ? state.leader : data.first_leader;
      return data.next_leader;
    }
    function order() {
      const i = index();
      return i < stored().length ? stored()[i].plays.map((p) => p.player) : clockwise(leader());
    }
    // The cards on screen belong to one trick: another trick (stored meanwhile) starts afresh.
    function slotsFor() {
      const i = index();
      if (Array.isArray(state.slots) && state.index === i && state.slots.length === players.length) return;
      state.index = i;
      state.slots = i < stored().length ? stored()[i].plays.map((p) => p.card) : players.map(() => null);
      state.pending = false;
    }

    function render() {
      slotsFor();
      const i = index();
      const done = over();
      el.title.textContent = done
        ? gettext("Hand over: each player's tricks are counted in the round.")
        : editing()
          ? interpolate(gettext("Correcting trick %(number)s / %(cards)s · %(leader)s leads"), { number: i + 1, cards: data.cards, leader: leader() }, true)
          : interpolate(gettext("Trick %(number)s / %(cards)s · %(leader)s leads"), { number: i + 1, cards: data.cards, leader: leader() }, true);
      if (!done && !editing()) el.progress.textContent = interpolate(gettext("trick %(number)s / %(cards)s"), { number: i + 1, cards: data.cards }, true);
      el.leaders.hidden = done || i !== 0 || editing() || state.slots.some(Boolean);
      $$(".leader-choice", el.leaders).forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.player === leader())));
      el.back.hidden = !editing();
      el.picker.hidden = done;
      el.slots.hidden = done;
      // Each player's card, in the order played; the first empty one is the next to play.
      const ord = order();
      const next = state.slots.findIndex((c) => !c);
      el.slots.replaceChildren(...ord.map((player, k) => {
        const li = document.createElement("li");
        li.className = state.slots[k] ? "slot filled" : k === next ? "slot next" : "slot";
        const who = document.createElement("span");
        who.className = "slot-player";
        who.textContent = player;
        li.append(who);
        const card = state.slots[k];
        if (card) {
          const b = document.createElement("button");
          b.type = "button";
          b.className = `chip c-${card.kind}`;
          b.textContent = `${labelOf(card)} ×`;
          b.setAttribute("aria-label", interpolate(gettext("Take back %(player)s's %(card)s"), { player, card: labelOf(card) }, true));
          b.disabled = sending;
          b.addEventListener("click", () => { state.slots[k] = null; state.pending = false; save(); render(); });
          li.append(b);
        } else {
          const wait = document.createElement("span");
          wait.className = "muted";
          wait.textContent = k === next ? gettext("to play") : "…";
          li.append(wait);
        }
        return li;
      }));
      // A card of another trick of the hand, or already in this one, cannot be tapped again.
      const used = new Set(stored().filter((_t, k) => k !== i).flatMap((t) => t.plays.map((p) => keyOf(p.card))));
      state.slots.forEach((c) => { if (c) used.add(keyOf(c)); });
      const full = next < 0;
      buttons.forEach((b) => {
        const key = keyOf(b.dataset.kind === "numx" ? { kind: "numx" } : { kind: b.dataset.kind, value: Number(b.dataset.value), name: b.dataset.name });
        b.disabled = sending || full || used.has(key);
        b.classList.toggle("used", used.has(key));
      });
    }

    function tap(card) {
      const k = state.slots.findIndex((c) => !c);
      if (k < 0 || sending) return;
      state.slots[k] = card;
      save();
      render();
      if (state.slots.every(Boolean)) resolveAndStore();
    }

    function say2(lines, cls = "") {
      el.result.className = `referee-result ${cls}`.trim();
      el.result.replaceChildren(...lines);
    }
    function line(text, tag = "p", cls = "") {
      const n = document.createElement(tag);
      if (cls) n.className = cls;
      n.textContent = text;
      return n;
    }
    function showResult(number, result) {
      const head = line("", "p", "winner-line");
      const strong = document.createElement("b");
      strong.textContent = result.winner
        ? interpolate(gettext("Trick %(number)s · %(winner)s takes it"), { number, winner: result.winner }, true)
        : interpolate(gettext("Trick %(number)s · nobody takes it"), { number }, true);
      head.append(strong);
      const ul = document.createElement("ul");
      ul.className = "why";
      result.details.forEach((d) => ul.append(line(d, "li")));
      say2([head, ul]);
    }
    function showProblem(text, errors = []) {
      const nodes = [line(text, "p", "warn-line")];
      if (errors.length) {
        const ul = document.createElement("ul");
        errors.forEach((e) => ul.append(line(e.message, "li")));
        nodes.push(ul);
      }
      say2(nodes, "error");
    }

    async function resolveTrick(plays, played) {
      const engine = NumEngine;
      const lang = document.documentElement.lang;
      if (engine && engine.isReady && engine.isReady()) {
        try {
          return await engine.trick(data.slug, players, data.options, plays, played, lang);
        } catch (err) {
          if (err && err.errors) throw err;
          // The in-page engine failed: the server answers the same.
        }
      }
      const resp = await fetch(data.urls.trick, { method: "POST", headers: headers(), body: JSON.stringify({ players, options: data.options, plays, played }) });
      const body = await resp.json().catch(() => ({}));
      if (resp.ok) return body;
      const err = new Error(body.detail || "");
      err.errors = body.errors || [];
      throw err;
    }

    function waitNetwork() {
      state.pending = true;
      save();
      showProblem(gettext("⏳ No network: the trick stays on this phone and is sent when the network is back."));
      onOnline = () => { onOnline = null; if (document.contains(box) && state.slots.every(Boolean)) resolveAndStore(); };
    }

    async function resolveAndStore() {
      const i = index();
      const ord = order();
      const plays = ord.map((player, k) => ({ player, card: state.slots[k] }));
      const played = stored().slice(0, i).flatMap((t) => t.plays.map((p) => p.card));
      sending = true;
      render();
      try {
        let result;
        try {
          result = await resolveTrick(plays, played);
        } catch (err) {
          if (err && err.errors) { showProblem(gettext("This trick cannot be refereed:"), err.errors); return; }
          waitNetwork();
          return;
        }
        state.last = { number: i + 1, result };
        save();
        showResult(i + 1, result);
        await store(i, { leader: ord[0], plays });
      } finally {
        sending = false;
        if (redraw) redraw();
      }
    }

    // Say why the hand on screen changed, and show it as the server has it now.
    async function tell(text) {
      showProblem(text);
      told = text;
      try { await refreshPage(); } finally { told = ""; }
    }

    // The trick goes into the round in progress as the server has it now: a write of another
    // phone since this page was shown (412) is read again, never overwritten.
    async function store(i, trick) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        if (!editing() && stored().length !== i) {
          await tell(gettext("Another phone stored this trick meanwhile: here is the hand as it now is."));
          return;
        }
        let resp;
        try {
          resp = await fetch(`${data.urls.tricks}${i + 1}/`, {
            method: "PUT",
            credentials: "same-origin",
            headers: headers({ ...auth, "If-Match": `"${data.version}"` }),
            body: JSON.stringify({ number: data.number, ...trick }),
          });
        } catch (e) { waitNetwork(); return; }
        const body = await resp.json().catch(() => ({}));
        if (resp.ok) {
          // The result on screen is this trick's until another phone writes (the page then shows theirs).
          state = { open: true, leader: state.leader, last: { ...state.last, version: body.version } };
          save();
          if (NumLive) NumLive.shown(body.version);
          await refreshPage();
          return;
        }
        if (resp.status === 412) {
          let fresh = null;
          try {
            const r = await fetch(data.urls.draft, { cache: "no-store", credentials: "same-origin", headers: { ...auth, Accept: "application/json" } });
            fresh = r.ok ? await r.json() : null;
          } catch (e) { waitNetwork(); return; }
          if (!fresh || fresh.number !== data.number) break;
          data = { ...data, fields: fresh.fields, version: fresh.version };
          continue;
        }
        if (resp.status === 409) break;
        if (resp.status >= 500 || resp.status === 429) { waitNetwork(); return; }
        showProblem(gettext("Trick refused:"), body.errors || [{ message: body.detail || String(resp.status) }]);
        return;
      }
      await tell(gettext("The sheet changed on another phone: here is the hand as it now is."));
    }

    // ---- set-up ----
    box.open = Boolean(state.open);
    box.addEventListener("toggle", () => { state.open = box.open; save(); });
    $$(".leader-choice", el.leaders).forEach((b) => b.addEventListener("click", () => { state.leader = b.dataset.player; save(); render(); }));
    buttons.forEach((b) => b.addEventListener("click", () => {
      if (b.dataset.kind === "numx") {
        el.ask.hidden = false;
        $("button[data-as]", el.ask).focus();
        return;
      }
      tap(b.dataset.kind === "action" ? { kind: "action", name: b.dataset.name } : { kind: b.dataset.kind, value: Number(b.dataset.value) });
    }));
    $$("button[data-as]", el.ask).forEach((b) => b.addEventListener("click", () => {
      el.ask.hidden = true;
      tap({ kind: "numx", as: Number(b.dataset.as) });
    }));
    $("#numx-cancel", el.ask).addEventListener("click", () => { el.ask.hidden = true; });
    $$(".reopen", box).forEach((b) => b.addEventListener("click", () => {
      state.editing = Number(b.dataset.index);
      state.slots = null;
      save();
      render();
      el.title.scrollIntoView({ block: "nearest" });
    }));
    el.back.addEventListener("click", () => { state.editing = null; state.slots = null; save(); render(); });
    if (told) showProblem(told);
    else if (state.last && state.last.result && state.last.version === data.version) showResult(state.last.number, state.last.result);
    redraw = render;
    render();
    // A whole trick that waited for the network goes now.
    if (state.pending && state.slots.every(Boolean) && navigator.onLine) resolveAndStore();
    else if (state.pending) waitNetwork();
  }

  // This phone is storing a trick: its own answer will show the sheet as it then is.
  NumLive.writer(() => sending);

  return { setUp };
})();
join("referee", NumReferee);
