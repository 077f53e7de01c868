"""« Mes joueurs » in the API: `GET /api/v1/players/` and `GET /api/v1/players/{id}/`, the logged-in account's own.

Views that parse, check the account, call accounts.services and shape the answer;
refusals are raised and the API's one exception handler answers them.
"""

import math
import re

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring.api.serializers as scoring_s
from accounts import serializers as s
from accounts import services
from numapp.i18n import request_lang
from scoring.exceptions import InvalidInput

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


def player_summary(request, player: dict) -> dict:
    """Return one of « Mes joueurs » as the list shows it."""
    return {
        "id": player["id"],
        "name": player["name"],
        "names": player["names"],
        "games": player["games"],
        "wins": player["wins"],
        "linked": player["linked"],
        "per_game": [
            {"game": g["slug"], "games": g["games"], "wins": g["wins"], "rating": g["rating"]}
            for g in player["per_game"]
        ],
        "url": request.build_absolute_uri(reverse("api-player", args=[player["id"]])),
    }


def results_page(request) -> int:
    """Return the page of results asked for (`?page=`, 1 by default); InvalidInput if it is not a whole number from 1."""
    raw = request.query_params.get("page", "1")
    if not re.fullmatch(r"[1-9][0-9]{0,8}", raw):
        raise InvalidInput.one("page", "invalid_page", _("The page is a whole number from 1."))
    return int(raw)


def player_detail(player: dict) -> dict:
    """Return one of « Mes joueurs » with every figure of its page (the results of one page of them)."""
    per_game = [
        {
            "game": g["slug"],
            "name": g["name"],
            "session": g["session"],
            "games": g["games"],
            "wins": g["wins"],
            "win_rate": g["win_rate"],
            "average": g["average"],
            "best": g["best"],
            "records": g["records"],
            "results": [{"played_at": when, "total": total, "winner": won} for when, total, won in g["results"]],
            "results_count": g["results_count"],
            "rating": g["rating"],
        }
        for g in player["per_game"]
    ]
    return {
        "id": player["id"],
        "name": player["name"],
        "names": player["names"],
        "games": sum(g["games"] for g in per_game),
        "wins": sum(g["wins"] for g in per_game),
        "linked": player["link"]["linked"],
        "per_game": per_game,
        "versus": [
            {k: v[k] for k in ("player_id", "name", "games", "ahead", "behind", "level", "wins", "their_wins")}
            for v in player["versus"]
        ],
    }


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
        return Response([player_summary(request, p) for p in services.table_players(request.user)])


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
        answer = player_detail(player)
        pages = max([math.ceil(g["results_count"] / RESULTS_PAGE) for g in answer["per_game"]] + [1])
        url = request.build_absolute_uri(reverse("api-player", args=[player_id]))
        answer.update(
            page=page,
            pages=pages,
            next=f"{url}?page={page + 1}" if page < pages else None,
            previous=f"{url}?page={min(page - 1, pages)}" if page > 1 else None,
        )
        return Response(answer)
