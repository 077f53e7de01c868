"""The REST API: thin views that parse, check permission and call the services."""

from django.db import transaction
from django.http import Http404
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from numapp.parsing import is_printable_ascii, parse_int
from scoring import services
from scoring.access import EDITOR, csrf_failure, get_sheet, my_sheets, owner_key, seat_of
from scoring.api import serializers as s
from scoring.api.errors import error_response
from scoring.api.throttles import WindowThrottle as ScopedRateThrottle
from scoring.games import GAMES
from scoring.models import Sheet

EXAMPLES = {
    "numx": {
        "players": ["Elya", "Sasha"],
        "options": {"mode": "speedrun"},
        "rounds": [
            {
                "entries": {
                    "Elya": {"cards": [{"kind": "red", "value": 7}, {"kind": "rainbow", "value": 7}]},
                    "Sasha": {"cards": [{"kind": "blue", "value": 9}, {"kind": "red", "value": 9}]},
                }
            }
        ],
    },
    "numx-malus": {
        "players": ["Elya", "Sasha"],
        "options": {"mode": "speedrun", "scoring": "classic", "end": "threshold"},
        "rounds": [
            {
                "entries": {
                    "Elya": {"cards": [{"kind": "blue", "value": 3}, {"kind": "joker"}]},
                    "Sasha": {"cards": []},
                }
            }
        ],
    },
    "numwin": {
        "players": ["Elya", "Sasha"],
        "options": {"mode": "classic"},
        "rounds": [
            {
                "declarer": "Elya",
                "entries": {
                    "Elya": {"cards": [{"kind": "rainbow", "value": 5}, {"kind": "shadow", "value": 8}]},
                    "Sasha": {"points": 4},
                },
            }
        ],
    },
    "numking": {
        "players": ["Elya", "Sasha", "Mendy", "Noa"],
        "options": {"start": 1},
        "rounds": [
            {
                "cards": 1,
                "entries": {
                    "Elya": {"bid": 1, "tricks": 1},
                    "Sasha": {"bid": 0, "tricks": 0},
                    "Mendy": {"bid": 0, "tricks": 0},
                    "Noa": {"bid": 1, "tricks": 0},
                },
            }
        ],
    },
    "coop": {
        "players": ["Elya", "Sasha", "Mendy"],
        "options": {"mode": "cooperatif"},
        "rounds": [{"placed": 96}, {"placed": 71}],
    },
}

ERRORS = {400: s.ErrorSerializer, 404: s.ErrorSerializer}
EDIT_TOKEN = OpenApiParameter(
    "X-Edit-Token",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The sheet's edit token (returned once by the create call): read and write.",
)
SHARE_TOKEN = OpenApiParameter(
    "X-Share-Token",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The share link's token: read only.",
)

IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        'The version the write is meant for: the sheet\'s ETag (`"3"`; `W/"3"` and `3` too). '
        "Another version: 412. `*` or no header: any version. Anything else: 400."
    ),
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Any key of yours for this write (e.g. a UUID): 1 to 100 printable ASCII characters.",
)


def request_lang() -> str:
    """Return the request's language as "fr" or "en"."""
    return "en" if (translation.get_language() or "fr").startswith("en") else "fr"


def _body(request) -> dict | Response:
    if not isinstance(request.data, dict):
        return error_response(
            [{"path": "", "code": "invalid", "message": _("The request body must be a JSON object.")}]
        )
    return request.data


class BadIfMatch(Exception):
    """The If-Match header is not one version of the sheet (docs/api.md)."""


def _if_match(request) -> int | None:
    """Return the version an If-Match header names ("3", "\"3\"" or "W/\"3\""), None without one or for "*".

    Raise BadIfMatch for anything else: it can never be a version of the sheet.
    """
    raw = request.headers.get("If-Match", "").strip()
    if not raw or raw == "*":
        return None
    tag = raw.removeprefix("W/")
    if len(tag) >= 2 and tag[0] == tag[-1] == '"':
        tag = tag[1:-1]
    version = parse_int(tag) if tag == tag.strip() else None
    if version is None:
        raise BadIfMatch()
    return version


def sheet_payload(request, sheet: Sheet, role: str, *, lang: str, edit_token: str = "") -> dict:
    """Return a sheet with the same result fields as the scoring endpoint."""
    result, datas = services.sheet_state(sheet, lang)
    for number, (out, stored) in enumerate(zip(result["rounds"], datas), start=1):
        out["number"] = number
        out["entry"] = stored
    payload = {
        "id": sheet.pk,
        "game": sheet.game,
        "players": sheet.players,
        "version": sheet.version,
        "created_at": sheet.created_at,
        "updated_at": sheet.updated_at,
        "expires_at": sheet.expires_at,
        "can_edit": role == EDITOR,
        "url": request.build_absolute_uri(reverse("sheet", args=[sheet.pk])),
        **result,
    }
    payload["draft"] = services.draft_payload(sheet)
    if role == EDITOR:
        payload["share_url"] = request.build_absolute_uri(
            reverse("sheet-watch", args=[sheet.pk, services.share_token(sheet.pk)])
        )
        payload["seat_urls"] = {
            name: request.build_absolute_uri(
                reverse("seat-entry", args=[sheet.pk, seat, services.seat_entry_token(sheet.pk, seat)])
            )
            for seat, name in enumerate(sheet.players)
        }
    if edit_token:
        payload["edit_token"] = edit_token
        # Opening this link in a browser lets that browser edit (and save) the sheet.
        payload["edit_url"] = f"{payload['url']}?edit={edit_token}"
    return payload


def _sheet_response(request, sheet, role, *, code=status.HTTP_200_OK, edit_token=""):
    response = Response(sheet_payload(request, sheet, role, lang=request_lang(), edit_token=edit_token), status=code)
    response["ETag"] = f'"{sheet.version}"'
    response["Cache-Control"] = "no-store"
    return response


def _csrf_refused() -> Response:
    message = _("CSRF check failed: reload the page and try again.")
    return error_response([{"path": "", "code": "csrf", "message": message}], status.HTTP_403_FORBIDDEN)


class GameListView(APIView):
    @extend_schema(
        summary="The games: players, modes, options, cards and who wins", responses=s.GameSerializer(many=True)
    )
    def get(self, request):
        lang = request_lang()
        return Response([game.describe(lang) for game in GAMES.values()])


class ScoreView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "score"

    @extend_schema(
        summary="Score a game without saving it",
        description="No login, nothing stored. The same engine scores saved sheets.",
        request=s.ScoreRequestSerializer,
        responses={200: s.ResultSerializer, **ERRORS},
        parameters=[OpenApiParameter("slug", str, OpenApiParameter.PATH, enum=list(GAMES))],
        examples=[OpenApiExample(slug, value=body, request_only=True) for slug, body in EXAMPLES.items()],
    )
    def post(self, request, slug):
        if slug not in GAMES:
            return error_response(
                [{"path": "slug", "code": "unknown_game", "message": _("Unknown game: %(game)s.") % {"game": slug}}],
                status.HTTP_404_NOT_FOUND,
            )
        body = _body(request)
        if isinstance(body, Response):
            return body
        unknown = sorted(set(body) - {"players", "options", "rounds"})
        if unknown:
            return error_response(
                [
                    {"path": k, "code": "unknown_field", "message": _("Unknown field: %(f)s.") % {"f": k}}
                    for k in unknown
                ]
            )
        try:
            result = services.score(
                slug, body.get("players"), body.get("options", {}), body.get("rounds", []), request_lang()
            )
        except services.InvalidInput as exc:
            return error_response(exc.errors)
        return Response(result)


class SheetListView(APIView):
    def get_throttles(self):
        if self.request.method == "POST":
            self.throttle_scope = "sheet_create"
            return [ScopedRateThrottle()]
        return []

    @extend_schema(summary="The sheets this browser or account may edit", responses=s.SheetSummarySerializer(many=True))
    def get(self, request):
        sheets = my_sheets(request).prefetch_related("seats")[:100]
        return Response(
            [
                {
                    "id": sheet.pk,
                    "game": sheet.game,
                    "players": sheet.players,
                    "totals": {seat.name: seat.total for seat in sheet.seats.all()},
                    "finished": sheet.finished,
                    "rounds": sheet.round_count,
                    "updated_at": sheet.updated_at,
                    "expires_at": sheet.expires_at,
                    "url": request.build_absolute_uri(reverse("api-sheet", args=[sheet.pk])),
                }
                for sheet in sheets
            ]
        )

    @extend_schema(
        summary="Create a sheet",
        description=(
            "Returns the sheet with `edit_token` (once: send it as `X-Edit-Token` to write) "
            "and `share_url` (read-only link). A browser session that creates a sheet may "
            "also write to it. Anonymous sheets expire after 48 hours."
        ),
        request=s.SheetCreateSerializer,
        responses={201: s.SheetSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                slug, value={"game": slug, "players": body["players"], "options": body["options"]}, request_only=True
            )
            for slug, body in EXAMPLES.items()
        ],
    )
    def post(self, request):
        if csrf_failure(request):
            return _csrf_refused()
        body = _body(request)
        if isinstance(body, Response):
            return body
        unknown = sorted(set(body) - {"game", "players", "options"})
        if unknown:
            return error_response(
                [
                    {"path": k, "code": "unknown_field", "message": _("Unknown field: %(f)s.") % {"f": k}}
                    for k in unknown
                ]
            )
        user = request.user if request.user.is_authenticated else None
        # Only a browser (a request with cookies) is bound to the sheet by its session.
        key = owner_key(request, create=True) if request.COOKIES and not user else ""
        try:
            created = services.sheet_create(
                game=body.get("game"),
                players=body.get("players"),
                options=body.get("options", {}),
                owner_key=key,
                user=user,
                lang=request_lang(),
            )
        except services.InvalidInput as exc:
            return error_response(exc.errors)
        return _sheet_response(
            request, created.sheet, EDITOR, code=status.HTTP_201_CREATED, edit_token=created.edit_token
        )


class SheetDetailView(APIView):
    @extend_schema(
        summary="Read a sheet",
        description="Allowed to its creator (session, account or `X-Edit-Token`) and to share-link holders (`X-Share-Token` or `?share=`).",
        responses={200: s.SheetSerializer, 304: None, 404: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, SHARE_TOKEN],
    )
    def get(self, request, sheet_id):
        sheet, role = get_sheet(request, sheet_id, write=False)
        if request.headers.get("If-None-Match", "").strip('"') == str(sheet.version):
            return Response(status=status.HTTP_304_NOT_MODIFIED)
        return _sheet_response(request, sheet, role)


def _write(request, sheet_id, action):
    """Run a round write with the shared permission, CSRF and error handling."""
    sheet, role = get_sheet(request, sheet_id, write=True)
    if csrf_failure(request):
        return _csrf_refused()
    try:
        version = _if_match(request)
    except BadIfMatch:
        message = _('If-Match: send the ETag the sheet came with (its version, e.g. "3").')
        return error_response([{"path": "If-Match", "code": "invalid", "message": message}])
    try:
        result = action(sheet, request_lang(), version)
        if isinstance(result, Response):
            return result
        sheet, code = result
    except services.Replay as exc:
        response = Response(exc.response, status=exc.status)
        # The same headers as the first answer: its ETag is the version it returned.
        if isinstance(exc.response, dict) and isinstance(exc.response.get("version"), int):
            response["ETag"] = f'"{exc.response["version"]}"'
        response["Cache-Control"] = "no-store"
        response["Idempotent-Replayed"] = "true"
        return response
    except services.IdempotencyMismatch:
        message = _("This Idempotency-Key was already used for a different round.")
        return error_response([{"path": "Idempotency-Key", "code": "idempotency_mismatch", "message": message}], 422)
    except services.InvalidInput as exc:
        return error_response(exc.errors)
    except services.VersionMismatch as exc:
        message = _("The sheet changed since you loaded it: reload it and try again.")
        response = error_response(
            [{"path": "", "code": "stale", "message": message}], status.HTTP_412_PRECONDITION_FAILED
        )
        response["ETag"] = f'"{exc.current}"'
        return response
    except services.RoundNotFound:
        return error_response(
            [{"path": "number", "code": "not_found", "message": _("No such round.")}], status.HTTP_404_NOT_FOUND
        )
    except services.Conflict:
        message = _("Another phone added a round at the same moment: reload the sheet.")
        return error_response([{"path": "", "code": "conflict", "message": message}], status.HTTP_409_CONFLICT)
    except services.DraftMoved as exc:
        return _round_saved(exc)
    return _sheet_response(request, sheet, role, code=code)


def _round_saved(exc) -> Response:
    """Answer a write meant for a round that was saved meanwhile: 409, the player may send it again."""
    message = _("Round %(n)d was saved before your entry arrived: enter it again for round %(next)d if you wish.") % {
        "n": exc.current - 1,
        "next": exc.current,
    }
    return error_response([{"path": "number", "code": "round_saved", "message": message}], status.HTTP_409_CONFLICT)


class RoundListView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "round_write"

    @extend_schema(
        summary="Add a round",
        description=(
            "Send `If-Match` with the sheet's version (its ETag) to refuse a stale write (412), or "
            "`number`, the round you mean to add: if another client added it first, 409. "
            "Send an `Idempotency-Key` to retry safely: the same key and body get the same answer, "
            "one round is made; the same key with another body gets 422."
        ),
        parameters=[
            EDIT_TOKEN,
            IDEMPOTENCY_KEY,
            IF_MATCH,
        ],
        request=s.RoundSerializer,
        responses={
            201: s.SheetSerializer,
            400: s.ErrorSerializer,
            404: s.ErrorSerializer,
            409: s.ErrorSerializer,
            412: s.ErrorSerializer,
            422: s.ErrorSerializer,
        },
        examples=[OpenApiExample(slug, value=body["rounds"][0], request_only=True) for slug, body in EXAMPLES.items()],
    )
    def post(self, request, sheet_id):
        key = request.headers.get("Idempotency-Key", "").strip()
        if len(key) > 100:
            message = _("The Idempotency-Key is at most 100 characters.")
            return error_response([{"path": "Idempotency-Key", "code": "invalid", "message": message}])
        if not is_printable_ascii(key):  # it is stored and looked up: no NUL, nothing PostgreSQL refuses
            message = _("The Idempotency-Key is made of printable ASCII characters (letters, digits, - _ …).")
            return error_response([{"path": "Idempotency-Key", "code": "invalid", "message": message}])

        body = request.data
        number = None
        if isinstance(body, dict) and "number" in body:
            body = dict(body)
            number = body.pop("number")
            if not isinstance(number, int) or isinstance(number, bool) or number < 1:
                message = _("number: the round number must be a whole number from 1.")
                return error_response([{"path": "number", "code": "invalid", "message": message}])

        from_draft = isinstance(body, dict) and "from_draft" in body
        if from_draft and body != {"from_draft": True}:
            message = _('from_draft: send {"from_draft": true} alone to save the round in progress.')
            return error_response([{"path": "from_draft", "code": "invalid", "message": message}])

        def add(sheet, lang, version):
            if not key:
                sheet = services.round_add(
                    sheet=sheet, data=body, lang=lang, if_version=version, number=number, from_draft=from_draft
                )
                return _sheet_response(request, sheet, EDITOR, code=status.HTTP_201_CREATED)
            # The answer is stored with the round, in the same transaction.
            with transaction.atomic():
                sheet = services.round_add(
                    sheet=sheet,
                    data=body,
                    lang=lang,
                    if_version=version,
                    idempotency_key=key,
                    number=number,
                    from_draft=from_draft,
                )
                response = _sheet_response(request, sheet, EDITOR, code=status.HTTP_201_CREATED)
                services.idempotent_store(
                    sheet=sheet, key=key, data=body, number=number, status=201, response=response.data
                )
            return response

        return _write(request, sheet_id, add)


class RoundDetailView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "round_write"

    @extend_schema(
        summary="Replace a round",
        request=s.RoundSerializer,
        responses={200: s.SheetSerializer, 400: s.ErrorSerializer, 404: s.ErrorSerializer, 412: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, IF_MATCH],
    )
    def put(self, request, sheet_id, number):
        def edit(sheet, lang, version):
            return services.round_edit(
                sheet=sheet, number=number, data=request.data, lang=lang, if_version=version
            ), status.HTTP_200_OK

        return _write(request, sheet_id, edit)

    @extend_schema(
        summary="Remove a round (later rounds move up)",
        responses={200: s.SheetSerializer, 400: s.ErrorSerializer, 404: s.ErrorSerializer, 412: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, IF_MATCH],
    )
    def delete(self, request, sheet_id, number):
        def remove(sheet, lang, version):
            return services.round_delete(sheet=sheet, number=number, lang=lang, if_version=version), status.HTTP_200_OK

        return _write(request, sheet_id, remove)


class RematchView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "sheet_create"

    @extend_schema(
        summary="Start a new sheet with the same players and options",
        request=None,
        responses={201: s.SheetSerializer, 400: s.ErrorSerializer, 404: s.ErrorSerializer},
        parameters=[EDIT_TOKEN],
    )
    def post(self, request, sheet_id):
        sheet, _role = get_sheet(request, sheet_id, write=True)
        if csrf_failure(request):
            return _csrf_refused()
        user = request.user if request.user.is_authenticated else None
        key = owner_key(request, create=True) if request.COOKIES and not user else ""
        try:
            created = services.sheet_rematch(sheet=sheet, owner_key=key, user=user, lang=request_lang())
        except services.InvalidInput as exc:  # a name an older rule let through
            return error_response(exc.errors)
        return _sheet_response(
            request, created.sheet, EDITOR, code=status.HTTP_201_CREATED, edit_token=created.edit_token
        )


def _draft_response(sheet, code=status.HTTP_200_OK) -> Response:
    response = Response(services.draft_payload(sheet), status=code)
    response["ETag"] = f'"{sheet.version}"'
    response["Cache-Control"] = "no-store"
    return response


def _draft_number(body) -> tuple[dict, int | None] | Response:
    """Split the optional `number` (the round the write is meant for) from a draft body."""
    if not isinstance(body, dict):
        return error_response(
            [{"path": "", "code": "invalid", "message": _("The request body must be a JSON object.")}]
        )
    body = dict(body)
    number = body.pop("number", None)
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        message = _("number: the round number must be a whole number from 1.")
        return error_response([{"path": "number", "code": "invalid", "message": message}])
    return body, number


def _draft_write(request, sheet, action) -> Response:
    """Run a write of the round in progress with the shared CSRF and error handling."""
    if csrf_failure(request):
        return _csrf_refused()
    try:
        return _draft_response(action(request_lang()))
    except services.InvalidInput as exc:
        return error_response(exc.errors)
    except services.RoundNotFound:
        return error_response(
            [{"path": "player", "code": "not_found", "message": _("No such player.")}], status.HTTP_404_NOT_FOUND
        )
    except services.DraftMoved as exc:
        return _round_saved(exc)


SEAT_TOKEN = OpenApiParameter(
    "X-Seat-Token",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="A player's own entry link token (the last part of their `seat_urls` link): that player's entry only.",
)


class DraftView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "round_write"

    def get_throttles(self):
        return super().get_throttles() if self.request.method != "GET" else []

    @extend_schema(
        summary="Read the round in progress",
        description="Allowed to the editor, share-link holders and players with their seat token.",
        responses={200: s.DraftSerializer, 304: None, 404: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, SHARE_TOKEN, SEAT_TOKEN],
    )
    def get(self, request, sheet_id):
        sheet, _role = get_sheet(request, sheet_id, write=False)
        if request.headers.get("If-None-Match", "").strip('"') == str(sheet.version):
            return Response(status=status.HTTP_304_NOT_MODIFIED)
        return _draft_response(sheet)

    @extend_schema(
        summary="Replace the round in progress",
        description=(
            "The editor sends the whole round in progress: `entries` (each possibly partial) and "
            "`fields` (the round-level fields). It is validated as far as it goes."
        ),
        request=s.DraftWriteSerializer,
        responses={200: s.DraftSerializer, 400: s.ErrorSerializer, 404: s.ErrorSerializer, 409: s.ErrorSerializer},
        parameters=[EDIT_TOKEN],
    )
    def put(self, request, sheet_id):
        sheet, _role = get_sheet(request, sheet_id, write=True)
        split = _draft_number(request.data)
        if isinstance(split, Response):
            return split
        body, number = split
        unknown = sorted(set(body) - {"entries", "fields"})
        if unknown:
            return error_response(
                [
                    {"path": k, "code": "unknown_field", "message": _("Unknown field: %(f)s.") % {"f": k}}
                    for k in unknown
                ]
            )
        return _draft_write(
            request,
            sheet,
            lambda lang: services.draft_put(
                sheet=sheet, entries=body.get("entries"), fields=body.get("fields"), lang=lang, number=number
            ),
        )

    @extend_schema(
        summary="Empty the round in progress",
        request=None,
        responses={204: None, 403: s.ErrorSerializer, 404: s.ErrorSerializer},
        parameters=[EDIT_TOKEN],
    )
    def delete(self, request, sheet_id):
        sheet, _role = get_sheet(request, sheet_id, write=True)
        response = _draft_write(request, sheet, lambda lang: services.draft_clear(sheet=sheet, lang=lang))
        if response.status_code != status.HTTP_200_OK:
            return response
        response = Response(status=status.HTTP_204_NO_CONTENT)
        return response


class DraftEntryView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "round_write"

    @extend_schema(
        summary="Set one player's entry in the round in progress",
        description=(
            "The editor, or the player with their own seat token (`X-Seat-Token`). The body is one "
            'entry (`{"bid": 2}`, `{"cards": [...]}`…), with `number`, the round it is meant for: '
            "if that round was saved meanwhile, 409 `round_saved`."
        ),
        request=s.DraftEntrySerializer,
        responses={200: s.DraftSerializer, 400: s.ErrorSerializer, 404: s.ErrorSerializer, 409: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, SEAT_TOKEN],
    )
    def put(self, request, sheet_id, player):
        sheet, role = get_sheet(request, sheet_id, write=False)
        if player not in sheet.players:
            raise Http404
        if role != EDITOR and seat_of(request, sheet) != sheet.players.index(player):
            raise Http404  # another player's token, a share link, a stranger: as if it did not exist
        split = _draft_number(request.data)
        if isinstance(split, Response):
            return split
        entry, number = split
        return _draft_write(
            request,
            sheet,
            lambda lang: services.draft_entry_put(sheet=sheet, player=player, entry=entry, lang=lang, number=number),
        )
