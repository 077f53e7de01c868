"""Score sheets: a saved game with its players and its rounds."""

import secrets
import time
from datetime import timedelta

from django.conf import settings
from django.db import connection, connections, models, reset_queries, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from scoring import tokens
from scoring.games import GAMES

GAME_CHOICES = [(slug, game.title("fr")) for slug, game in GAMES.items()]

# How long a sheet its owner deleted can be restored from the history before the
# purge removes it for good (docs/offline.md).
DELETED_SHEET_KEEP = timedelta(days=30)


def deleted_keep() -> timedelta:
    """Return how long a deleted sheet stays restorable (setting DELETED_SHEET_KEEP, else 30 days)."""
    return getattr(settings, "DELETED_SHEET_KEEP", DELETED_SHEET_KEEP)


def anonymous_keep() -> timedelta:
    """Return how long an anonymous sheet is kept after its last change (setting ANONYMOUS_SHEET_TTL)."""
    return settings.ANONYMOUS_SHEET_TTL


def new_sheet_id() -> str:
    """Return a random, unguessable sheet id (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


class SheetQuerySet(models.QuerySet):
    def alive(self, now=None):
        """Keep the sheets that still exist for their readers: not deleted, and owned or not yet expired.

        An expired anonymous sheet, like a sheet its owner deleted, is gone for
        everyone at once, whether or not the purge has removed its rows yet.
        """
        now = now or timezone.now()
        return self.filter(Q(user__isnull=False) | Q(expires_at__gt=now), deleted_at__isnull=True)

    def restorable(self, user, now=None):
        """Keep the sheets `user` deleted that can still be restored, most recently deleted first."""
        since = (now or timezone.now()) - deleted_keep()
        return self.filter(user=user, deleted_at__gt=since).order_by("-deleted_at")

    def purge_expired(self, *, now=None, batch_size=None) -> int:
        """Delete anonymous sheets past their expiry and sheets deleted past the restore window; return how many.

        Batches by primary key, one transaction each, so no lock is held for long
        and memory stays flat whatever the backlog. Expired anonymous sheets go
        first, then the deleted ones (each kind in the order of its own index).
        """
        cutoff = now or timezone.now()
        batch_size = batch_size or settings.PURGE_BATCH_SIZE
        # A pause between batches leaves the database to the players' writes.
        pause = settings.PURGE_PAUSE_MS / 1000
        removed = 0
        for deleted in (False, True):
            last = None
            while True:
                with transaction.atomic():
                    if connection.vendor == "postgresql":
                        count, last = purge_batch_postgresql(cutoff, after=last, limit=batch_size, deleted=deleted)
                    else:
                        ids = self.expired_ids(cutoff, after=last or "", limit=batch_size, deleted=deleted)
                        count, last = (delete_expired_batch(ids, cutoff), ids[-1]) if ids else (0, None)
                    if last is None:
                        break
                    removed += count
                reset_queries()  # with DEBUG on, Django would keep every batch's SQL
                if pause:
                    time.sleep(pause)
        return removed

    def expired_ids(self, cutoff, *, after: str = "", limit: int, deleted: bool = False) -> list[str]:
        """Return up to `limit` ids of anonymous sheets expired at `cutoff` (or, with `deleted`,
        of sheets deleted before the restore window), after `after`."""
        if deleted:
            candidates = self.filter(deleted_at__lte=cutoff - deleted_keep(), pk__gt=after).order_by("pk")
        else:
            candidates = self.filter(user__isnull=True, expires_at__lte=cutoff, pk__gt=after).order_by("pk")
        if connection.features.has_select_for_update_skip_locked:
            # A sheet being claimed right now is locked: leave it to the next run.
            candidates = candidates.select_for_update(skip_locked=True)
        return list(candidates.values_list("pk", flat=True)[:limit])


_PURGE_BATCH = """
WITH doomed AS (
    SELECT id, expires_at FROM scoring_sheet
    WHERE user_id IS NULL AND expires_at <= %(cutoff)s {after}
    ORDER BY expires_at, id LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
), gone AS (
    DELETE FROM scoring_sheet s USING doomed d
    WHERE s.id = d.id AND s.user_id IS NULL AND s.expires_at <= %(cutoff)s
    RETURNING s.id
)
SELECT (SELECT count(*) FROM gone), last.expires_at, last.id
FROM (SELECT expires_at, id FROM doomed ORDER BY expires_at DESC, id DESC LIMIT 1) AS last
"""

# The same for sheets deleted by their owner before the restore window, over the
# partial index of deleted sheets (sheet_deleted).
_PURGE_DELETED_BATCH = """
WITH doomed AS (
    SELECT id, deleted_at FROM scoring_sheet
    WHERE deleted_at <= %(before)s {after}
    ORDER BY deleted_at, id LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
), gone AS (
    DELETE FROM scoring_sheet s USING doomed d
    WHERE s.id = d.id AND s.deleted_at <= %(before)s
    RETURNING s.id
)
SELECT (SELECT count(*) FROM gone), last.deleted_at, last.id
FROM (SELECT deleted_at, id FROM doomed ORDER BY deleted_at DESC, id DESC LIMIT 1) AS last
"""


def purge_batch_postgresql(
    cutoff, *, after: tuple | None, limit: int, deleted: bool = False
) -> tuple[int, tuple | None]:
    """Delete the next batch of expired anonymous sheets in one statement; return (count, last key).

    Batches go in order of expiry, the order sheets were written in, so a batch
    deletes rows that sit together on disk rather than a page per row. Rows being
    claimed right now are locked: skipped, left to the next run. The DELETE re-checks
    that each sheet is still anonymous and expired, and the foreign keys cascade to
    the seats, rounds and stored answers (migration 0003). The commit is synchronous:
    each batch flushes its own WAL, so a player's commit never has to flush the
    purge's (docs/performance.md). `last` is the (expires_at, id) to continue
    after; None when nothing was left.

    With `deleted`, the batch is of sheets their owner deleted before the restore
    window (cutoff − DELETED_SHEET_KEEP), in order of deletion; the DELETE re-checks
    that each is still deleted (a sheet restored meanwhile stays).
    """
    if deleted:
        sql = _PURGE_DELETED_BATCH.format(after="AND (deleted_at, id) > (%(after_at)s, %(after_id)s)" if after else "")
        params = {"before": cutoff - deleted_keep(), "limit": limit}
    else:
        sql = _PURGE_BATCH.format(after="AND (expires_at, id) > (%(after_at)s, %(after_id)s)" if after else "")
        params = {"cutoff": cutoff, "limit": limit}
    if after:
        params["after_at"], params["after_id"] = after
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return (row[0], (row[1], row[2])) if row else (0, None)


def delete_expired_batch(ids: list[str], cutoff) -> int:
    """Delete these sheets if still anonymous and expired (or deleted past the restore window); return how many.

    The purge's path on SQLite (PostgreSQL deletes in one statement, see
    purge_batch_postgresql). The DELETE itself re-checks the sheet is anonymous and
    expired, or deleted before cutoff − DELETED_SHEET_KEEP, so a sheet claimed or
    restored after it was selected is never lost. The children
    go after their sheet in the same transaction (the foreign keys are deferred);
    on PostgreSQL they cascade (migration 0003).
    """
    postgres = connection.vendor == "postgresql"
    marks = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {Sheet._meta.db_table} WHERE id IN ({marks}) "
            "AND ((user_id IS NULL AND expires_at <= %s) OR deleted_at <= %s) RETURNING id",
            [*ids, cutoff, cutoff - deleted_keep()],
        )
        gone = [row[0] for row in cursor.fetchall()]
        if gone and not postgres:
            marks = ", ".join(["%s"] * len(gone))
            for model in (Round, Player, IdempotentRequest):
                cursor.execute(f"DELETE FROM {model._meta.db_table} WHERE sheet_id IN ({marks})", gone)
    return len(gone)


# The condition of `alive()` for one sheet, as one fixed statement (see SheetManager.read_alive).
_READ_ALIVE = (
    "SELECT * FROM scoring_sheet WHERE id = %s AND (user_id IS NOT NULL OR expires_at > %s) AND deleted_at IS NULL"
)


class SheetManager(models.Manager.from_queryset(SheetQuerySet)):
    def read_alive(self, pk: str) -> "Sheet | None":
        """Return the live sheet `pk`, or None: every sheet request starts here.

        The same condition as `alive()`, written once as SQL: building and compiling
        `alive().filter(pk=…)` costs the ORM about 1 ms of CPU, ten times running the
        statement, and most requests are this read alone (docs/performance.md).
        """
        now = connections[self.db].ops.adapt_datetimefield_value(timezone.now())
        return next(iter(self.raw(_READ_ALIVE, [pk, now])), None)


class Sheet(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_sheet_id, editable=False)
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    players = models.JSONField(help_text="Player names in seat order.")
    options = models.JSONField(default=dict, help_text="Options with their defaults filled in.")
    # The anonymous creator: a random id kept in their session data (it survives the
    # session key rotating at login).
    owner_key = models.CharField(max_length=64, blank=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="sheets"
    )
    edit_token_hash = models.CharField(max_length=64, db_index=True)
    version = models.PositiveIntegerField(default=1)
    finished = models.BooleanField(default=False)
    round_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The next round, partly entered by the table's phones: {"entries", "fields", "entered"}.
    draft = models.JSONField(default=dict, blank=True)
    # Set when the owner deletes the sheet: gone for every reader at once, restorable
    # from the history for DELETED_SHEET_KEEP, then purged.
    deleted_at = models.DateTimeField(null=True, blank=True)
    # The generation of the sheet's links (share, players' entry, seat claim): the editor's
    # "new links" moves it on, and every link derived under the previous one stops working.
    links_epoch = models.PositiveIntegerField(default=0)

    objects = SheetManager()

    class Meta:
        indexes = [
            # The purge's path: anonymous sheets in order of expiry.
            models.Index(fields=["expires_at", "id"], condition=Q(user__isnull=True), name="sheet_anonymous_expiry"),
            models.Index(fields=["user", "-updated_at"]),
            models.Index(fields=["user", "game", "-created_at"], name="sheet_user_game_created"),
            # The purge's path for deleted sheets, in order of deletion.
            models.Index(fields=["deleted_at", "id"], condition=Q(deleted_at__isnull=False), name="sheet_deleted"),
        ]

    def __str__(self):
        return f"{self.game} {self.id}"

    @property
    def engine(self):
        """Return the game's engine for this stored sheet (its names taken as kept, see Game.score)."""
        return GAMES[self.game].kept()

    def draft_state(self) -> dict:
        """Return the round in progress as the phones are told it: its number, entries, fields, who entered."""
        draft = self.draft or {}
        return {
            "number": self.round_count + 1,
            "entries": draft.get("entries") or {},
            "fields": draft.get("fields") or {},
            "entered": draft.get("entered") or [],
        }

    # The sheet's links, the one place they are built (paths: the request makes them absolute).

    def page_path(self) -> str:
        """Return the sheet's page: its editor's, or a share-link holder's with the token."""
        return reverse("sheet", args=[self.pk])

    def share_path(self) -> str:
        """Return the share link: the sheet read only, while this generation of links lasts."""
        return reverse("sheet-watch", args=[self.pk, tokens.read_token(self.pk, self.links_epoch)])

    def seat_path(self, seat: int) -> str:
        """Return the player's own entry link for `seat` (their entry of the round in progress)."""
        return reverse("seat-entry", args=[self.pk, seat, tokens.entry_token(self.pk, seat, self.links_epoch)])

    def seat_paths(self) -> dict[str, str]:
        """Return each player's own entry link, by name."""
        return {name: self.seat_path(seat) for seat, name in enumerate(self.players)}

    def edit_path(self, edit_token: str) -> str:
        """Return the edit link: opening it lets that browser edit the sheet (`edit_token`, given once)."""
        return f"{self.page_path()}?edit={edit_token}"


class Player(models.Model):
    """A seat at a sheet, with the total it holds (kept equal to the engine's)."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    total = models.IntegerField(default=0)
    winner = models.BooleanField(default=False)
    records = models.JSONField(default=dict, blank=True, help_text="The game's own records for this seat.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["sheet", "seat"], name="unique_seat")]
        ordering = ["seat"]


class Round(models.Model):
    """One round as entered: the entries and the round-level fields, as JSON."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["sheet", "number"], name="unique_round_number")]
        ordering = ["number"]


class IdempotentRequest(models.Model):
    """A round write already answered: a retry with the same key gets the same answer."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="idempotent_requests")
    key = models.CharField(max_length=100)
    body_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["sheet", "key"], name="unique_idempotency_key")]
