// Num scores: nothing typed at the table is lost. Drafts of the entry form (localStorage),
// rounds saved through the API without a history entry, an outbox of rounds waiting for
// the network (IndexedDB), the undo toast. See docs/offline.md. No inline script: the
// page's data comes in a JSON block (#sheet-data).
import { formFields, join, setUpMain } from "./app.js";
import { NumDevice } from "./device.js";
import { NumEngine } from "./engine.js";
import { NumLive } from "./live.js";
import { NumWords } from "./words.js";

export const NumTable = (() => {
  const q = (sel, root = document) => root.querySelector(sel);
  const qq = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  // Counts, numbers and the game's own noun of a row (« manche », « partie »): static/js/words.js.
  const { plural, number } = NumWords;
  const noun = () => NumWords.noun().one;

  const DRAFT_PREFIX = "num.draft.";
  const DRAFT_DAYS = 30;
  const RETRY_MS = 15000;
  const TOAST_MS = 12000;
  // Fields that are not typed: the page sets them.
  const NOT_TYPED = new Set(["csrfmiddlewaretoken", "version", "number", "deck", "cards", "confirm_empty", "won"]);

  let data = null; // the page's #sheet-data
  let form = null;
  let picker = null;
  let initial = null; // the form's fields as the server rendered them
  let busy = false;
  let inPlace = 0; // forms sent without a history entry (remove, restore) still waiting for their page
  let liveRefresh = false; // the page is being shown afresh because another phone wrote

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function readData(root) {
    const block = q("#sheet-data", document) || q("#sheet-data", root);
    try { return block ? JSON.parse(block.textContent) : null; } catch (e) { return null; }
  }

  function game() { return JSON.parse(form.dataset.game); }

  // ---- the form's fields ---------------------------------------------------------

  function fields() {
    return qq("input, select, textarea", form).filter((el) => el.name && !NOT_TYPED.has(el.name)
      && !["submit", "button", "reset"].includes(el.type));
  }

  function readFields() {
    const out = {};
    fields().forEach((el) => {
      if (el.type === "radio") { if (el.checked) out[el.name] = el.value; }
      else if (el.type === "checkbox") out[el.name] = el.checked;
      else if (el.name.startsWith("cards-") && el.value) {
        // The same picks whatever the spacing of their JSON.
        try { out[el.name] = JSON.stringify(JSON.parse(el.value)); } catch (e) { out[el.name] = el.value; }
      } else out[el.name] = el.value;
    });
    return out;
  }

  function writeFields(values) {
    fields().forEach((el) => {
      if (!(el.name in values)) return;
      if (el.type === "radio") el.checked = values[el.name] === el.value;
      else if (el.type === "checkbox") el.checked = Boolean(values[el.name]);
      else el.value = values[el.name];
    });
    if (picker) picker.reload();
    const box = q(".bidtricks", form);
    if (box) box.dispatchEvent(new Event("input", { bubbles: true }));
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  // The fields a round sent as its form holds (to load a refused one back into the form).
  function fieldsOfForm(sent) {
    const values = { ...initial };
    fields().forEach((el) => {
      if (el.type === "checkbox") values[el.name] = sent[el.name] === el.value;
      else if (el.type === "radio") values[el.name] = sent[el.name] ?? "";
      else if (el.name in sent) values[el.name] = sent[el.name];
    });
    return values;
  }

  // ---- drafts --------------------------------------------------------------------
  // One per sheet and round: "round.N" for the next round N, "edit.N" for round N being
  // edited. A draft of round N is only ever put back into round N's form; an edit draft
  // only while round N is still as it was when the edit started (its `base`).

  function formNumber() { return Number((q("input[name=number]", form) || {}).value || 0); }
  function draftKey(number) {
    return data.editing ? `${DRAFT_PREFIX}${data.id}.edit.${data.editing}` : `${DRAFT_PREFIX}${data.id}.round.${number ?? formNumber()}`;
  }
  function draftBase() { return data.editing ? JSON.stringify(data.rounds[data.editing - 1] ?? null) : ""; }
  function loadDraft(number) {
    try {
      const d = JSON.parse(localStorage.getItem(draftKey(number)) || "null");
      return d && d.base === draftBase() && NumDevice.mine(d) ? d : null;
    } catch (e) { return null; }
  }
  // A draft is this browser's identity's (device.js): another person's is never put back.
  function storeDraft(d, number) {
    try { localStorage.setItem(draftKey(number), JSON.stringify(NumDevice.tagged(d))); } catch (e) { /* storage full or off: the form still holds it */ }
  }
  function dropDraft(number) { try { localStorage.removeItem(draftKey(number)); } catch (e) { /* nothing kept */ } }

  function saveDraft() {
    const now = readFields();
    const old = loadDraft();
    if (same(now, initial)) {
      if (old) dropDraft();
      draftState("");
      return;
    }
    // Only what was typed here is kept: the rest of the form follows the server (the round
    // in progress that other phones fill in). The Idempotency-Key is made when the draft
    // starts: a retry of the same round is one round.
    const typed = Object.fromEntries(Object.entries(now).filter(([name, value]) => !same(value, initial[name])));
    storeDraft({ fields: typed, key: (old && old.key) || newKey(), base: draftBase(), saved_at: Date.now() });
    draftState(gettext("Entry kept on this phone"));
  }

  function draftState(text) { const out = q("#draft-state", form); if (out) out.textContent = text; }

  // Old drafts, and drafts of rounds the sheet now has, are dropped.
  function sweepDrafts() {
    const limit = Date.now() - DRAFT_DAYS * 86400000;
    try {
      for (let i = localStorage.length - 1; i >= 0; i -= 1) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith(DRAFT_PREFIX)) continue;
        let d = null;
        try { d = JSON.parse(localStorage.getItem(key)); } catch (e) { d = null; }
        const mine = data && key.startsWith(`${DRAFT_PREFIX}${data.id}.round.`);
        const past = mine && Number(key.split(".").pop()) <= data.round_count;
        if (!d || !d.saved_at || d.saved_at < limit || past) localStorage.removeItem(key);
      }
    } catch (e) { /* no storage */ }
  }

  // ---- the outbox (static/js/device.js): this browser's identities' rounds only ----------

  const Outbox = NumDevice.outbox;

  const waiting = (e) => e.state !== "refused";
  async function mine() { return data ? (await Outbox.all()).filter((e) => e.sheet === data.id) : []; }

  // ---- the page -----------------------------------------------------------------------

  function csrfToken() { const i = q("input[name=csrfmiddlewaretoken]"); return i ? i.value : ""; }

  function headers(key) {
    const h = { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": document.documentElement.lang, "X-CSRFToken": csrfToken() };
    if (key) h["Idempotency-Key"] = key;
    return h;
  }

  // Show a fresh copy of the page (no history entry), keeping `keep` typed in the form.
  // The field being typed in keeps the focus.
  async function refresh({ url, html, scroll = false, keep = null, tries = 5, live = false } = {}) {
    let text = html;
    if (text === undefined) {
      let resp;
      try {
        resp = await fetch(url || location.pathname, { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" });
      } catch (e) {
        // The network came back a moment ago and dropped again: show the sheet as stored a little later.
        if (tries > 1) setTimeout(() => refresh({ url, scroll, keep, tries: tries - 1 }), 2000);
        return;
      }
      if (!resp.ok) { location.replace(url || location.pathname); return; }
      text = await resp.text();
    }
    const doc = new DOMParser().parseFromString(text, "text/html");
    const fresh = q("main", doc);
    if (!fresh) { location.replace(url || location.pathname); return; }
    document.title = doc.title;
    const block = q("#sheet-data", doc);
    const oldBlock = q("#sheet-data");
    if (oldBlock) oldBlock.remove();
    if (block) document.body.append(block);
    const focused = document.activeElement && document.activeElement.id;
    q("main").replaceWith(fresh);
    liveRefresh = live;
    try { setUpMain(fresh); } finally { liveRefresh = false; }
    if (keep && form) { writeFields(keep); saveDraft(); }
    if (scroll) showTotals();
    else if (focused && document.getElementById(focused)) document.getElementById(focused).focus({ preventScroll: true });
  }

  // Another phone changed the sheet: show it as it now is. What this phone's person typed
  // for the round on screen stays (their typing wins); a field another phone changed too is
  // said, never silently dropped. What was typed for a round that is now saved is not carried.
  async function refreshLive() {
    const before = form && document.contains(form) && data && !data.editing
      ? { initial: { ...initial }, typed: (loadDraft() || {}).fields || {}, number: formNumber() } : null;
    await refresh({ live: true });
    const root = q("#entry");
    if (!before || !root) return;
    const typedNames = Object.keys(before.typed);
    if (form && document.contains(form) && formNumber() === before.number) {
      const clashes = typedNames.filter((name) => !same(before.initial[name], initial[name]) && !same(before.typed[name], initial[name]));
      if (clashes.length) {
        const names = [...new Set(clashes.map((name) => data.players[Number(name.split("-").pop())]).filter(Boolean))];
        liveNote(interpolate(gettext("Another phone also entered for %(names)s: your entry is kept here, check it before saving."), { names: names.join(", ") }, true));
      }
    } else if (typedNames.length && formNumber() !== before.number) {
      liveNote(interpolate(gettext("%(row)s was saved on another phone: what you entered here for it is not counted."),
        { row: NumWords.row(before.number), noun: noun(), number: before.number }, true));
    }
  }
  function liveNote(text) {
    const note = document.createElement("p");
    note.className = "banner warn";
    note.id = "live-note";
    note.setAttribute("role", "status");
    note.textContent = text;
    const old = q("#live-note");
    if (old) old.remove();
    const title = q("#entry h2");
    if (title) title.after(note);
  }

  // After a save: the totals and the next round's entry in view, without a long scroll.
  function showTotals() {
    const rows = qq("#totals tbody tr");
    const anchor = rows.length ? rows[rows.length - 1] : q("#totals");
    if (anchor) window.scrollTo({ top: Math.max(0, anchor.getBoundingClientRect().top + window.scrollY - 90), behavior: "instant" });
    const title = q("#entry h2");
    if (title) title.focus({ preventScroll: true });
  }

  function notice(text, actions = []) {
    clearNotice();
    const box = document.createElement("div");
    box.className = "notice";
    box.id = "save-notice";
    box.setAttribute("role", "alert");
    const p = document.createElement("p");
    p.textContent = text;
    box.append(p);
    actions.forEach(([label, cls, act]) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      b.textContent = label;
      b.addEventListener("click", act);
      box.append(b);
    });
    const save = q("#save-round", form) || q("button.primary", form);
    save.before(box);
    return box;
  }
  function clearNotice() { qq("#save-notice, .field-error, #form-errors").forEach((el) => el.remove()); qq(".invalid", form).forEach((el) => el.classList.remove("invalid")); }

  // The API's errors next to the fields they name (entries.<player>.<field>), all of them on top.
  function showErrors(errors) {
    clearNotice();
    const g = game();
    const list = document.createElement("div");
    list.className = "errors";
    list.id = "form-errors";
    list.setAttribute("role", "alert");
    const head = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = gettext("Please check:");
    head.append(strong);
    const ul = document.createElement("ul");
    list.append(head, ul);
    errors.forEach((e) => {
      const li = document.createElement("li");
      li.dataset.path = e.path;
      const name = g.players.filter((n) => e.path === `entries.${n}` || e.path.startsWith(`entries.${n}.`)).sort((a, b) => b.length - a.length)[0];
      // The list on top names the player when the message does not.
      li.textContent = name !== undefined && !e.message.includes(name) ? `${name} : ${e.message}` : e.message;
      ul.append(li);
      if (name === undefined) return;
      const field = e.path.slice(`entries.${name}.`.length).split(/[.[]/)[0];
      const spots = qq("[data-name]", form).filter((el) => el.dataset.name === name);
      const spot = spots.find((el) => q(`[name^='${field}-']`, el)) || spots[0];
      if (!spot) return;
      spot.classList.add("invalid");
      const p = document.createElement("p");
      p.className = "field-error";
      p.textContent = e.message;
      spot.append(p);
    });
    form.prepend(list);
    list.scrollIntoView({ block: "nearest" });
  }

  // ---- the empty-round question (the engine asks: "empty_round") -------------------------

  function ask(question) {
    let box = q("#empty-question", form);
    if (!box) {
      box = document.createElement("div");
      box.className = "question";
      box.id = "empty-question";
      box.setAttribute("role", "alertdialog");
      box.setAttribute("aria-labelledby", "empty-question-text");
      box.innerHTML = '<p id="empty-question-text"><strong></strong></p>';
      const yes = document.createElement("button");
      yes.className = "primary";
      yes.name = "confirm_empty";
      yes.value = "1";
      yes.id = "confirm-empty";
      yes.textContent = gettext("Save anyway");
      box.append(yes);
      (q("#save-round", form) || q("button.primary", form)).before(box);
    }
    q("#empty-question-text strong", box).textContent = question;
    box.hidden = false;
    q("#confirm-empty", box).focus();
  }
  function unask() { const box = q("#empty-question", form); if (box) box.remove(); }

  // ---- saving ----------------------------------------------------------------------------

  async function onSubmit(ev) {
    const submitter = ev.submitter;
    ev.preventDefault();
    // A button with its own action (the bids, saved before the hand) posts the form as it is,
    // and the sheet is shown afresh in place: every phone sees the bids, this one is not reloaded.
    if (submitter && submitter.hasAttribute("formaction")) { await sendStep(submitter); return; }
    if (busy) return;
    // The form as it posts, "save anyway" included: the engine reads it (and asks about an empty round).
    const round = { form: formFields(form, submitter) };
    unask();
    busy = true;
    qq("button[type=submit], button:not([type])", form).forEach((b) => { b.disabled = true; });
    try {
      if (data.editing) await saveEdit(round);
      else await saveNew(round);
    } finally {
      busy = false;
      if (form && document.contains(form)) {
        qq("button[type=submit], button:not([type])", form).forEach((b) => { b.disabled = false; });
        const box = q(".bidtricks", form);
        if (box) box.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
  }

  async function sendStep(submitter) {
    if (busy) return;
    busy = true;
    try {
      let resp = null;
      try {
        resp = await fetch(submitter.formAction, { method: "POST", body: new FormData(form, submitter), credentials: "same-origin" });
      } catch (e) {
        resp = null;
      }
      if (resp && (resp.ok || resp.status === 400)) { await refresh({ html: await resp.text() }); return; }
      notice(gettext("No network: the bids stay on this phone. Try again when it is back."));
    } finally {
      busy = false;
    }
  }

  async function saveNew(round) {
    saveDraft();
    const draft = loadDraft() || { key: newKey() };
    const number = formNumber();
    // `noun`: the game's word for a row, for the pages that list the rounds waiting (static/js/device.js).
    // `players`: the sheet's, to name the round on the pages that list what waits (static/js/device.js).
    const entry = { key: draft.key, sheet: data.id, number, noun: NumWords.noun(), players: data.players, body: round, created_at: Date.now(), state: "waiting", error: null };
    // Rounds already waiting go first: this one waits behind them, read first as the server will.
    if (!navigator.onLine || (await mine()).some(waiting)) { if (await readHere(round)) await queue(entry); return; }
    let resp;
    try {
      resp = await fetch(data.urls.rounds, { method: "POST", headers: headers(draft.key), credentials: "same-origin", body: JSON.stringify({ ...round, number }) });
    } catch (e) { if (await readHere(round)) await queue(entry); return; }
    if (resp.status >= 500) { await queue(entry, { status: resp.status }); return; }
    if (resp.ok) { dropDraft(number); await refresh({ url: data.urls.page, scroll: true }); return; }
    const body = await resp.json().catch(() => ({}));
    refused(resp.status, body, readFields());
  }

  // A round that waits for the network is read by the in-page engine first, as the rounds
  // endpoint will read it: what it cannot read is said now, and an empty round asked about
  // ("save anyway?"), before it waits. Without the engine it waits as typed, and the server
  // says it when it is sent. True when the round may wait.
  async function readHere(round) {
    if (!NumEngine.isReady()) return true;
    try {
      const { question } = await NumEngine.read(data.game, data.players, data.options, round.form, data.lang);
      if (question) { clearNotice(); ask(question); return false; }
      return true;
    } catch (e) {
      if (e.errors) { showErrors(e.errors); return false; }
      return true;  // the engine failed: the server reads it when it is sent
    }
  }

  async function saveEdit(round) {
    saveDraft();
    let resp;
    try {
      resp = await fetch(data.urls.round, { method: "PUT", headers: { ...headers(""), "If-Match": `"${data.version}"` }, credentials: "same-origin", body: JSON.stringify(round) });
    } catch (e) {
      notice(gettext("No network: the change stays on this phone. Save it when the network is back."));
      return;
    }
    if (resp.ok) {
      dropDraft();
      // Said on the sheet once it is shown (the page replaces this one: no history entry).
      try { sessionStorage.setItem("num.flash", interpolate(gettext("%(row)s saved."), { row: NumWords.row(data.editing) }, true)); } catch (e) { /* not said */ }
      location.replace(`${data.urls.page}#totals`);
      return;
    }
    const body = await resp.json().catch(() => ({}));
    refused(resp.status, body, readFields());
  }

  // A refused save: the round stays in the form (and its draft), the player is told why.
  function refused(status, body, typed) {
    const message = body.detail || (body.errors && body.errors[0] && body.errors[0].message) || "";
    const question = (body.errors || []).find((e) => e.code === "empty_round");
    if (status === 400 && question) { clearNotice(); ask(question.message); return; }
    if (status === 400 || status === 422) { showErrors(body.errors || [{ path: "", message }]); return; }
    if (status === 409 || status === 412) {
      notice(gettext("Another phone changed the sheet meanwhile. Your entry is kept: see the sheet as it is now, check, then save."),
      [[gettext("See the sheet as it is now (entry kept)"), "primary", () => refresh({ keep: typed })]]);
      return;
    }
    if (status === 403) {
      notice(gettext("This phone could not be recognised (session changed?). Your entry is kept: reload the page, then save."),
      [[gettext("Reload (entry kept)"), "primary", () => refresh({ keep: typed })]]);
      return;
    }
    if (status === 404) { notice(gettext("This sheet no longer exists.")); return; }
    notice(message || interpolate(gettext("The server could not save the %(noun)s. Your entry is kept: try again."), { noun: noun() }, true));
  }

  async function queue(entry, error = null) {
    entry.error = error;
    await Outbox.put(entry);
    dropDraft(entry.number);
    await showOutbox({ advance: true });
    if (navigator.onLine) flush();
    else scheduleSend();
  }

  // ---- pending rows --------------------------------------------------------------------

  // The waiting rounds scored with the stored ones by the in-page engine. Its last answer is
  // kept on the device (localStorage `num.scored.<sheet>`) for the same stored version and the
  // same waiting rounds: after a reload the page shows the same points, totals and next round
  // at once, before the engine is running again (or when it cannot run).
  const SCORED_PREFIX = "num.scored.";
  function keptScore(basis) {
    try {
      const kept = JSON.parse(localStorage.getItem(SCORED_PREFIX + data.id) || "null");
      return kept && kept.basis === basis ? kept.result : null;
    } catch (e) { return null; }
  }
  function keepScore(basis, result) {
    const { rounds, totals, next_round: nextRound, finished, schedule } = result;
    const kept = { rounds: rounds.map((r) => ({ points: r.points, tiebreak: Boolean(r.tiebreak) })), totals, next_round: nextRound, finished, schedule };
    try { localStorage.setItem(SCORED_PREFIX + data.id, JSON.stringify({ basis, result: kept })); } catch (e) { /* storage full or off */ }
  }
  function dropScore() { try { localStorage.removeItem(SCORED_PREFIX + data.id); } catch (e) { /* nothing kept */ } }

  async function score(entries) {
    const basis = JSON.stringify([data.version, entries.map((e) => [e.key, e.number])]);
    const engine = NumEngine;
    if (!engine.isReady()) return keptScore(basis);
    try {
      const result = await engine.score(data.game, data.players, data.options, [...data.rounds, ...entries.map((e) => e.body)], data.lang);
      keepScore(basis, result);
      return result;
    } catch (err) {
      return { failed: (err && err.errors && err.errors[0] && err.errors[0].message) || String(err && err.message || err) };
    }
  }

  function cell(text, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text;
    return td;
  }

  function pendingRow(entry, points, totals, width, lastError) {
    const tr = document.createElement("tr");
    tr.className = entry.state === "refused" ? "pending refused" : "pending";
    tr.dataset.key = entry.key;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = String(entry.number);
    const mark = document.createElement("small");
    mark.className = "pending-mark";
    mark.textContent = entry.state === "refused" ? gettext("refused") : gettext("waiting for the network");
    th.append(mark);
    tr.append(th);
    if (entry.state === "refused") {
      const td = cell(entry.error && entry.error.message ? entry.error.message : gettext("Refused by the server."), "pending-info");
      td.colSpan = width;
      td.append(document.createElement("br"));
      [[gettext("Load into the entry"), "primary", () => loadBack(entry)],
        [interpolate(gettext("Discard this %(noun)s"), { noun: noun() }, true), "ghost", () => discard(entry)]].forEach(([label, cls, act]) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = cls;
        b.textContent = label;
        b.addEventListener("click", act);
        td.append(b);
      });
      tr.append(td);
    } else if (points) {
      data.players.forEach((name) => {
        const td = document.createElement("td");
        const pts = document.createElement("span");
        pts.className = "pts";
        pts.textContent = points[name] === undefined ? "—" : number(points[name]);
        const run = document.createElement("span");
        run.className = "run";
        run.textContent = totals[name] === undefined ? "" : number(totals[name]);
        td.append(pts, document.createElement("br"), run);
        tr.append(td);
      });
    } else {
      const td = cell(lastError || gettext("points worked out when the network is back"), "pending-info");
      td.colSpan = width;
      tr.append(td);
    }
    return tr;
  }

  // Show this sheet's rounds waiting in the outbox; with `advance`, move the form to the next round.
  async function showOutbox({ advance = false } = {}) {
    if (!data || data.editing) return;
    const entries = await mine();
    const body = q("#totals tbody");
    if (!body) return;
    qq("tr.pending", body).forEach((tr) => tr.remove());
    const emptyRow = q("tr.empty-row", body);
    if (emptyRow) emptyRow.hidden = entries.length > 0;
    const wait = entries.filter(waiting);
    if (!wait.length) dropScore();
    const result = wait.length ? await score(wait) : null;
    const scored = result && !result.failed ? result : null;
    const running = {};
    data.players.forEach((n) => { running[n] = 0; });
    data.rounds.forEach((_r, i) => { if (scored && !scored.rounds[i].tiebreak) data.players.forEach((n) => { running[n] += scored.rounds[i].points[n] || 0; }); });
    let w = 0;
    entries.forEach((entry) => {
      let points = null;
      if (scored && waiting(entry)) {
        const r = scored.rounds[data.rounds.length + w];
        w += 1;
        if (r) { points = r.points; if (!r.tiebreak) data.players.forEach((n) => { running[n] += r.points[n] || 0; }); }
      }
      body.append(pendingRow(entry, points, { ...running }, data.players.length, result && result.failed ? result.failed : ""));
    });
    // The totals with the waiting rounds, marked as not yet on the server.
    qq("#totals tfoot tr.total-row td").forEach((td, i) => {
      if (td.dataset.stored === undefined) td.dataset.stored = td.textContent;
      const name = data.players[i];
      const shown = scored && wait.length && scored.totals[name] !== undefined;
      td.textContent = shown ? number(scored.totals[name]) : td.dataset.stored;
      td.classList.toggle("provisional", Boolean(shown));
    });
    const note = q("#outbox-note");
    if (note) {
      note.hidden = !entries.length;
      const refusedCount = entries.length - wait.length;
      note.textContent = !entries.length ? "" : [
        wait.length ? interpolate(gettext("⏳ %(rows)s waiting for the network: sent as soon as it is back."), { rows: NumWords.rows(wait.length) }, true) : "",
        refusedCount ? interpolate(ngettext("⚠ %(rows)s refused: load it back or discard it.", "⚠ %(rows)s refused: load them back or discard them.", refusedCount),
          { rows: NumWords.rows(refusedCount) }, true) : "",
      ].filter(Boolean).join(" ");
    }
    if (form && document.contains(form)) {
      const next = Math.max(data.round_count, ...wait.map((e) => e.number)) + 1;
      if (advance || next !== formNumber() || scored) moveTo(next, scored ? scored.next_round : undefined, scored ? scored.finished : false, Boolean(scored));
    }
  }

  // The form now enters round `number` (rounds wait before it): emptied, its own draft back.
  function moveTo(number, nextRound, finished, known) {
    const section = q("#entry");
    if (finished) { if (section) section.hidden = true; return; }
    if (section) section.hidden = false;
    q("input[name=number]", form).value = String(number);
    const title = q("#entry h2");
    if (title && !(nextRound && nextRound.tiebreak)) {
      // As the page's title says it (_round_title.html): "Manche 3/12 · 3 cartes".
      const of = data.schedule && data.schedule.rounds ? `/${data.schedule.rounds}` : "";
      const dealt = known && nextRound && nextRound.cards ? nextRound.cards : null;
      title.textContent = `${NumWords.row(number)}${of}${dealt ? ` · ${interpolate(ngettext("%(n)s card", "%(n)s cards", dealt), { n: dealt }, true)}` : ""}`;
    }
    const box = q(".bidtricks", form);
    if (box) {
      // Cards dealt: the engine knows; without it, the server checks them when the round is sent.
      const cards = known && nextRound ? nextRound.cards : null;
      const hidden = q("input[name=cards]", form);
      hidden.value = cards === null || cards === undefined ? "" : String(cards);
      box.dataset.cards = hidden.value;
      qq(".bids input, .tricks input", box).forEach((i) => { if (hidden.value) i.max = hidden.value; else i.removeAttribute("max"); });
      const deal = q("#deal", form);
      if (deal) deal.textContent = hidden.value ? interpolate(ngettext("🃏 %(n)s card per player", "🃏 %(n)s cards per player", Number(hidden.value)), { n: hidden.value }, true) : gettext("🃏 cards dealt: as the game's schedule says");
    }
    if (known && nextRound && nextRound.players && q("fieldset.hand", form)) {
      // A hand not at the next round's table is not sent with it (disabled fields are not posted).
      qq("fieldset.hand", form).forEach((hand) => { hand.hidden = !nextRound.players.includes(hand.dataset.name); hand.disabled = hand.hidden; });
    }
    const d = loadDraft(number);
    writeFields(d ? { ...initial, ...d.fields } : initial);
    clearNotice();
    unask();
  }

  async function discard(entry) {
    await Outbox.remove(entry.key);
    await closeGap(entry);
    await showOutbox();
    flush();
  }

  // A round refused for a rule error never reached the sheet: the rounds that waited behind it move up one place.
  async function closeGap(entry) {
    if (!entry.error || entry.error.status !== 400) return;
    for (const later of (await mine()).filter((e) => e.number > entry.number)) {
      await Outbox.remove(later.key);
      await Outbox.put({ ...later, number: later.number - 1, key: newKey() });
    }
  }

  async function loadBack(entry) {
    if (!same(readFields(), initial)) {
      notice(interpolate(gettext("Save or clear the entry being typed first, then load the refused %(noun)s."), { noun: noun() }, true));
      return;
    }
    if (!entry.body.form) {
      // Kept by an older page as a round, not as its form: it can only be discarded.
      notice(entry.error && entry.error.message ? entry.error.message : gettext("Refused by the server."));
      return;
    }
    await Outbox.remove(entry.key);
    await closeGap(entry);
    await showOutbox();
    writeFields(fieldsOfForm(entry.body.form));
    saveDraft();
    const section = q("#entry");
    if (section) section.scrollIntoView({ block: "start" });
    notice(entry.error && entry.error.message ? entry.error.message : interpolate(gettext("%(noun)s loaded into the entry."), { noun: NumWords.capital() }, true));
    flush();
  }

  // ---- sending the outbox --------------------------------------------------------------

  let sending = false;
  let timer = null;
  function scheduleSend() { clearTimeout(timer); timer = setTimeout(flush, RETRY_MS); }

  // Send waiting rounds in order, each with its key (a retry is answered, not stored twice).
  async function flush() {
    // A page without a form has no CSRF token to send with: the next sheet page sends.
    if (sending || !csrfToken()) return;
    if (!navigator.onLine) { scheduleSend(); return; }
    sending = true;
    let changedHere = false;
    let left = false;
    try {
      const all = await Outbox.all();
      const sheets = [...new Set(all.map((e) => e.sheet))];
      for (const sheet of sheets) {
        for (const entry of all.filter((e) => e.sheet === sheet)) {
          if (entry.state === "refused") { left = true; break; }
          let resp;
          try {
            resp = await fetch(`/api/v1/sheets/${encodeURIComponent(sheet)}/rounds/`, { method: "POST", headers: headers(entry.key), credentials: "same-origin", body: JSON.stringify({ ...entry.body, number: entry.number }) });
          } catch (e) { left = true; return; }
          if (resp.ok) {
            await Outbox.remove(entry.key);
            if (data && sheet === data.id) changedHere = true;
            continue;
          }
          const body = await resp.json().catch(() => ({}));
          const message = body.detail || (body.errors && body.errors[0] && body.errors[0].message) || "";
          left = true;
          if ([400, 404, 409, 412, 422].includes(resp.status)) {
            const why = resp.status === 409 || resp.status === 412
              ? interpolate(gettext("Another phone changed the sheet: %(noun)s %(number)s was not added."), { noun: noun(), number: entry.number }, true)
              : resp.status === 404 ? gettext("This sheet no longer exists (or this phone may no longer change it).") : message;
            await Outbox.put({ ...entry, state: "refused", error: { status: resp.status, message: why, errors: body.errors || [] } });
            if (data && sheet === data.id) changedHere = true;
          } else {
            // Throttled, server trouble, session to refresh: it stays waiting and is tried again.
            await Outbox.put({ ...entry, error: { status: resp.status, message } });
          }
          break;
        }
      }
    } finally {
      sending = false;
      if (left) scheduleSend();
      if (changedHere && data && !data.editing) await refresh({ url: data.urls.page, scroll: true });
    }
  }

  // ---- the undo toast and forms sent without a history entry ---------------------------

  function setUpToast(root) {
    const toast = q("#undo-toast", root);
    if (!toast) return;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.textContent = "×";
    close.setAttribute("aria-label", gettext("Close"));
    close.addEventListener("click", () => toast.remove());
    toast.append(close);
    // At least TOAST_MS on screen; never while the player is on it.
    let hide = null;
    const arm = () => { clearTimeout(hide); hide = setTimeout(() => toast.remove(), TOAST_MS); };
    toast.addEventListener("pointerenter", () => clearTimeout(hide));
    toast.addEventListener("focusin", () => clearTimeout(hide));
    toast.addEventListener("pointerleave", arm);
    toast.addEventListener("focusout", arm);
    arm();
  }

  // Remove / restore a round: the same form post, answered by the fresh sheet, shown in place.
  function sendInPlace(f) {
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      inPlace += 1;
      try {
        const resp = await fetch(f.action, { method: "POST", body: new FormData(f), credentials: "same-origin" });
        if (resp.ok && resp.redirected) { await refresh({ html: await resp.text(), scroll: true }); return; }
      } catch (e) { /* no network: say so below */ } finally { inPlace -= 1; }
      const out = document.createElement("p");
      out.className = "field-error";
      out.setAttribute("role", "alert");
      out.textContent = gettext("No network: try again when it is back.");
      f.after(out);
    });
  }

  // ---- set-up -------------------------------------------------------------------------

  // This phone is writing to the sheet: its own answer will show the sheet as it then is.
  const writing = () => busy || sending || inPlace > 0;
  NumLive.writer(writing);
  NumDevice.sendWith(() => flush());

  return {
    // Before the picker reads the fields: remember what the server rendered, put the draft back.
    beforeForm(f) {
      form = f;
      data = readData(document);
      picker = null;
      if (!data) return null;
      sweepDrafts();
      initial = readFields();
      let d = loadDraft();
      // Put back only what differs from the sheet as stored: a draft the server now holds
      // (bids saved, an entry sent) is nothing to restore.
      const differs = d ? Object.keys(d.fields).filter((name) => name in initial && !same(d.fields[name], initial[name])) : [];
      if (d && !differs.length) { dropDraft(); d = null; }
      if (d) {
        fields().forEach((el) => {
          if (!(el.name in d.fields)) return;
          if (el.type === "radio") el.checked = d.fields[el.name] === el.value;
          else if (el.type === "checkbox") el.checked = Boolean(d.fields[el.name]);
          else el.value = d.fields[el.name];
        });
      }
      return {
        afterForm(p) {
          picker = p;
          if (d && !liveRefresh) draftState(gettext("Entry restored: it was kept on this phone"));
          else if (d) draftState(gettext("Entry kept on this phone"));
          f.addEventListener("input", saveDraft);
          f.addEventListener("change", saveDraft);
          f.addEventListener("picked", saveDraft);
          f.addEventListener("submit", onSubmit);
          const clear = q("#clear-draft", f);
          if (clear) {
            clear.addEventListener("click", (ev) => {
              ev.preventDefault();
              dropDraft();
              writeFields(initial);
              clearNotice();
              unask();
              draftState(gettext("Entry cleared"));
            });
          }
        },
      };
    },
    setUpPage(root) {
      data = readData(document);
      let flash = null;
      try { flash = sessionStorage.getItem("num.flash"); sessionStorage.removeItem("num.flash"); } catch (e) { flash = null; }
      const main = q("main", document);
      if (flash && main) {
        const ul = document.createElement("ul");
        ul.className = "messages";
        ul.setAttribute("role", "status");
        const li = document.createElement("li");
        li.className = "success";
        li.textContent = flash;
        ul.append(li);
        main.prepend(ul);
      }
      if (!q("#round-form", root)) form = null;
      setUpToast(root);
      qq("form.undo, #undo-toast form", root).forEach(sendInPlace);
      // Back/Forward may show a copy kept by the browser from before the last saves: show the sheet as it is.
      const nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
      if (data && root === document && nav && nav.type === "back_forward" && navigator.onLine) {
        refresh({ url: location.pathname });
        return;
      }
      if (data && !data.editing) {
        showOutbox().then(flush);
        // The in-page engine may come later: then the waiting rounds get their points.
        NumEngine.ready.then((ok) => { if (ok) showOutbox(); }, () => {});
      } else flush();
    },
    flushNow: () => flush(),
    refreshLive,
    writing,
  };
})();
join("table", NumTable);

window.addEventListener("online", () => { NumTable.flushNow(); });
window.addEventListener("pageshow", (ev) => {
  // A sheet page brought back from the back/forward cache may be stale.
  if (ev.persisted && document.querySelector("#sheet-data")) location.reload();
});
