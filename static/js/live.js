// The live table: every phone of a sheet follows its committed state, pushed by the server
// (Server-Sent Events, GET /api/v1/sheets/<id>/events/), and shows it without a reload.
// A phone whose browser cannot hold the stream, or that the server turns away, asks now and
// then instead. docs/api.md, "The live table".

export const NumLive = (() => {
  const POLL_MS = 3000;
  const RETRY_STREAM_MS = 30000;
  // A person typing is never interrupted: a change waits until they pause this long.
  const TYPING_PAUSE_MS = 1500;

  let current = null; // the one followed sheet: {url, version, onChange, poll, source, timer}
  let lastTyping = 0;
  // What this phone is writing itself (its own answer shows the sheet as it then is): a newer
  // version waits for it. The parts that write register here (table.js, referee.js).
  const writers = [];

  document.addEventListener("input", (ev) => { if (ev.isTrusted) lastTyping = Date.now(); }, true);

  function typing() { return Date.now() - lastTyping < TYPING_PAUSE_MS; }

  // Follow a sheet: `onChange(message)` runs for each newer version (message = the event's data);
  // `poll()` resolves to the sheet's version (or null) when the stream cannot be had.
  function follow({ url, version, onChange, poll }) {
    if (current && current.url === url) {
      // The same sheet shown afresh: the stream stays, the page's handlers and version are the new ones.
      Object.assign(current, { onChange, poll });
      current.version = Math.max(current.version, Number(version) || 0);
      return current;
    }
    stop();
    const me = { url, version: Number(version) || 0, onChange, poll, source: null, timer: null, waiting: null, busy: false };
    current = me;
    connect(me);
    return me;
  }

  function stop() {
    if (!current) return;
    if (current.source) current.source.close();
    clearTimeout(current.timer);
    clearTimeout(current.waiting);
    current = null;
  }

  function connect(me) {
    if (me !== current) return;
    if (typeof window.EventSource !== "function") { schedulePoll(me); return; }
    const sep = me.url.includes("?") ? "&" : "?";
    const source = new EventSource(`${me.url}${sep}since=${me.version}`);
    me.source = source;
    source.addEventListener("sheet", (ev) => {
      let message = null;
      try { message = JSON.parse(ev.data); } catch (e) { return; }
      heard(me, message);
    });
    source.addEventListener("gone", () => { source.close(); schedulePoll(me); });
    source.onerror = () => {
      // CONNECTING: the browser reconnects by itself (with Last-Event-ID). CLOSED: refused
      // (too many streams, no longer allowed): ask now and then, and try the stream again later.
      if (source.readyState === EventSource.CLOSED && me === current) {
        schedulePoll(me);
        clearTimeout(me.retry);
        me.retry = setTimeout(() => { if (me === current && me.source === source) connect(me); }, RETRY_STREAM_MS);
      }
    };
  }

  function schedulePoll(me) {
    clearTimeout(me.timer);
    if (me !== current || !me.poll) return;
    me.timer = setTimeout(async () => {
      if (me !== current) return;
      if (!me.source || me.source.readyState === EventSource.CLOSED) {
        try {
          const found = await me.poll();
          // A poll that fetched the page itself (the watchers' board) has shown it already.
          if (found && found.fetched) me.version = Math.max(me.version, found.version);
          else if (found && found.version > me.version) heard(me, found);
        } catch (e) { /* no network: the next tick asks again */ }
        schedulePoll(me);
      }
    }, document.hidden ? POLL_MS * 3 : POLL_MS);
  }

  // A newer version: shown once the person pauses their typing, and never twice.
  function heard(me, message) {
    if (me !== current || !(message.version > me.version)) return;
    me.pending = message;
    apply(me);
  }

  async function apply(me) {
    clearTimeout(me.waiting);
    // The page may have moved on meanwhile (its own write shown it): nothing older is shown again.
    if (me.pending && !(me.pending.version > me.version)) me.pending = null;
    if (!me.pending || me !== current) return;
    if (typing() || me.busy || writers.some((writing) => writing())) {
      me.waiting = setTimeout(() => apply(me), 400);
      return;
    }
    const message = me.pending;
    me.pending = null;
    me.busy = true;
    let shown = 0;
    try {
      shown = Number(await me.onChange(message)) || 0;
    } catch (e) {
      shown = 0;
    } finally {
      me.busy = false;
    }
    if (shown < message.version) {
      // Not shown (no network for the fetch): try again shortly, unless something newer came.
      if (!me.pending) me.pending = message;
      me.waiting = setTimeout(() => apply(me), 2000);
      return;
    }
    // The page may show a newer version than the event (it fetched the sheet as it now is).
    me.version = Math.max(me.version, shown);
    if (me.pending && me.pending.version > me.version) apply(me);
  }

  // A phone that slept (screen locked, app in the background) catches up as it wakes.
  document.addEventListener("visibilitychange", () => {
    const me = current;
    if (document.hidden || !me) return;
    if (me.source && me.source.readyState === EventSource.CLOSED) connect(me);
    else if (!me.source && me.poll) {
      me.poll().then((found) => { if (found && found.version > me.version) heard(me, found); }, () => {});
    }
  });

  return {
    follow,
    stop,
    // The version this page now shows (a write of its own moved it forward).
    shown(version) { if (current) current.version = Math.max(current.version, Number(version) || 0); },
    typing,
    // `writing()`: whether this part of the page is writing to the sheet now.
    writer(writing) { writers.push(writing); },
  };
})();
