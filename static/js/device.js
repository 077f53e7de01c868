// Whose data this phone keeps (docs/offline.md, « Who it belongs to »). The page names the
// identities its browser holds on the server (<meta name="num-device">: the account logged in,
// the browser's anonymous owner id; opaque keys): what the scripts keep — the names typed, the
// drafts, the referee's trick, the outbox of rounds waiting for the network — is tagged with the
// first, and read or sent only when tagged with one of them. After a logout or an account
// deletion the next page names the identities that ended (<meta name="num-forget">), and what
// they kept is deleted. Before that, the logout and deletion pages say which rounds still wait
// (forms marked data-leaving) and let the person send them or discard them.
import { NumWords } from "./words.js";

export const NumDevice = (() => {
  const meta = (name) => { const m = document.querySelector(`meta[name="${name}"]`); return m ? m.content.split(" ").filter(Boolean) : []; };
  const ids = meta("num-device");
  const { plural } = NumWords;
  const capital = (word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

  // Kept before identities were (no tag): whoever reads it first takes it, as then. Kept by a
  // page that names no identity (a player's own page opened from a seat link, without a
  // session): read by such pages only.
  const mine = (value) => Boolean(value) && (value.device === undefined || ids.includes(value.device) || (value.device === "" && !ids.length));
  const tagged = (value) => ({ ...value, device: value.device === undefined ? ids[0] || "" : value.device });

  let forgotten = Promise.resolve(); // what a logout ended is deleted before anything is read (below)

  // ---- the outbox (IndexedDB, else localStorage) --------------------------------------
  const outbox = (() => {
    let opening = null;
    const LS = "num.outbox";
    function db() {
      if (!window.indexedDB) return Promise.reject(new Error("no IndexedDB"));
      opening = opening || new Promise((resolve, reject) => {
        const req = indexedDB.open("num-outbox", 1);
        req.onupgradeneeded = () => req.result.createObjectStore("outbox", { keyPath: "key" });
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      return opening;
    }
    function run(mode, work) {
      return db().then((conn) => new Promise((resolve, reject) => {
        const tx = conn.transaction("outbox", mode);
        const req = work(tx.objectStore("outbox"));
        tx.oncomplete = () => resolve(req ? req.result : undefined);
        tx.onerror = () => reject(tx.error);
      }));
    }
    const lsAll = () => { try { return JSON.parse(localStorage.getItem(LS) || "[]"); } catch (e) { return []; } };
    const lsSave = (list) => localStorage.setItem(LS, JSON.stringify(list));
    const sorted = (list) => list.sort((a, b) => (a.sheet === b.sheet ? a.number - b.number : a.created_at - b.created_at));
    const every = () => run("readonly", (s) => s.getAll()).catch(() => lsAll());
    const put = (entry) => {
      const value = tagged(entry);
      return run("readwrite", (s) => s.put(value)).catch(() => lsSave([...lsAll().filter((e) => e.key !== value.key), value]));
    };
    const remove = (key) => run("readwrite", (s) => s.delete(key)).catch(() => lsSave(lsAll().filter((e) => e.key !== key)));
    return {
      // This browser's identities' rounds only: another person's are never shown nor sent.
      all: () => forgotten.then(every).then((list) => sorted(list.filter(mine))),
      put,
      remove,
      // Every round kept by one of `gone` (or by nobody in particular) leaves the device.
      forget: async (gone) => {
        for (const entry of await every()) {
          if (entry.device === undefined || gone.includes(entry.device)) await remove(entry.key);
        }
      },
    };
  })();

  // What the ended identities kept in localStorage: names, drafts, referee's tricks, the
  // outbox's fallback. A seat's entry (num.seat.*) belongs to its link, not to a person.
  async function forget(gone) {
    try {
      for (let i = localStorage.length - 1; i >= 0; i -= 1) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith("num.") || key.startsWith("num.seat.") || key === "num.outbox") continue;
        let value = null;
        try { value = JSON.parse(localStorage.getItem(key)); } catch (e) { value = null; }
        if (!value || Array.isArray(value) || value.device === undefined || gone.includes(value.device)) localStorage.removeItem(key);
      }
    } catch (e) { /* no storage */ }
    await outbox.forget(gone);
  }

  const gone = meta("num-forget").filter((id) => !ids.includes(id));
  if (gone.length) forgotten = forget(gone).catch(() => undefined);

  // ---- the logout and deletion pages: rounds that still wait --------------------------
  function describe(entry) {
    // The sheet's players (a round kept by an older page: the players of its entries).
    const names = (entry.players || Object.keys((entry.body && entry.body.entries) || {})).join(", ");
    const one = (entry.noun && entry.noun.one) || gettext("round"); // the game's word, kept with the round
    const what = `${capital(one)} ${entry.number}` + (names ? ` — ${names}` : "");
    if (entry.state === "refused") return `${what} : ${gettext("refused")}${entry.error && entry.error.message ? ` (${entry.error.message})` : ""}`;
    return `${what} : ${gettext("waiting for the network")}`;
  }

  function guard(form) {
    const box = document.createElement("div");
    box.className = "notice";
    box.id = "pending-rounds";
    box.setAttribute("role", "alert");
    box.hidden = true;
    const text = document.createElement("p");
    const list = document.createElement("ul");
    const state = document.createElement("p");
    state.id = "pending-state";
    const send = document.createElement("button");
    send.type = "button";
    send.className = "primary";
    send.id = "pending-send";
    send.textContent = gettext("Send them now");
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "ghost danger";
    drop.id = "pending-discard";
    drop.textContent = gettext("Discard them (erased from this phone)");
    box.append(text, list, send, drop, state);
    form.before(box);
    let left = null; // the rounds still waiting, once read
    // The games' word when every round waiting is of one kind (« partie » for a coop session's), else « manche ».
    const nounOf = (entries) => (new Set(entries.map((e) => JSON.stringify(e.noun || null))).size === 1 && entries[0].noun)
      || { one: gettext("round"), other: gettext("rounds") };

    async function show(after = "") {
      left = await outbox.all();
      box.hidden = !left.length && !after;
      list.replaceChildren(...left.map((entry) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = `/sheets/${encodeURIComponent(entry.sheet)}/`;
        a.textContent = describe(entry);
        li.append(a);
        return li;
      }));
      const n = left.length;
      const noun = nounOf(left);
      text.textContent = n ? interpolate(ngettext(
        "⚠ %(n)s %(noun)s saved without network is not on the server yet. If you leave now, it will be erased from this phone: send it first, or discard it.",
        "⚠ %(n)s %(noun)s saved without network are not on the server yet. If you leave now, they will be erased from this phone: send them first, or discard them.",
        n), { n, noun: plural(n, noun.one, noun.other) }, true) : "";
      send.hidden = !left.some((e) => e.state !== "refused");
      drop.hidden = !n;
      state.textContent = after;
    }

    send.addEventListener("click", async () => {
      send.disabled = true;
      try {
        // The outbox is sent by the page's table.js (sendWith), which the leaving pages load.
        if (sender) await sender();
        left = await outbox.all();
      } finally { send.disabled = false; }
      const waiting = left.filter((e) => e.state !== "refused").length;
      await show(!left.length ? gettext("✓ Everything is sent: you may go on.")
        : waiting ? gettext("No network (or the server does not answer): they still wait. Try again, or discard them.")
          : gettext("The server refused what is left: open the sheet to load it back, or discard it."));
    });
    drop.addEventListener("click", async () => {
      const { other } = nounOf(left);
      for (const entry of left) await outbox.remove(entry.key);
      await show(interpolate(gettext("%(rows)s discarded: they were erased from this phone."), { rows: capital(other) }, true));
    });
    const ready = show();
    // Leaving while rounds wait: first say so.
    form.addEventListener("submit", async (ev) => {
      if (left && !left.length) return;
      ev.preventDefault();
      if (left === null) await ready;
      if (!left.length) { form.submit(); return; }
      const { other } = nounOf(left);
      await show(interpolate(gettext("Send or discard the waiting %(rows)s first."), { rows: other }, true));
      box.scrollIntoView({ block: "center" });
      (send.hidden ? drop : send).focus();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-leaving]").forEach(guard);
  });

  // Whoever sends the outbox (table.js) says how: the leaving pages' "send" button calls it.
  let sender = null;
  const sendWith = (send) => { sender = send; };

  return { ids, id: ids[0] || "", mine, tagged, outbox, sendWith };
})();
