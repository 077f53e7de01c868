"""The REST API: views that parse, check permission, call a service and render.

A refusal is raised, never answered here: the services' exceptions carry their status
and code, and scoring/api/errors.py turns every one into the API's error shape.
"""

import json

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from scoring import services
from scoring.access import EDITOR, get_sheet, my_sheets, owner_key, seat_of
from scoring.api import serializers as s
from scoring.api.inputs import (
    DraftBody,
    DraftEntryBody,
    DraftTrickBody,
    RoundAddBody,
    RoundBody,
    ScoreBody,
    SheetBody,
    TrickBody,
    parsed,
)
from scoring.api.schema import GameSchema, TrickSchema
from scoring.exceptions import PreconditionRequired
from scoring.games import GAMES
from web.i18n import request_lang
from web.parsing import is_printable_ascii, parse_int
from web.ratelimit import ClientRateThrottle as ScopedRateThrottle

# Each game's example request, its engine's (shown in the OpenAPI schema).
EXAMPLES = {slug: game.api_example for slug, game in GAMES.items() if game.api_example}
# The games with a trick referee, and their example tricks.
REFEREES = {slug: game.trick_example for slug, game in GAMES.items() if game.referee}

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
    pattern=r'^[ \t]*(\*|(W/)?"[0-9]{1,9}"|[0-9]{1,9})?[ \t]*$',
    description=(
        'The version the write is meant for: the sheet\'s ETag (`"3"`; `W/"3"` and `3` too). '
        "Another version: 412. `*`, an empty value or no header: any version. Anything else: 400."
    ),
)
# A write two phones may make at once (a trick of the hand): the version is required (428 without it).
IF_MATCH_REQUIRED = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=True,
    pattern=r'^[ \t]*((W/)?"[0-9]{1,9}"|[0-9]{1,9})[ \t]*$',
    description='The version the round in progress was read at: the sheet\'s ETag (`"3"`). Another version: 412.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    pattern=r"^[ \t]*([!-~]([ -~]{0,98}[!-~])?)?[ \t]*$",
    description=(
        "Any key of yours for this write (e.g. a UUID): 1 to 100 printable ASCII characters, spaces around "
        "ignored; an empty value: no key."
    ),
)


def _if_match(request) -> int | None:
    """Return the version an If-Match header names ("3", "\"3\"" or "W/\"3\""), None without one or for "*".

    Anything else can never be a version of the sheet: 400 (docs/api.md).
    """
    raw = request.headers.get("If-Match", "").strip()
    if not raw or raw == "*":
        return None
    tag = raw.removeprefix("W/")
    if len(tag) >= 2 and tag[0] == tag[-1] == '"':
        tag = tag[1:-1]
    version = parse_int(tag) if tag == tag.strip() else None
    if version is None:
        message = _('If-Match: send the ETag the sheet came with (its version, e.g. "3").')
        raise services.InvalidInput.one("If-Match", "invalid", message)
    return version


def _idempotency_key(request) -> str:
    """Return the request's Idempotency-Key ("" without one); it is stored and looked up, so kept to plain ASCII."""
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > 100:
        message = _("The Idempotency-Key is at most 100 characters.")
        raise services.InvalidInput.one("Idempotency-Key", "invalid", message)
    if not is_printable_ascii(key):  # no NUL, nothing PostgreSQL refuses
        message = _("The Idempotency-Key is made of printable ASCII characters (letters, digits, - _ …).")
        raise services.InvalidInput.one("Idempotency-Key", "invalid", message)
    return key


def _not_modified(request, sheet) -> bool:
    """Tell whether the request's If-None-Match names the sheet's version (`"3"`, `W/"3"`, `3`): a 304."""
    return request.headers.get("If-None-Match", "").removeprefix("W/").strip('"') == str(sheet.version)


def _answer(body, *, version: int, code: int = status.HTTP_200_OK) -> Response:
    """Return a write's or a sheet's answer: its version as ETag, kept by no cache."""
    response = Response(body, status=code)
    response["ETag"] = f'"{version}"'
    response["Cache-Control"] = "no-store"
    return response


def _sheet_response(request, sheet, role, *, code=status.HTTP_200_OK, edit_token="") -> Response:
    context = {"request": request, "role": role, "lang": request_lang(), "edit_token": edit_token}
    body = s.SheetSerializer(sheet, context=context).data  # may move `sheet` to a newer version
    return _answer(body, version=sheet.version, code=code)


def _new_sheet_owner(request) -> dict:
    """Return who owns a sheet this request creates: its account, else (for a browser) its session."""
    user = request.user if request.user.is_authenticated else None
    # Only a browser (a request with cookies) is bound to the sheet by its session.
    return {"user": user, "owner_key": owner_key(request, create=True) if request.COOKIES and not user else ""}


class GameListView(APIView):
    @extend_schema(
        summary="The games: players, modes, options, cards and who wins", responses=s.GameSerializer(many=True)
    )
    def get(self, request):
        lang = request_lang()
        return Response([game.describe(lang) for game in GAMES.values()])


class GameView(APIView):
    """An endpoint whose body is a game's (`/games/{slug}/…`): no login, nothing stored, one operation per game
    in the schema (`games`, `game`: scoring/api/schema.py)."""

    stateless = True  # stores nothing, reads no session: no CSRF check (scoring/api/auth.py)
    game = None  # the schema's operation for one game
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "score"


class ScoreView(GameView):
    schema = GameSchema()

    @staticmethod
    def games():
        return list(GAMES)

    @extend_schema(
        summary="Score a game without saving it",
        description="No login, nothing stored. The same engine scores saved sheets.",
        request=ScoreBody,
        responses={200: s.ResultSerializer, **s.BODY_REFUSED},
        examples=[OpenApiExample(slug, value=body, request_only=True) for slug, body in EXAMPLES.items()],
    )
    def post(self, request, slug):
        if slug not in GAMES:
            raise services.UnknownGame(slug)
        body = parsed(ScoreBody, request.data)
        rounds = body.get("rounds", [])
        result = services.score(slug, body.get("players"), body.get("options", {}), rounds, request_lang())
        return Response(result)


class TrickView(GameView):
    schema = TrickSchema()

    @staticmethod
    def games():
        return list(REFEREES)

    @extend_schema(
        summary="Who takes the trick (the Num King referee)",
        description=(
            "No login, nothing stored. Resolves one trick, its cards in the order played: cancellations, the "
            "action in force (the last action card, Num-X counted), the valid cards, the winner (or nobody) and "
            "who leads the next trick, each step explained in `details`. `played` lists the round's earlier "
            "cards so that a card played twice in a round is refused."
        ),
        request=TrickBody,
        responses={200: s.TrickSerializer, **s.BODY_REFUSED},
        examples=[OpenApiExample(slug, value=body, request_only=True) for slug, body in REFEREES.items()],
    )
    def post(self, request, slug):
        services.referee(slug)
        body = parsed(TrickBody, request.data)
        result = services.trick(
            slug, body.get("players"), body.get("options", {}), body.get("plays"), body.get("played"), request_lang()
        )
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
        return Response(s.SheetSummarySerializer(sheets, many=True, context={"request": request}).data)

    @extend_schema(
        summary="Create a sheet",
        description=(
            "Returns the sheet with `edit_token` (once: send it as `X-Edit-Token` to write) "
            "and `share_url` (read-only link). A browser session that creates a sheet may "
            "also write to it. An anonymous sheet is kept 48 hours after its last change (`expires_at`)."
        ),
        request=SheetBody,
        responses={201: s.SheetSerializer, **s.BODY_REFUSED},
        examples=[
            OpenApiExample(
                slug, value={"game": slug, "players": body["players"], "options": body["options"]}, request_only=True
            )
            for slug, body in EXAMPLES.items()
        ],
    )
    def post(self, request):
        body = parsed(SheetBody, request.data)
        created = services.sheet_create(
            game=body.get("game"),
            players=body.get("players"),
            options=body.get("options", {}),
            lang=request_lang(),
            **_new_sheet_owner(request),
        )
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
        if _not_modified(request, sheet):
            return Response(status=status.HTTP_304_NOT_MODIFIED)
        return _sheet_response(request, sheet, role)


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
        request=RoundAddBody,
        responses={
            201: s.SheetSerializer,
            **s.BODY_REFUSED,
            409: s.ErrorSerializer,
            412: s.ErrorSerializer,
            422: s.ErrorSerializer,
        },
        examples=[OpenApiExample(slug, value=body["rounds"][0], request_only=True) for slug, body in EXAMPLES.items()],
    )
    def post(self, request, sheet_id):
        key = _idempotency_key(request)
        body = parsed(RoundAddBody, request.data)
        number, from_draft = body.get("number"), "from_draft" in body
        data = {"from_draft": True} if from_draft else body["rest"]
        sheet, _role = get_sheet(request, sheet_id, write=True)
        version = _if_match(request)
        with services.once(sheet, key, data, number) as once:
            if once.replay is not None:
                code, first = once.replay
                # The same headers as the first answer: its ETag is the version it returned.
                response = _answer(first, version=first.get("version"), code=code)
                response["Idempotent-Replayed"] = "true"
                return response
            sheet = services.round_add(
                sheet=sheet, data=data, lang=request_lang(), if_version=version, number=number, from_draft=from_draft
            )
            response = _sheet_response(request, sheet, EDITOR, code=status.HTTP_201_CREATED)
            once.keep(response.status_code, json.loads(json.dumps(response.data, cls=JSONEncoder)))
        return response


class RoundDetailView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "round_write"

    @extend_schema(
        summary="Replace a round",
        request=RoundBody,
        responses={200: s.SheetSerializer, **s.BODY_REFUSED, 412: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, IF_MATCH],
    )
    def put(self, request, sheet_id, number):
        sheet, role = get_sheet(request, sheet_id, write=True)
        version = _if_match(request)
        data = parsed(RoundBody, request.data)["rest"]
        sheet = services.round_edit(sheet=sheet, number=number, data=data, lang=request_lang(), if_version=version)
        return _sheet_response(request, sheet, role)

    @extend_schema(
        summary="Remove a round (later rounds move up)",
        responses={200: s.SheetSerializer, 400: s.ErrorSerializer, 404: s.ErrorSerializer, 412: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, IF_MATCH],
    )
    def delete(self, request, sheet_id, number):
        sheet, role = get_sheet(request, sheet_id, write=True)
        version = _if_match(request)
        sheet = services.round_delete(sheet=sheet, number=number, lang=request_lang(), if_version=version)
        return _sheet_response(request, sheet, role)


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
        # InvalidInput: a name an older rule let through.
        created = services.sheet_rematch(sheet=sheet, lang=request_lang(), **_new_sheet_owner(request))
        return _sheet_response(
            request, created.sheet, EDITOR, code=status.HTTP_201_CREATED, edit_token=created.edit_token
        )


def _draft_response(sheet) -> Response:
    return _answer(s.DraftSerializer(sheet).data, version=sheet.version)


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
        if _not_modified(request, sheet):
            return Response(status=status.HTTP_304_NOT_MODIFIED)
        return _draft_response(sheet)

    @extend_schema(
        summary="Replace the round in progress",
        description=(
            "The editor sends the whole round in progress: `entries` (each possibly partial) and "
            "`fields` (the round-level fields; Num King's `tricks_played`: the hand's tricks, checked "
            "by the referee, whose last one fills each player's `tricks`). It is validated as far as "
            "it goes. Send `If-Match` with the version the round in progress was read at to refuse a "
            "stale write (412): another phone's entry is never overwritten unseen."
        ),
        request=DraftBody,
        responses={
            200: s.DraftSerializer,
            **s.BODY_REFUSED,
            409: s.ErrorSerializer,
            412: s.ErrorSerializer,
        },
        parameters=[EDIT_TOKEN],
    )
    def put(self, request, sheet_id):
        sheet, _role = get_sheet(request, sheet_id, write=True)
        body = parsed(DraftBody, request.data)
        version = _if_match(request)
        sheet = services.draft_put(
            sheet=sheet,
            entries=body.get("entries"),
            fields=body.get("fields"),
            lang=request_lang(),
            number=body.get("number"),
            if_version=version,
        )
        return _draft_response(sheet)

    @extend_schema(
        summary="Empty the round in progress",
        request=None,
        responses={204: None, 403: s.ErrorSerializer, 404: s.ErrorSerializer},
        parameters=[EDIT_TOKEN],
    )
    def delete(self, request, sheet_id):
        sheet, _role = get_sheet(request, sheet_id, write=True)
        services.draft_clear(sheet=sheet, lang=request_lang())
        return Response(status=status.HTTP_204_NO_CONTENT)


class DraftTrickView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "round_write"

    @extend_schema(
        summary="Store one trick of the hand in the round in progress (Num King's referee)",
        description=(
            "Trick `n` (from 1) of `fields.tricks_played`: the next one, or one stored already (a "
            'correction). The body is the trick, `{"leader", "plays"}` as stored, with `number`, the '
            "round it is meant for (409 `round_saved` if that round was saved meanwhile). The editor, "
            "or any player of the sheet with their own seat token (`X-Seat-Token`): the hand is the "
            "table's, shared by every phone; nothing else of the round in progress changes, except "
            "each player's `tricks` that the hand's last trick fills. `If-Match` is required (428 "
            "without it): another phone's write since the round in progress was read answers 412, "
            "nothing stored."
        ),
        request=DraftTrickBody,
        responses={
            200: s.DraftSerializer,
            400: s.ErrorSerializer,
            404: s.ErrorSerializer,
            409: s.ErrorSerializer,
            412: s.ErrorSerializer,
            428: s.ErrorSerializer,
        },
        parameters=[EDIT_TOKEN, SEAT_TOKEN, IF_MATCH_REQUIRED],
    )
    def put(self, request, sheet_id, n):
        sheet, role = get_sheet(request, sheet_id, write=False)
        if role != EDITOR and seat_of(request, sheet) is None:
            raise Http404  # a share link, a stranger: as if it did not exist
        if not sheet.engine.referee or n < 1:
            raise Http404
        body = parsed(DraftTrickBody, request.data)
        version = _if_match(request)
        if version is None:
            raise PreconditionRequired()
        trick = {"leader": body.get("leader"), "plays": body.get("plays")}
        sheet = services.draft_trick_put(
            sheet=sheet, index=n - 1, trick=trick, lang=request_lang(), number=body.get("number"), if_version=version
        )
        return _draft_response(sheet)


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
        request=DraftEntryBody,
        responses={200: s.DraftSerializer, **s.BODY_REFUSED, 409: s.ErrorSerializer},
        parameters=[EDIT_TOKEN, SEAT_TOKEN],
    )
    def put(self, request, sheet_id, player):
        sheet, role = get_sheet(request, sheet_id, write=False)
        if player not in sheet.players:
            raise Http404
        if role != EDITOR and seat_of(request, sheet) != sheet.players.index(player):
            raise Http404  # another player's token, a share link, a stranger: as if it did not exist
        body = parsed(DraftEntryBody, request.data)
        sheet = services.draft_entry_put(
            sheet=sheet, player=player, entry=body["rest"], lang=request_lang(), number=body.get("number")
        )
        return _draft_response(sheet)
