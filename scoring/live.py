"""The live table: a sheet's changes, announced to every phone that listens, once committed.

A service that changes a sheet calls `announce(sheet)` inside its transaction; the message
leaves only after the commit (`transaction.on_commit`), so no phone ever hears of a version
that rolled back. With `REDIS_URL` it goes through Redis pub/sub, and every process (every
machine) that holds a stream of that sheet hears it; without Redis (`make run`), through this
process's own hub. Each message says what a phone needs to decide whether to fetch: the
version, the rounds stored, whether the game is over, and the round in progress (docs/api.md,
"The live table").

Streams live on an asyncio event loop (the ASGI server's); services write from worker
threads. `Hub` joins the two: each listener keeps only the newest message (a phone needs the
latest version, not every step), handed over with `call_soon_threadsafe`.
"""

import asyncio
import json
import logging
import threading
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction

log = logging.getLogger("numapp.live")

# A comment line at least this often keeps proxies and phones from closing an idle stream.
HEARTBEAT_SECONDS = 15
# How long a browser waits before it reconnects a dropped stream (the SSE `retry:` field).
RECONNECT_MS = 2000


def sheet_message(sheet, *, recheck: bool = False) -> dict:
    """Return what a sheet's phones are told of its committed state.

    `recheck` asks every stream to check again who may read the sheet (it changed hands).
    """
    message = {
        "version": sheet.version,
        "rounds": sheet.round_count,
        "finished": sheet.finished,
        "draft": sheet.draft_state(),
    }
    if recheck:
        message["recheck"] = True
    return message


def for_reader(message: dict, *, editor: bool, public: tuple[str, ...]) -> dict:
    """Return the message as one reader may see it: entries only to the editor, else their public fields.

    `public` names the entry fields the whole table knows (Num King's bids are said aloud).
    """
    if editor:
        return message
    draft = message["draft"]
    shown = {
        name: {k: v for k, v in entry.items() if k in public}
        for name, entry in draft["entries"].items()
        if isinstance(entry, dict)
    }
    return {**message, "draft": {**draft, "entries": {n: e for n, e in shown.items() if e}, "fields": {}}}


def announce(sheet, *, recheck: bool = False) -> None:
    """Tell the sheet's phones of its new version once the current transaction commits.

    The message carries `at`, the time of the commit (Unix seconds, to the millisecond):
    how long an event took to reach a phone is its arrival less `at` (bench/capacity.py).
    """
    message = sheet_message(sheet, recheck=recheck)
    sheet_id = sheet.pk
    transaction.on_commit(lambda: publish(sheet_id, {**message, "at": committed_at()}))


def committed_at() -> float:
    """Return now as a message's `at`: Unix seconds, rounded to the millisecond."""
    return round(time.time(), 3)


def announce_recheck(sheet_id: str) -> None:
    """Tell the sheet's streams, once the transaction commits, to check again who may listen."""
    transaction.on_commit(lambda: publish(sheet_id, {"recheck": True}))


def publish(sheet_id: str, message: dict) -> None:
    """Send a committed sheet's message to every process, through Redis when there is one."""
    if broker().publish(sheet_id, message):
        return
    HUB.deliver(sheet_id, message)


# ---- this process's listeners ----------------------------------------------------------


@dataclass(eq=False)
class Listener:
    """One stream's mailbox: the newest message only, and the loop that waits for it."""

    sheet_id: str
    loop: asyncio.AbstractEventLoop
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    latest: dict | None = None

    def put(self, message: dict) -> None:
        """Keep `message` unless a newer version is already waiting (runs on the listener's loop)."""
        held = self.latest
        if held is None or message.get("recheck") or message.get("version", 0) > held.get("version", 0):
            self.latest = {**message, "recheck": bool(message.get("recheck") or (held or {}).get("recheck"))}
        self.ready.set()

    async def next(self, timeout: float) -> dict | None:
        """Return the next message, or None after `timeout` seconds without one."""
        try:
            await asyncio.wait_for(self.ready.wait(), timeout)
        except TimeoutError:
            return None
        self.ready.clear()
        message, self.latest = self.latest, None
        return message


class Hub:
    """The streams this process holds, by sheet."""

    def __init__(self):
        self._lock = threading.Lock()
        self._sheets: dict[str, set[Listener]] = {}
        self.count = 0

    def add(self, sheet_id: str) -> Listener:
        listener = Listener(sheet_id, asyncio.get_running_loop())
        with self._lock:
            self._sheets.setdefault(sheet_id, set()).add(listener)
            self.count += 1
        return listener

    def remove(self, listener: Listener) -> None:
        with self._lock:
            group = self._sheets.get(listener.sheet_id)
            if group is not None and listener in group:
                group.discard(listener)
                self.count -= 1
                if not group:
                    del self._sheets[listener.sheet_id]

    def deliver(self, sheet_id: str, message: dict) -> None:
        """Hand `message` to every stream of the sheet, from any thread."""
        with self._lock:
            listeners = list(self._sheets.get(sheet_id, ()))
        for listener in listeners:
            _call(listener, message)

    def deliver_all(self, message: dict) -> None:
        """Hand `message` to every stream (after a Redis outage: each checks its sheet again)."""
        with self._lock:
            listeners = [item for group in self._sheets.values() for item in group]
        for listener in listeners:
            _call(listener, message)


def _call(listener: Listener, message: dict) -> None:
    try:
        listener.loop.call_soon_threadsafe(listener.put, message)
    except RuntimeError:  # its loop has closed: the stream is gone
        pass


HUB = Hub()


# ---- across processes: Redis pub/sub ------------------------------------------------------


def channel_prefix() -> str:
    """Return this deployment's channel prefix: Redis pub/sub is shared by every database number."""
    db = settings.DATABASES["default"]
    return f"numapp:live:{db.get('HOST') or ''}:{db.get('PORT') or ''}:{db['NAME']}:"


class RedisBroker:
    """Publish to Redis; one subscriber task per event loop feeds the hub (a kept client: redis-py)."""

    def __init__(self, url: str):
        self.url = url
        self._client = None
        self._down_until = 0.0
        self._tasks: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}

    def publish(self, sheet_id: str, message: dict) -> bool:
        """Publish; False when Redis cannot take it (the caller delivers in this process at least)."""
        if time.monotonic() < self._down_until:
            return False
        import redis

        try:
            if self._client is None:
                self._client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=0.5)
            self._client.publish(channel_prefix() + sheet_id, json.dumps(message, separators=(",", ":")))
            return True
        except (redis.RedisError, OSError) as exc:
            self._down_until = time.monotonic() + 5
            log.warning("live: Redis publish failed (%s); announced in this process only", exc.__class__.__name__)
            return False

    def ensure_listening(self) -> None:
        """Start this loop's subscriber, once."""
        loop = asyncio.get_running_loop()
        task = self._tasks.get(loop)
        if task is None or task.done():
            self._tasks[loop] = loop.create_task(self._listen())

    async def _listen(self) -> None:
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        prefix = channel_prefix()
        delay = 0.2
        while True:
            client = aioredis.Redis.from_url(self.url, socket_connect_timeout=1)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(prefix + "*")
                # Whatever was announced while this process was not subscribed: every stream checks its sheet.
                HUB.deliver_all({"recheck": True})
                delay = 0.2
                async for item in pubsub.listen():
                    if item.get("type") != "pmessage":
                        continue
                    sheet_id = item["channel"].decode()[len(prefix) :]
                    try:
                        HUB.deliver(sheet_id, json.loads(item["data"]))
                    except ValueError:
                        log.warning("live: unreadable message on %s", sheet_id)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log.warning("live: Redis subscription lost (%s); retrying", exc.__class__.__name__)
            finally:
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except (RedisError, OSError):
                    pass
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)


class LocalBroker:
    """One process, no Redis: the hub is the whole table."""

    def publish(self, sheet_id: str, message: dict) -> bool:
        return False

    def ensure_listening(self) -> None:
        pass


_brokers: dict[str, object] = {}


def broker():
    """Return the broker for the settings in force (Redis when REDIS_URL is set)."""
    url = getattr(settings, "LIVE_REDIS_URL", None) or ""
    found = _brokers.get(url)
    if found is None:
        found = _brokers[url] = RedisBroker(url) if url else LocalBroker()
    return found


# ---- one stream -----------------------------------------------------------------------------


def event(message: dict) -> str:
    """Return one SSE event: the sheet's version as its id, the message as one line of JSON."""
    data = {k: v for k, v in message.items() if k != "recheck"}
    return f"id: {message['version']}\nevent: sheet\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def stream(sheet_id: str, read, last_seen: int | None, *, view):
    """Yield a sheet's SSE stream: its state now, then each committed change, until the reader may no longer read.

    `read()` (async) returns the sheet's message as this reader may see it, or None once
    it may not (the sheet gone, the right ended); `view(message)` shapes an announced
    message for this reader. `last_seen` is the version the phone already has
    (Last-Event-ID): nothing older or equal is sent again.
    """
    listener = HUB.add(sheet_id)
    try:
        broker().ensure_listening()
        # Read after subscribing: a change committed in between is either read here or heard below.
        current = await read()
        if current is None:
            yield "event: gone\ndata: {}\n\n"
            return
        yield f"retry: {RECONNECT_MS}\n\n"
        sent = last_seen or 0
        if last_seen is None or current["version"] > last_seen:
            yield event(current)
            sent = current["version"]
        while True:
            message = await listener.next(HEARTBEAT_SECONDS)
            if message is None:
                yield ": keep-alive\n\n"
                continue
            if message.get("recheck"):
                message = await read()
                if message is None:
                    yield "event: gone\ndata: {}\n\n"
                    return
            else:
                message = view(message)
            if message["version"] > sent:
                yield event(message)
                sent = message["version"]
    finally:
        HUB.remove(listener)
