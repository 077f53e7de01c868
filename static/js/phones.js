// The round in progress, shared by the table's phones: a player's own entry form, and the
// sheet's phone seeing the entries arrive. Loaded after app.js (its $, $$, say, setUpPicker).
"use strict";

(() => {
  const sheetId = () => (location.pathname.match(/^\/(?:sheets|p)\/([^/]+)\//) || [])[1];
  const csrf = (form) => ($("input[name=csrfmiddlewaretoken]", form) || {}).value || "";
  const lang = document.documentElement.lang;

  // A player's own phone: send their entry to the round in progress.
  function setUpSeat(form) {
    const token = location.pathname.replace(/\/$/, "").split("/").pop();
    const player = form.dataset.player;
    const seat = form.dataset.seat;
    const status = $("#seat-status", form);
    if ($("fieldset.hand", form)) setUpPicker(form);
    else if ($(".counts", form)) setUpCounts(form);
    setUpSteppers(form);

    function entry() {
      const kind = form.dataset.kind;
      const read = (name) => { const i = $(`[name="${name}-${seat}"]`, form); return i ? i.value.trim() : ""; };
      const out = {};
      if (kind === "bid_tricks") {
        for (const field of ["bid", "tricks"]) if (read(field) !== "") out[field] = Number(read(field));
      } else if (kind === "counts") {
        const row = $("fieldset.count-row", form);
        return row ? countEntry(row) : {};
      } else if (kind === "seat_result") {
        if (read("placed") !== "") out.placed = Number(read("placed"));
        out.eliminated = Boolean($(`[name="eliminated-${seat}"]`, form)?.checked);
      } else {
        const typed = readTyped(read("points"));
        const hand = $("fieldset.hand", form);
        if (typed.value !== null) out.points = typed.value;
        else out.cards = hand ? handCards(hand) : [];
      }
      return out;
    }

    // The entry stays on this phone until the server has it (a dead network, a reload).
    const key = `num.seat.${sheetId()}.${seat}`;
    const pending = () => { try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; } };

    async function send(number, body = null) {
      status.textContent = say("Envoi…", "Sending…");
      const payload = body || { ...entry(), number };
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
        status.textContent = say("⏳ En attente de réseau : envoyé dès son retour.", "⏳ Waiting for the network: sent as soon as it is back.");
        return;
      }
      const answer = await resp.json().catch(() => ({}));
      form.querySelectorAll(".late-keep").forEach((b) => b.remove());
      if (resp.ok || resp.status === 400 || resp.status === 409 || resp.status === 404) localStorage.removeItem(key);
      status.classList.toggle("error", !resp.ok);
      if (resp.ok) {
        status.textContent = say("✓ Saisie reçue par la table.", "✓ The table has your entry.");
        return;
      }
      const errors = answer.errors || [];
      status.textContent = errors.map((e) => e.message).join(" ") || say("Pas de réseau : réessayez.", "No network: try again.");
      const late = errors.find((e) => e.code === "round_saved");
      if (late) {
        const next = Number(form.elements.number.value) + 1;
        const keep = document.createElement("button");
        keep.type = "button";
        keep.className = "ghost late-keep";
        keep.textContent = say(`Garder pour la manche ${next}`, `Keep it for round ${next}`);
        keep.addEventListener("click", () => { form.elements.number.value = String(next); send(next); });
        status.after(keep);
      }
    }

    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      // Points the server would refuse are refused here, in its words, before anything is sent.
      const problems = typedProblems(form);
      status.classList.toggle("error", problems.length > 0);
      if (problems.length) { status.textContent = problems.map((p) => p.message).join(" "); return; }
      send(Number(form.elements.number.value));
    });
    const retry = () => { const p = pending(); if (p) send(p.number, p); };
    window.addEventListener("online", retry);
    retry();
  }

  // The sheet's phone: when another phone sends an entry, show it; the form is reloaded
  // with it only while nothing is being typed here, else a button offers it. Set up again
  // each time the page's main is shown afresh (a round saved in place, table.js): the form,
  // the version and what was typed are those of the page on screen, never an earlier one.
  let shown = null; // {form, version, touched}
  let polling = false;
  function setUpSheetPage(root) {
    $$(".seat-url", root).forEach((i) => i.addEventListener("focus", () => i.select()));
    const form = $("#round-form", root);
    shown = form && $("#seat-links", root) ? { form, version: $("#board", root)?.dataset.version, touched: false } : null;
    if (!shown) return;
    const mine = shown;
    // Only a person's typing counts (the page's own script fires input events too, to update previews).
    form.addEventListener("input", (ev) => { if (ev.isTrusted) mine.touched = true; });
    form.addEventListener("click", (ev) => { if (ev.isTrusted && ev.target.closest("button")) mine.touched = true; });
    if (!polling) { polling = true; setTimeout(poll, 2000); }
  }
  async function poll() {
    const mine = shown;
    if (!mine || !document.contains(mine.form)) { polling = false; return; }
    try {
      const resp = await fetch(`/api/v1/sheets/${sheetId()}/draft/`, {
        headers: { "If-None-Match": `"${mine.version}"` }, cache: "no-store",
      });
      // A version this phone wrote itself (a round saved, removed, restored) is shown by its own answer.
      const writing = window.NumTable && window.NumTable.writing();
      if (resp.status === 200 && mine === shown && !writing) {
        const draft = await resp.json();
        if (String(draft.version) !== String(mine.version)) {
          mine.version = String(draft.version);
          if (!mine.touched) { location.reload(); return; }
          offer(mine.form);
        }
      }
    } catch (e) { /* no network: the next tick tries again */ }
    setTimeout(poll, document.hidden ? 10000 : 2000);
  }
  function offer(form) {
    if ($("#draft-news")) return;
    const note = document.createElement("p");
    note.id = "draft-news";
    note.className = "banner";
    note.setAttribute("role", "status");
    const reload = document.createElement("button");
    reload.type = "button";
    reload.className = "ghost";
    reload.textContent = say("Voir les nouvelles saisies", "Show the new entries");
    reload.addEventListener("click", () => location.reload());
    note.append(say("D'autres téléphones ont saisi. ", "Other phones sent entries. "), reload);
    form.before(note);
  }
  window.NumPhones = { setUpPage: setUpSheetPage };

  document.addEventListener("DOMContentLoaded", () => {
    const seatForm = $("#seat-form");
    if (seatForm) setUpSeat(seatForm);
  });
})();
