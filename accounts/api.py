"""« Mes joueurs » in the API (`/api/v1/players/…`), the logged-in account's own.

Read them (the list, one player, « Ma table »), merge, split and rename them, link one
to another account (and accept such a link), say which seat of a sheet is yours
(« Qui êtes-vous ? »). Views that parse (the bodies below, read and documented as
scoring/api/inputs.py's), check the account, call accounts.services and render the answer
with the serializer the schema documents (accounts/serializers.py); refusals are raised
and the API's one exception handler answers them.
"""

import math
import re

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring.api.serializers as scoring_s
from accounts import serializers as s
from accounts import services
from scoring.api.inputs import Checked, Envelope, parsed
from scoring.api.shapes import NAME
from scoring.exceptions import InvalidInput, PlayerNotFound, UnknownGame
from scoring.games import GAMES
from web.i18n import request_lang

REFUSED = {
    403: OpenApiResponse(description="Not logged in: the players are an account's own."),
}
# A player's results per page of the API's answer, counted from the first game played.
RESULTS_PAGE = 100
PAGE = OpenApiParameter(
    "page",
    int,
    description=f"Which {RESULTS_PAGE} results of each game: 1 (the default) the first {RESULTS_PAGE} played, "
    f"2 the next {RESULTS_PAGE}… Every other figure is the same on every page. A page past the last has no "
    "results; anything but a whole number from 1 is refused (400).",
)


def results_page(request) -> int:
    """Return the page of results asked for (`?page=`, 1 by default); InvalidInput if it is not a whole number from 1."""
    raw = request.query_params.get("page", "1")
    if not re.fullmatch(r"[1-9][0-9]{0,8}", raw):
        raise InvalidInput.one("page", "invalid_page", _("The page is a whole number from 1."))
    return int(raw)


def logged_in(request) -> None:
    """Refuse a request without a login (403), after the method was found: an unknown method is still 405."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()


class PlayerListView(APIView):
    @extend_schema(
        summary="The players of my table",
        description=(
            "The logged-in account's players, recognised by name across its sheets (« Léa », « lea » and "
            "« Léa » are one player unless the account split them), most games first. `games` counts "
            "finished games, every game together."
        ),
        responses={200: s.PlayerSerializer(many=True), **REFUSED},
    )
    def get(self, request):
        logged_in(request)
        players = services.table_players(request.user)
        return Response(s.PlayerSerializer(players, many=True, context={"request": request}).data)


class PlayerDetailView(APIView):
    @extend_schema(
        summary="One player of my table",
        description="Per game: games, wins, average, best, the engine's records, results in the order played and "
        f"the table's rating (OpenSkill); head to head against every other player of the table. The results come "
        f"{RESULTS_PAGE} a page (`page`, `pages`, `next`, `previous`; `results_count` counts a game's results).",
        parameters=[PAGE],
        responses={
            200: s.PlayerDetailSerializer,
            400: scoring_s.ErrorSerializer,
            **REFUSED,
            404: OpenApiResponse(description="Not a player of yours."),
        },
    )
    def get(self, request, player_id):
        logged_in(request)
        page = results_page(request)
        start = (page - 1) * RESULTS_PAGE
        player = services.table_player(request.user, player_id, request_lang(), results=(start, start + RESULTS_PAGE))
        pages = max([math.ceil(g["results_count"] / RESULTS_PAGE) for g in player["per_game"]] + [1])
        url = request.build_absolute_uri(reverse("api-player", args=[player_id]))
        paging = {
            "page": page,
            "pages": pages,
            "next": f"{url}?page={page + 1}" if page < pages else None,
            "previous": f"{url}?page={min(page - 1, pages)}" if page > 1 else None,
        }
        return Response(s.PlayerDetailSerializer({**player, **paging}).data)


# Writes: a JSON body with only its documented fields, each refused with a message naming it.

NOT_FOUND = OpenApiResponse(scoring_s.ErrorSerializer, description="Not a player of yours (`path`: which one).")
WRITE_REFUSED = {**scoring_s.BODY_REFUSED, **REFUSED, 404: NOT_FOUND}


def whole(lowest: int):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lowest <= v <= 999_999_999


def text(v) -> bool:
    return isinstance(v, str)


ID = {"type": "integer", "minimum": 1, "maximum": 999_999_999}


class PlayerBody(Envelope):
    per_game = False


class MergeBody(PlayerBody):
    other = Checked(
        {**ID, "description": "The player whose names join this one."},
        gettext_lazy("other: the player to merge into this one, by their id (a whole number from 1)."),
        accepts=whole(1),
    )


NAME_MESSAGE = gettext_lazy("name: send the name as text.")


class SplitBody(PlayerBody):
    name = Checked(
        {"type": "string", "description": "One of the player's `names`, to become a player of its own."},
        NAME_MESSAGE,
        accepts=text,
    )


class RenameBody(PlayerBody):
    name = Checked({**NAME, "description": "The name the account's pages show."}, NAME_MESSAGE, accepts=text)


class SeatBody(PlayerBody):
    seat = Checked(
        {
            "type": "integer",
            "minimum": 0,
            "maximum": 999_999_999,
            "nullable": True,
            "description": "Your seat (0 is the sheet's first name), or null: « aucun », you only kept score.",
        },
        gettext_lazy("seat: your seat's number (0 for the first name) or null for none of them."),
        accepts=whole(0),
        allow_null=True,
    )


def the_player(request, player_id: int) -> dict:
    """Return one of the account's players as the list shows it (PlayerNotFound if it is not theirs)."""
    found = next((p for p in services.table_players(request.user) if p["id"] == player_id), None)
    if found is None:
        raise PlayerNotFound()
    return s.PlayerSerializer(found, context={"request": request}).data


class PlayerView(PlayerDetailView):
    """One player of my table: read it (PlayerDetailView), rename it."""

    @extend_schema(
        summary="Rename one player of my table",
        description="The account's pages and the API show the player by this name; the sheets keep the names "
        "they were typed with (`names`). The answer is the player as the list shows it.",
        request=RenameBody,
        responses={200: s.PlayerSerializer, **WRITE_REFUSED},
    )
    def patch(self, request, player_id):
        logged_in(request)
        body = parsed(RenameBody, request.data)
        services.players_rename(user=request.user, player_id=player_id, name=body["name"])
        return Response(the_player(request, player_id))


class PlayerMergeView(APIView):
    @extend_schema(
        summary="Merge two players of my table",
        description="`other`'s names become this player's; its games, figures and rating follow, and `other` is "
        "gone. Refused (400, `path` `other`) for the same player, two players who sat at the same sheet, or "
        "two players linked to different accounts. The answer is the merged player as the list shows it.",
        request=MergeBody,
        responses={200: s.PlayerSerializer, **WRITE_REFUSED},
    )
    def post(self, request, player_id):
        logged_in(request)
        body = parsed(MergeBody, request.data)
        services.players_merge(user=request.user, into=player_id, other=body["other"])
        return Response(the_player(request, player_id))


class PlayerSplitView(APIView):
    @extend_schema(
        summary="Split a name off a player of my table",
        description="One of the player's `names` becomes a player of its own (« LEA » is not Léa), shown by that "
        "name; the figures and ratings of both follow. Refused (400, `path` `name`) for a name that is not "
        "the player's, or the player's only name. The answer is the new player as the list shows it.",
        request=SplitBody,
        responses={201: s.PlayerSerializer, **WRITE_REFUSED},
    )
    def post(self, request, player_id):
        logged_in(request)
        body = parsed(SplitBody, request.data)
        new = services.players_split(user=request.user, player_id=player_id, name=body["name"])
        answer = the_player(request, new)
        return Response(answer, status=status.HTTP_201_CREATED, headers={"Location": answer["url"]})


class PlayerLinkView(APIView):
    @extend_schema(
        summary="Make a link to one player of my table",
        description="A new link (the previous one ends): the person who opens it, logged in, may accept it; "
        "the player's seats on this account's sheets then count in their own stats (the sheets stay "
        "this account's). It works once, for 30 days.",
        request=None,
        responses={201: s.PlayerLinkSerializer, **REFUSED, 404: NOT_FOUND},
    )
    def post(self, request, player_id):
        logged_in(request)
        until = timezone.now() + services.PLAYER_LINK_KEEP
        token = services.player_link_make(user=request.user, player_id=player_id)
        answer = {
            "url": request.build_absolute_uri(reverse("player-link", args=[player_id, token])),
            "api_url": request.build_absolute_uri(reverse("api-player-link", args=[player_id, token])),
            "expires_at": until,
        }
        return Response(s.PlayerLinkSerializer(answer).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="End the link of one player of my table",
        description="Their seats on this account's sheets leave the other account's stats; a link not yet "
        "accepted stops working. Nothing to end: 204 all the same.",
        request=None,
        responses={204: None, **REFUSED, 404: NOT_FOUND},
    )
    def delete(self, request, player_id):
        logged_in(request)
        services.player_unlink(user=request.user, player_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


LINK_TOKEN = OpenApiParameter(
    "token", str, OpenApiParameter.PATH, pattern="^[A-Za-z0-9_-]{1,64}$", description="The link's last part."
)


class PlayerLinkAcceptView(APIView):
    @extend_schema(
        operation_id="player_link_show",
        summary="What a player's link is",
        description="Anyone holding the link: the player's name and whose table it is, nothing else of it. "
        "404 once used, ended or older than 30 days.",
        parameters=[LINK_TOKEN],
        responses={200: s.PlayerLinkShownSerializer, 404: scoring_s.ErrorSerializer},
    )
    def get(self, request, player_id, token):
        shown = services.player_to_link(player_id, token)
        if shown is None:
            raise PlayerNotFound()
        return Response(s.PlayerLinkShownSerializer(shown).data)

    @extend_schema(
        operation_id="player_link_accept",
        summary="Accept a player's link: « C'est moi »",
        description="The player's games on that table count in your stats from now on, and so do the games to "
        "come; the sheets stay their owner's. Refused (400, `path` `player`) to the table's own account.",
        parameters=[LINK_TOKEN],
        request=None,
        responses={
            200: s.PlayerLinkAcceptedSerializer,
            400: scoring_s.ErrorSerializer,
            **REFUSED,
            404: scoring_s.ErrorSerializer,
        },
    )
    def post(self, request, player_id, token):
        logged_in(request)
        shown = services.player_to_link(player_id, token)
        if shown is None:
            raise PlayerNotFound()
        counted = services.player_link_accept(player_id=player_id, token=token, user=request.user)
        return Response(s.PlayerLinkAcceptedSerializer({**shown, "counted": counted}).data)


SEAT_SHEET = OpenApiParameter(
    "sheet", str, OpenApiParameter.PATH, pattern="^[A-Za-z0-9_-]{1,32}$", description="A sheet of your account."
)


def _own_sheet(request, sheet_id: str):
    sheet = services.owned_sheet(request.user, sheet_id)
    if sheet is None:
        raise PlayerNotFound("sheet")
    return sheet


class SeatView(APIView):
    @extend_schema(
        summary="Which seat of my sheet is mine",
        description="The seat you hold on a sheet of your account, and whether its page asks « Qui êtes-vous ? ».",
        parameters=[SEAT_SHEET],
        responses={200: s.SeatSerializer, **REFUSED, 404: scoring_s.ErrorSerializer},
    )
    def get(self, request, sheet):
        logged_in(request)
        found = _own_sheet(request, sheet)
        return Response(s.SeatSerializer({"sheet": found.pk, **services.seat_state(request.user, found)}).data)

    @extend_schema(
        summary="Answer « Qui êtes-vous ? »",
        description="`seat`: the seat that is yours (your stats count the game; a seat another account held is "
        "yours on your own sheet), or null: « aucun », you only kept score (never asked again, no seat yours). "
        "A seat past the last name: 400.",
        parameters=[SEAT_SHEET],
        request=SeatBody,
        responses={200: s.SeatSerializer, **scoring_s.BODY_REFUSED, **REFUSED},
    )
    def put(self, request, sheet):
        logged_in(request)
        found = _own_sheet(request, sheet)
        seat = parsed(SeatBody, request.data)["seat"]
        answer = services.seat_answer(user=request.user, sheet=found, seat=seat)
        return Response(s.SeatSerializer({"sheet": found.pk, **answer}).data)


PERIOD = OpenApiParameter(
    "period",
    str,
    enum=["all", "month"],
    description="`all` (the default): every finished game; `month`: the games of this calendar month.",
)
BOARD_GAME = OpenApiParameter("slug", str, OpenApiParameter.PATH, enum=list(GAMES), description="The game.")


class TableBoardView(APIView):
    @extend_schema(
        summary="« Ma table »: the leaderboard of my players in one game",
        description="The players of the account's sheets (names merged as the account says), ranked by wins "
        "then games, with their rating in the game. Filled the moment a game finishes.",
        parameters=[BOARD_GAME, PERIOD],
        responses={200: s.BoardSerializer, 400: scoring_s.ErrorSerializer, **REFUSED, 404: scoring_s.ErrorSerializer},
    )
    def get(self, request, slug):
        logged_in(request)
        if slug not in GAMES:
            raise UnknownGame(slug)
        period = request.query_params.get("period", "all")
        if period not in ("all", "month"):
            raise InvalidInput.one("period", "invalid_period", _("period: all (the default) or month."))
        rows = services.table_board(request.user, slug, month=period == "month")
        board = {"game": slug, "period": period, "rows": [{"rank": rank, **row} for rank, row in enumerate(rows, 1)]}
        return Response(s.BoardSerializer(board, context={"request": request}).data)
