"""« Mes joueurs » in the API: `GET /api/v1/players/` and `GET /api/v1/players/{id}/`, the logged-in account's own.

Views that parse, check the account, call accounts.services and shape the answer;
refusals are raised and the API's one exception handler answers them.
"""

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import serializers as s
from accounts import services
from numapp.i18n import request_lang

REFUSED = {
    403: OpenApiResponse(description="Not logged in: the players are an account's own."),
}


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


def player_detail(player: dict) -> dict:
    """Return one of « Mes joueurs » with every figure of its page."""
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
        "the table's rating (OpenSkill); head to head against every other player of the table.",
        responses={
            200: s.PlayerDetailSerializer,
            **REFUSED,
            404: OpenApiResponse(description="Not a player of yours."),
        },
    )
    def get(self, request, player_id):
        logged_in(request)
        return Response(player_detail(services.table_player(request.user, player_id, request_lang())))
