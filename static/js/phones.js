// The round in progress, shared by the table's phones: a player's own entry form, and the
// sheet's phone seeing the entries arrive.
import { $, $$, formFields, join, part, setUpCounts, setUpMain, setUpPicker, setUpSteppers } from "./app.js";
import { NumLive } from "./live.js";
import { NumWords } from "./words.js";

export const NumPhones = (() => {
  const sheetId = () => (location.pathname.match(/^\/(?:sheets|p)\/([^/]+)\//) || [])[1];
  const csrf = (form) => ($("input[name=csrfmiddlewaretoken]", form) || {}).value || "";
  const lang = document.documentElement.lang;

  let retrySeat = null; // the entry form on screen sends what waited for the network
  let lateEntry = null; // {number, bid}: an entry for round `number` that arrived after it was saved

  // Say that a late entry was not counted, on the next round's form, and offer its bid alone again.
  function offerLate(form) {
    const number = Number(form.elements.number.value);
    if (!lateEntry || number !== lateEntry.number + 1) { if (lateEntry && number > lateEntry.number + 1) lateEntry = null; return; }
    const status = $("#seat-status", form);
    const seat = form.dataset.seat;
    // English names the row with its capital ("Round 3"), French with its article (« La manche 3 »).
    status.textContent = interpolate(gettext("%(row)s was saved before your entry arrived: it is not counted."),
      { row: NumWords.row(lateEntry.number), noun: NumWords.noun().one, number: lateEntry.number }, true);
    const field = form.elements[`bid-${seat}`];
    if (lateEntry.bid === null || !field || field.type === "hidden") return;
    const bid = lateEntry.bid;
    const keep = document.createElement("button");
    keep.type = "button";
    keep.className = "ghost late-keep";
    keep.textContent = interpolate(gettext("Bid %(bid)s for %(noun)s %(number)s"), { bid, noun: NumWords.noun().one, number }, true);
    keep.addEventListener("click", () => { field.value = String(bid); lateEntry = null; form.requestSubmit(); });
    status.after(keep);
  }
  window.addEventListener("online", () => { if (retrySeat) retrySeat(); });

  // A player's own phone: send their entry to the round in progress.
  function setUpSeat(form) {
    const token = location.pathname.replace(/\/$/, "").split("/").pop();
    const player = form.dataset.player;
    const seat = form.dataset.seat;
    const status = $("#seat-status", form);
    if ($("fieldset.hand", form)) setUpPicker(form);
    else if ($(".counts", form)) setUpCounts(form);
    setUpSteppers(form);

    // The entry stays on this phone until the server has it (a dead network, a reload).
    const key = `num.seat.${sheetId()}.${seat}`;
    const pending = () => { try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; } };

    async function send(number, body = null) {
      status.textContent = gettext("Sending…");
      // The form as it posts: the engine reads this player's entry out of it (scoring/games/form.py).
      const payload = body || { form: formFields(form), number };
      localStorage.setItem(key, JSON.stringify(payload));
      let resp;
      try {
        resp = await fetch(`/api/v1/sheets/${sheetId()}/draft/entries/${encodeURIComponent(player)}/`, {
        method: "PUT",
        headers: {
          "Content-Type": "application/json",
          "Accept-Language": lang,
          "X-Seat-Token": token,
          "X-CSRFToken": csrf(form),
        },
        body: JSON.stringify(payload),
        });
      } catch (e) {
        status.textContent = gettext("⏳ Waiting for the network: sent as soon as it is back.");
        return;
      }
      const answer = await resp.json().catch(() => ({}));
      form.querySelectorAll(".late-keep").forEach((b) => b.remove());
      if (resp.ok || resp.status === 400 || resp.status === 409 || resp.status === 404) localStorage.removeItem(key);
      status.classList.toggle("error", !resp.ok);
      if (resp.ok) {
        lateEntry = null;
        // What this form holds now, the table has: it is no longer "typed here and not sent".
        if (!body) startValues.set(form, formValues(form));
        status.textContent = gettext("✓ The table has your entry.");
        return;
      }
      const errors = answer.errors || [];
      status.textContent = errors.map((e) => e.message).join(" ") || gettext("No network: try again.");
      const late = errors.find((e) => e.code === "round_saved");
      if (late) {
        // The round was saved before this entry arrived: the page moves on to the next round.
        // Only a bid may be offered again, as a bid alone: tricks, a hand or points belong to
        // the round they were played in. The offer stays while that round is on screen.
        const sent = payload.form || {};
        const said = (field) => (sent[`${field}-${seat}`] || "").trim();
        lateEntry = { number: Number(payload.number), bid: said("bid") !== "" && said("tricks") === "" ? said("bid") : null };
        await refreshSeat();
      }
    }

    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      send(Number(form.elements.number.value));
    });
    const retry = () => { const p = pending(); if (p) send(p.number, p); };
    retrySeat = retry;
    retry();
    offerLate(form);
    // What the server rendered: anything else in the form was typed here and not sent yet.
    startValues.set(form, formValues(form));
  }

  // The sheet's phone: it follows the sheet as the other phones change it (static/js/live.js):
  // their entries appear in its form and board, merged with what its own person typed (table.js).
  function setUpSheetPage(root) {
    $$(".seat-url", root).forEach((i) => i.addEventListener("focus", () => i.select()));
    const board = $("#board", document);
    const id = sheetId();
    const table = part("table");  // the sheet's phone's (table.js, loaded by the sheet page)
    if (!board || !id || !table || !$("#sheet-data")) return;
    NumLive.follow({
      url: `/api/v1/sheets/${id}/events/`,
      version: board.dataset.version,
      onChange: async () => {
        await table.refreshLive();
        return Number(($("#board") || {}).dataset?.version || 0);
      },
      poll: async () => {
        const resp = await fetch(`/api/v1/sheets/${id}/draft/`, { cache: "no-store", credentials: "same-origin" });
        return resp.ok ? { version: (await resp.json()).version } : null;
      },
    });
  }

  // A player's own phone: the page follows the sheet; a new round brings an empty form with its
  // own limits, and what was typed and not sent stays only while it is still the same round.
  function followSeat() {
    const board = $("#board", document);
    const id = sheetId();
    const token = location.pathname.replace(/\/$/, "").split("/").pop();
    if (!board || !id) return;
    NumLive.follow({
      url: `/api/v1/sheets/${id}/events/?seat=${encodeURIComponent(token)}`,
      version: board.dataset.version,
      onChange: refreshSeat,
      poll: async () => {
        const resp = await fetch(`/api/v1/sheets/${id}/draft/`, { cache: "no-store", headers: { "X-Seat-Token": token } });
        return resp.ok ? { version: (await resp.json()).version } : null;
      },
    });
  }

  const formValues = (form) => {
    const values = {};
    $$("input, select, textarea", form).forEach((el) => { if (el.name) values[el.name] = el.type === "checkbox" ? el.checked : el.value; });
    return values;
  };

  function typedValues(form) {
    const start = form && startValues.get(form);
    if (!start) return {};
    const out = {};
    $$("input, select, textarea", form).forEach((el) => {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.name === "number") return;
      const value = el.type === "checkbox" ? el.checked : el.value;
      if (value !== start[el.name]) out[el.name] = value;
    });
    return out;
  }

  async function refreshSeat() {
    let resp;
    try { resp = await fetch(location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" }); } catch (e) { return 0; }
    if (!resp.ok) return 0;
    const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
    const fresh = $("main", doc);
    if (!fresh) return 0;
    const old = $("#seat-form");
    const oldNumber = old ? old.elements.number.value : null;
    const typed = typedValues(old);
    const said = old ? $("#seat-status", old) : null;
    const focused = document.activeElement && document.activeElement.id;
    $("main").replaceWith(fresh);
    setUpMain(fresh);
    const form = $("#seat-form");
    const status = form && $("#seat-status", form);
    if (form && form.elements.number.value === oldNumber) {
      Object.entries(typed).forEach(([name, value]) => {
        const el = form.elements[name];
        if (!el || el.type === "hidden" && !name.startsWith("cards-")) return;
        if (el.type === "checkbox") el.checked = Boolean(value); else el.value = value;
        el.dispatchEvent(new Event("input", { bubbles: true }));
      });
      if (focused && document.getElementById(focused)) document.getElementById(focused).focus({ preventScroll: true });
      // What the phone last said of its own entry (« ✓ », an error) still holds for this round.
      if (status && said && said.textContent) { status.textContent = said.textContent; status.className = said.className; }
    } else if (status && oldNumber && Object.keys(typed).length && !lateEntry) {
      status.textContent = interpolate(gettext("%(row)s was saved: what you entered for it is not counted."),
        { row: NumWords.row(oldNumber), noun: NumWords.noun().one, number: oldNumber }, true);
    }
    return Number(($("#board") || {}).dataset?.version || 0);
  }

  const startValues = new WeakMap();
  function setUpPage(root) {
    const seatForm = $("#seat-form", root);
    if (seatForm) setUpSeat(seatForm);
    if (location.pathname.startsWith("/p/")) followSeat();
    else setUpSheetPage(root);
  }
  // The page shown afresh as the server now has it: a player's own phone, or the sheet's (table.js).
  const refresh = () => (location.pathname.startsWith("/p/") ? refreshSeat() : part("table").refreshLive());
  return { setUpPage, refresh };
})();
join("phones", NumPhones);
