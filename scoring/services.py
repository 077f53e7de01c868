"""The use cases both front ends call: create a sheet, add/edit/remove rounds, rematch.

Views parse and check permission; these functions validate through the game engine,
store, and keep each seat's total equal to what the engine computes.
"""

import hashlib
import json
from contextlib import contextmanager
from dataclasses import dataclass

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring import live, tokens
from scoring.exceptions import (
    Conflict,
    DraftMoved,
    IdempotencyMismatch,
    InvalidInput,
    NoReferee,
    PlayerNotFound,
    RestoreRefused,
    RoundNotFound,
    SheetGone,
    UnknownGame,
    VersionMismatch,
)
from scoring.games import GAMES, names
from scoring.games.base import ScoringError
from scoring.games.form import is_form_round
from scoring.models import IdempotentRequest, Player, Round, Sheet, anonymous_keep
from scoring.signals import seats_scored, sheets_owned
from web.cache import keep_after_commit
from web.release import release

MAX_ROUNDS_PER_SHEET = 60  # rounds a stored sheet holds (docs/security.md, "oversized or hostile input")


@dataclass
class Created:
    sheet: Sheet
    edit_token: str


def _engine_errors(exc: ScoringError, lang: str, *, round_index: int | None = None) -> list[dict]:
    """Return the engine's messages; for a single round, paths are relative to it."""
    errors = exc.messages(lang)
    if round_index is None:
        return errors
    prefix = f"rounds[{round_index}]"
    out = []
    for error in errors:
        path = error["path"]
        if path == prefix:
            path = "round"
        elif path.startswith(prefix + "."):
            path = path[len(prefix) + 1 :]
        elif path == "rounds":
            path = "round"
        out.append({**error, "path": path})
    return out


def clean_players(players) -> list:
    """Return the player names cleaned by the names rule; names it refuses stay as sent, for the engine to name."""
    if not isinstance(players, list):
        return players
    return [names.tidy(p) for p in players]


def score(game: str, players, options, rounds, lang: str) -> dict:
    """Score a game without saving it."""
    if game not in GAMES:
        raise UnknownGame(game)
    try:
        return GAMES[game].score(players, options, rounds, lang)
    except ScoringError as exc:
        raise InvalidInput(exc.messages(lang)) from None


def referee(game: str):
    """Return the engine of a game with a trick referee (Num King); 404 for any other game."""
    if game not in GAMES:
        raise UnknownGame(game)
    if not GAMES[game].referee:
        raise NoReferee()
    return GAMES[game]


def trick(game: str, players, options, plays, played, lang: str) -> dict:
    """Resolve one trick with the game's referee without saving anything."""
    engine = referee(game)
    try:
        return engine.trick(players, options, plays, played, lang)
    except ScoringError as exc:
        raise InvalidInput(exc.messages(lang)) from None


def stored_rounds(sheet: Sheet) -> list[dict]:
    """Return the stored rounds of a sheet at `sheet.version`, in order.

    The rounds are read in one statement with the sheet's version. If another
    phone wrote since `sheet` was read, `sheet` is moved forward to the version
    its rounds belong to, so what is shown is always one committed state, under
    its own version.
    """
    while True:
        rows = list(Sheet.objects.filter(pk=sheet.pk).order_by("rounds__number").values_list("version", "rounds__data"))
        if rows and rows[0][0] == sheet.version:
            return [data for _version, data in rows if data is not None]
        fresh = Sheet.objects.read_alive(sheet.pk)
        if fresh is None:
            raise SheetGone()
        for field in Sheet._meta.concrete_fields:
            setattr(sheet, field.attname, getattr(fresh, field.attname))


# A version's result is kept this long: the phones of a table ask for it within seconds of the
# write that made it, and a sheet's next version has another key (docs/performance.md).
STATE_KEEP = 120


def state_key(sheet: Sheet, lang: str) -> str:
    """Return the cache key of a sheet's scored state: everything the engine's answer depends on.

    The version names the players, the options and the rounds (every change moves it); the
    release names the engine's code; the language, its explanations.
    """
    return f"state:{sheet.pk}:{sheet.version}:{release()}:{lang}"


def sheet_state(sheet: Sheet, lang: str) -> tuple[dict, list[dict]]:
    """Return the engine's result and the stored rounds it scores.

    Both belong to one committed version: like `stored_rounds`, this may move
    `sheet` forward to a newer version. A version scored before (by the write that made
    it, or by an earlier read) is not scored again.
    """
    kept = cache.get(state_key(sheet, lang))
    if kept is not None:
        return kept
    datas = stored_rounds(sheet)
    state = (sheet.engine.score(sheet.players, sheet.options, datas, lang), datas)
    keep_after_commit(state_key(sheet, lang), state, STATE_KEEP)
    return state


def sheet_create(*, game: str, players, options, owner_key: str = "", user=None, lang: str = "fr") -> Created:
    """Create a sheet after the engine accepted its players and options."""
    if not isinstance(game, str) or game not in GAMES:
        with translation.override(lang):
            shown = game if isinstance(game, str) else json.dumps(game)[:40]
            raise InvalidInput.one("game", "unknown_game", _("Unknown game: %(game)s.") % {"game": shown})
    players = clean_players(players)
    options = names.tidy_teams(options)
    engine = GAMES[game]
    try:
        result = engine.score(players, options if options is not None else {}, [], lang)
    except ScoringError as exc:
        raise InvalidInput(exc.messages(lang)) from None
    token = tokens.new_edit_token()
    now = timezone.now()
    with transaction.atomic():
        sheet = Sheet.objects.create(
            game=game,
            players=players,
            options=result["options"],
            owner_key="" if user else owner_key,
            user=user,
            edit_token_hash=tokens.edit_token_hash(token),
            created_at=now,
            updated_at=now,
            expires_at=None if user else now + anonymous_keep(),
        )
        Player.objects.bulk_create(Player(sheet=sheet, seat=i, name=name) for i, name in enumerate(players))
        if user:
            sheets_owned.send(sender=Sheet, user_id=user.pk, sheet_ids=[sheet.pk])
    return Created(sheet=sheet, edit_token=token)


def anonymous_keep_hours() -> int:
    """Return how many hours an anonymous sheet is kept after its last change, as the pages say it."""
    return int(anonymous_keep().total_seconds() // 3600)


def _lock(sheet: Sheet) -> Sheet:
    """Return the sheet read again under its row lock, held to the end of the transaction."""
    locked = Sheet.objects.alive().select_for_update().filter(pk=sheet.pk).first()
    if locked is None:
        raise SheetGone()
    return locked


def _locked(sheet: Sheet, if_version: int | None) -> tuple[Sheet, list[Round]]:
    locked = _lock(sheet)
    if if_version is not None and if_version != locked.version:
        raise VersionMismatch(locked.version)
    return locked, list(Round.objects.filter(sheet_id=locked.pk).only("id", "number", "data"))


def _changed(sheet: Sheet) -> list[str]:
    """Mark a change of the sheet (under its lock): a new version, and an anonymous sheet's expiry moved forward.

    An anonymous sheet is kept `anonymous_keep()` after its last change (docs/rules.md):
    saved with the change, in its transaction, so a refused or rolled-back write moves
    nothing. Return the fields to save.
    """
    sheet.version += 1
    sheet.updated_at = timezone.now()
    if sheet.user_id is None:
        sheet.expires_at = sheet.updated_at + anonymous_keep()
    return ["version", "updated_at", "expires_at"]


def _store(sheet: Sheet, result: dict, datas: list[dict], lang: str) -> None:
    """Save the sheet's derived fields and each seat's total from the engine's result of `datas`.

    The new version's state is kept once the write commits: the phones that land on the
    sheet next read it rather than score the whole game again.
    """
    was_finished = sheet.finished
    sheet.finished = result["finished"]
    sheet.round_count = len(result["rounds"])
    sheet.save(update_fields=[*_changed(sheet), "finished", "round_count", "draft"])
    keep_after_commit(state_key(sheet, lang), (result, datas), STATE_KEEP)
    live.announce(sheet)
    winners = set(result["winners"]) if result["finished"] else set()
    teams = result.get("teams") or {}
    team_of = {m: t for t, team in teams.items() for m in team["members"]}
    seats = list(Player.objects.filter(sheet_id=sheet.pk).only("id", "name", "total", "winner", "records", "user_id"))
    changed = []
    for seat in seats:
        after = {
            "total": result["totals"][seat.name],
            "winner": seat.name in winners or team_of.get(seat.name) in winners,
            "records": sheet.engine.seat_records(result, seat.name),
        }
        if after != {"total": seat.total, "winner": seat.winner, "records": seat.records}:
            for field, value in after.items():
                setattr(seat, field, value)
            changed.append(seat)
    Player.objects.bulk_update(changed, ["total", "winner", "records"])
    linked = {seat.user_id for seat in seats if seat.user_id}
    if sheet.user_id:
        seats_scored.send(
            sender=Sheet,
            game=sheet.game,
            user_ids=linked,
            owner_id=sheet.user_id,
            sheet_id=sheet.pk,
            finished=sheet.finished,
            was_finished=was_finished,
        )


def _rescore(sheet: Sheet, datas: list[dict], lang: str, index: int) -> dict:
    try:
        return sheet.engine.score(sheet.players, sheet.options, datas, lang)
    except ScoringError as exc:
        raise InvalidInput(_engine_errors(exc, lang, round_index=index)) from None


def request_hash(data, number: int | None = None) -> str:
    """Return a stable hash of a round request (its round and the number it means), to recognise a retry.

    It is the hash of the body as sent: the round with its `number`, if any.
    """
    body = data if number is None else {**data, "number": number}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def read_round(sheet: Sheet, data, lang: str) -> dict:
    """Return the round `data` stands for: a round as given, or the one its entry form's fields describe.

    A round given as the entry form (`{"form": {field: text}}`, what the pages post) is
    read by the engine; with nothing entered it is refused with the question the pages
    ask ("empty_round"), unless the form says `confirm_empty` ("Save anyway").
    """
    if not is_form_round(data):
        return data
    try:
        rnd, question = sheet.engine.read_form_asking(sheet.players, sheet.options, data["form"], lang)
    except ScoringError as exc:
        raise InvalidInput(exc.messages(lang)) from None
    if question:
        raise InvalidInput.one("round", "empty_round", question)
    return rnd


def round_add(
    *,
    sheet: Sheet,
    data,
    lang: str = "fr",
    if_version: int | None = None,
    number: int | None = None,
    from_draft: bool = False,
) -> Sheet:
    """Append a round; the engine must accept the whole game with it. The round in progress empties.

    `number`, when given, is the round the client means to add: if another phone
    added it first, Conflict is raised rather than a second round appended.
    `from_draft` saves the round in progress as it stands (`data` is then ignored).
    """
    if from_draft:
        data = {"from_draft": True}
    if not isinstance(data, dict):
        with translation.override(lang):
            raise InvalidInput.one("round", "invalid", _("A round must be a JSON object."))
    data = read_round(sheet, data, lang)
    try:
        with transaction.atomic():
            sheet, rounds = _locked(sheet, if_version)
            if number is not None and number != len(rounds) + 1:
                raise Conflict()
            if len(rounds) >= MAX_ROUNDS_PER_SHEET:
                with translation.override(lang):
                    raise InvalidInput.one(
                        "round",
                        "too_many_rounds",
                        _("A sheet holds at most %(n)d rounds.") % {"n": MAX_ROUNDS_PER_SHEET},
                    )
            if from_draft:
                data = draft_round(sheet)
            datas = [r.data for r in rounds] + [data]
            result = _rescore(sheet, datas, lang, len(rounds))
            sheet.draft = {}
            Round.objects.create(sheet=sheet, number=len(rounds) + 1, data=data)
            _store(sheet, result, datas, lang)
    except IntegrityError:
        raise Conflict() from None
    return sheet


def draft_round(sheet: Sheet) -> dict:
    """Return the round in progress as a round: its round fields and its entries (never a draft-only field)."""
    draft = sheet.draft or {}
    return sheet.engine.round_of_draft(draft.get("fields") or {}, draft.get("entries") or {})


def draft_rows(sheet: Sheet, players: list[str]) -> list[dict]:
    """Return, for the pages, each player of the round in progress with their entry and whether it is complete."""
    draft = sheet.draft or {}
    entries, entered = draft.get("entries") or {}, set(draft.get("entered") or [])
    return [
        {"name": name, "seat": sheet.players.index(name), "entry": entries.get(name), "entered": name in entered}
        for name in players
    ]


def name_players(errors: list[dict], players) -> list[dict]:
    """Return the engine's errors about one player's entry with the player's name in front.

    "entries.Léa.bid: Annonce de 5 plis…" reads "Léa : annonce de 5 plis…" on the form.
    """
    out = []
    for error in errors:
        parts = str(error.get("path", "")).split(".")
        message = error.get("message", "")
        name = parts[1] if len(parts) >= 3 and parts[0] == "entries" and parts[1] in players else None
        if name and not message.startswith(name):
            message = _("%(name)s: %(message)s") % {"name": name, "message": message[:1].lower() + message[1:]}
        out.append({**error, "message": message})
    return out


def _draft_write(
    sheet: Sheet,
    lang: str,
    change,
    *,
    number: int | None = None,
    last: str | None = None,
    if_version: int | None = None,
) -> Sheet:
    """Apply `change(draft) -> (entries, fields)` to the round in progress under the sheet's lock.

    The engine then fills what the round's own fields decide (Num King: after the hand's
    last trick, each player's tricks as the referee counted them) and checks the whole.
    """
    with transaction.atomic():
        sheet, rounds = _locked(sheet, if_version)
        if number is not None and number != len(rounds) + 1:
            raise DraftMoved(len(rounds) + 1, sheet.engine.round_words)
        before = (sheet.draft or {}).get("entries") or {}
        before_fields = (sheet.draft or {}).get("fields") or {}
        entries, fields = change(sheet.draft or {})
        datas = [r.data for r in rounds]
        entries = sheet.engine.fill_draft(sheet.players, sheet.options, datas, entries, fields, before_fields)
        try:
            # An empty round in progress is never wrong, even once the game is over.
            entered = (
                sheet.engine.check_draft(sheet.players, sheet.options, datas, entries, fields, last=last, before=before)
                if entries or fields
                else []
            )
        except ScoringError as exc:
            # Each phone's entry is one player's: the message says whose it is.
            with translation.override(lang):
                raise InvalidInput(name_players(exc.messages(lang), sheet.players)) from None
        sheet.draft = {"entries": entries, "fields": fields, "entered": entered} if entries or fields else {}
        sheet.save(update_fields=[*_changed(sheet), "draft"])
        live.announce(sheet)
    return sheet


def draft_put(
    *,
    sheet: Sheet,
    entries,
    fields,
    lang: str = "fr",
    number: int | None = None,
    if_version: int | None = None,
    keep_own_fields: bool = False,
) -> Sheet:
    """Replace the whole round in progress (the editor), validated as far as it goes.

    `if_version`, when given, is the sheet's version the round in progress was read at:
    a newer one (another phone wrote meanwhile) raises VersionMismatch, nothing stored.
    `keep_own_fields`: the round in progress's own fields (the engine's draft-only ones,
    Num King's tricks played) stay as stored, read under the lock: the page's form does
    not carry them.
    """

    def change(draft):
        new_fields = fields or {}
        if keep_own_fields and isinstance(new_fields, dict):
            stored = draft.get("fields") or {}
            own = {k: v for k, v in stored.items() if k in sheet.engine.draft_only_fields}
            new_fields = {**own, **new_fields}
        return (entries if entries is not None else {}, new_fields)

    return _draft_write(sheet, lang, change, number=number, if_version=if_version)


def draft_entry_put(*, sheet: Sheet, player: str, entry, lang: str = "fr", number: int | None = None) -> Sheet:
    """Set one player's entry in the round in progress; the others' stay as they are.

    `number`, when given, is the round the entry is meant for: if that round was
    saved meanwhile, DraftMoved tells the player their entry came too late.
    """
    if player not in sheet.players:
        raise PlayerNotFound()
    if not isinstance(entry, dict):
        with translation.override(lang):
            raise InvalidInput.one(f"entries.{player}", "invalid", _("An entry must be a JSON object."))
    if is_form_round(entry):
        # The player's own phone posts its form's fields: the engine reads their entry.
        try:
            entry = sheet.engine.read_seat_form(
                sheet.players, sheet.options, sheet.players.index(player), entry["form"]
            )
        except ScoringError as exc:
            raise InvalidInput(exc.messages(lang)) from None

    def change(draft):
        return {**(draft.get("entries") or {}), player: entry}, draft.get("fields") or {}

    return _draft_write(sheet, lang, change, number=number, last=player)


def draft_trick_put(
    *, sheet: Sheet, index: int, trick, lang: str = "fr", number: int | None = None, if_version: int
) -> Sheet:
    """Store one trick of the hand (`index` from 0) in the round in progress: the next one, or one played already.

    Only the shared `tricks_played` changes; the entries stay as stored, except what the
    referee fills after the hand's last trick (each player's tricks, `fill_draft`). The
    table's phones, the sheet's and the players' own, all write it (docs/rules.md, « Who
    may write the hand's tricks »): `if_version` is required, so of two phones storing
    at once the second gets VersionMismatch and reads the hand again.
    """

    def change(draft):
        fields = dict(draft.get("fields") or {})
        tricks = fields.get("tricks_played")
        tricks = list(tricks) if isinstance(tricks, list) else []
        if index > len(tricks):
            message = _("Trick %(n)d cannot be stored before trick %(before)d.") % {
                "n": index + 1,
                "before": len(tricks) + 1,
            }
            raise InvalidInput.one("n", "trick_number", message)
        tricks[index : index + 1] = [trick]
        return draft.get("entries") or {}, {**fields, "tricks_played": tricks}

    return _draft_write(sheet, lang, change, number=number, if_version=if_version)


def draft_clear(*, sheet: Sheet, lang: str = "fr") -> Sheet:
    """Empty the round in progress."""
    return _draft_write(sheet, lang, lambda _draft: ({}, {}))


@dataclass
class Once:
    """What `once` found for a keyed request: the first answer (`replay`), or a slot to keep this one's."""

    sheet: Sheet
    key: str = ""
    body_hash: str = ""
    replay: tuple[int, dict] | None = None

    def keep(self, status: int, response: dict) -> None:
        """Keep the answer to this request (JSON's own types), in its write's transaction (nothing without a key)."""
        if self.key:
            IdempotentRequest.objects.create(
                sheet=self.sheet, key=self.key, body_hash=self.body_hash, status=status, response=response
            )


@contextmanager
def once(sheet: Sheet, key: str, data, number: int | None = None):
    """Run the block inside once per (sheet, Idempotency-Key): the one helper for retried writes.

    With a key, the block runs in one transaction holding the sheet's lock, so
    concurrent retries queue behind the first: if an answer is kept for the key,
    `replay` holds it (status, body) and the block must send it as it is; the same
    key with another body raises IdempotencyMismatch. Otherwise the block writes and
    calls `keep(status, body)`, stored with the write or not at all. Without a key
    the block just runs.
    """
    if not key:
        yield Once(sheet)
        return
    with transaction.atomic():
        locked = _lock(sheet)
        body_hash = request_hash(data, number)
        seen = IdempotentRequest.objects.filter(sheet=locked, key=key).first()
        if seen is not None and seen.body_hash != body_hash:
            raise IdempotencyMismatch()
        replay = (seen.status, seen.response) if seen is not None else None
        yield Once(locked, key, body_hash, replay)


def round_edit(*, sheet: Sheet, number: int, data, lang: str = "fr", if_version: int | None = None) -> Sheet:
    """Replace round `number` (1-based); the engine must accept the whole game after it."""
    if not isinstance(data, dict):
        with translation.override(lang):
            raise InvalidInput.one("round", "invalid", _("A round must be a JSON object."))
    data = read_round(sheet, data, lang)
    with transaction.atomic():
        sheet, rounds = _locked(sheet, if_version)
        if not 1 <= number <= len(rounds):
            raise RoundNotFound()
        datas = [r.data for r in rounds]
        datas[number - 1] = data
        result = _rescore(sheet, datas, lang, number - 1)
        target = rounds[number - 1]
        target.data = data
        target.save(update_fields=["data"])
        _store(sheet, result, datas, lang)
    return sheet


def round_delete(*, sheet: Sheet, number: int, lang: str = "fr", if_version: int | None = None) -> Sheet:
    """Remove round `number`; later rounds move up one place."""
    with transaction.atomic():
        sheet, rounds = _locked(sheet, if_version)
        if not 1 <= number <= len(rounds):
            raise RoundNotFound()
        datas = [r.data for i, r in enumerate(rounds, start=1) if i != number]
        try:
            result = sheet.engine.score(sheet.players, sheet.options, datas, lang)
        except ScoringError as exc:
            raise InvalidInput(exc.messages(lang)) from None
        rounds[number - 1].delete()
        # Renumber upwards one by one so the unique (sheet, number) never collides.
        for r in rounds[number:]:
            r.number -= 1
            r.save(update_fields=["number"])
        _store(sheet, result, datas, lang)
    return sheet


def sheet_rematch(*, sheet: Sheet, owner_key: str = "", user=None, lang: str = "fr") -> Created:
    """Start a new sheet with the same game, players and options."""
    return sheet_create(
        game=sheet.game,
        players=sheet.players,
        options=sheet.options,
        owner_key=owner_key,
        user=user,
        lang=lang,
    )


def played_at(sheets):
    """Annotate each sheet with `played_at`: when the table played it (its last round), else its creation.

    Claiming a sheet at login or saving it to an account touches `updated_at`: a
    list of sheets tells when they were played, not when they changed hands.
    """
    last_round = Round.objects.filter(sheet=OuterRef("pk")).order_by("-number").values("created_at")[:1]
    return sheets.annotate(played_at=Coalesce(Subquery(last_round), "created_at"))


def with_lines(sheets, lang: str) -> list[Sheet]:
    """Return the sheets (seats prefetched), each with `line`: how its game sums it up in a list, or None.

    None means the list shows the players' totals; a session's game says its own
    summary instead (Game.list_line).
    """
    sheets = list(sheets)
    for sheet in sheets:
        seats = [(seat.name, seat.total, seat.records) for seat in sheet.seats.all()]
        sheet.line = GAMES[sheet.game].list_line(sheet.options, seats, lang)
    return sheets


def browser_sheets(*, owner_key: str):
    """Return the live anonymous sheets this browser made (its owner id), newest first: what a login may offer."""
    if not owner_key:
        return Sheet.objects.none()
    return Sheet.objects.alive().filter(user__isnull=True, owner_key=owner_key).order_by("-updated_at")


def sheets_claim(*, owner_key: str, user) -> int:
    """Give the live anonymous sheets of this browser to `user`; they stop expiring.

    Only once the person said yes (accounts/views.py `claim_sheets`): a login offers
    them, never moves them. The owner id comes from the session data, which survives
    the session key rotating at login. Sheets already expired stay expired. The edit
    token retires: from now on the account decides who edits (scoring/access.py).
    """
    if not owner_key:
        return 0
    return _give(browser_sheets(owner_key=owner_key).order_by(), user)


def sheet_save_to_account(*, sheet: Sheet, user) -> bool:
    """Give an anonymous sheet (opened with its edit link) to `user`; False if it has an owner.

    The edit token retires, as in `sheets_claim`.
    """
    return bool(_give(Sheet.objects.alive().filter(pk=sheet.pk, user__isnull=True), user))


def _give(sheets, user) -> int:
    """Give these anonymous sheets to `user`: kept for good, and the account decides who edits.

    Their streams check again who may listen: an edit link's right ends here too.
    """
    ids = list(sheets.values_list("pk", flat=True))
    with transaction.atomic():
        given = sheets.filter(pk__in=ids).update(
            user=user,
            expires_at=None,
            owner_key="",
            edit_token_hash="",
            updated_at=timezone.now(),
            version=F("version") + 1,
        )
        if given:
            mine = list(Sheet.objects.filter(pk__in=ids, user=user).values_list("pk", flat=True))
            sheets_owned.send(sender=Sheet, user_id=user.pk, sheet_ids=mine)
    # After the write: outside a transaction, an announcement leaves at once.
    for sheet_id in ids:
        live.announce_recheck(sheet_id)
    return given


def links_renew(*, sheet: Sheet) -> Sheet:
    """End every link of the sheet (share, players' entry, seat claim) and make new ones; return the sheet.

    The links are derived from the sheet's `links_epoch` (scoring/tokens.py): moving it
    on ends them all at once. The scores do not change, nor does the version or the
    sheet's expiry.
    """
    with transaction.atomic():
        locked = _lock(sheet)
        locked.links_epoch += 1
        locked.save(update_fields=["links_epoch"])
        live.announce_recheck(locked.pk)  # the old links' streams end too
    return locked


def round_restore(*, sheet: Sheet, number: int, data, version: int, lang: str = "fr") -> Sheet:
    """Put a removed round back as round `number`, exactly as it was, if the sheet is still at `version`.

    `version` is the one the removal left: the restore is the write right after it,
    or nothing. It is the same write as adding round `number` at that version (the
    engine checks the game again); once the sheet changed in any way (a round added,
    edited or removed, an entry of the round in progress, this very restore), it is
    refused, so an old token never puts back a round that is no longer the last one
    removed.
    """
    try:
        return round_add(sheet=sheet, data=data, lang=lang, number=number, if_version=version)
    except (VersionMismatch, Conflict):
        datas = stored_rounds(sheet)
        if len(datas) == number and datas[-1] == data:
            raise RestoreRefused(number, already=True, round_words=sheet.engine.round_words) from None
        raise RestoreRefused(number, taken=len(datas) >= number, round_words=sheet.engine.round_words) from None
