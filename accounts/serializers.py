"""The answers of « Mes joueurs » in the API, each described once: the serializer that renders it
(accounts/api.py, from what accounts.services gives) is the one the OpenAPI schema documents."""

from rest_framework import serializers

from scoring.games import GAMES
from web.fields import Moment, URLLink


class PlayerRatingSerializer(serializers.Serializer):
    mu = serializers.FloatField(help_text="OpenSkill (Plackett-Luce) mean: the level the table's games show.")
    sigma = serializers.FloatField(help_text="Its uncertainty: wide with few games, narrower as games are played.")
    games = serializers.IntegerField(help_text="Finished games the rating counts.")
    text = serializers.CharField(help_text="As the pages show it: « 27 ± 6 » (mu ± sigma, rounded).")


class PlayerGameSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES), source="slug", help_text="The game's slug.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    rating = PlayerRatingSerializer(allow_null=True, help_text="null for a game without ratings (a session).")


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The name as the account shows it (a rename changes only this).")
    names = serializers.ListField(
        child=serializers.CharField(), help_text="The names typed on the sheets that are this player."
    )
    games = serializers.IntegerField(help_text="Finished games counted for this player, every game together.")
    wins = serializers.IntegerField()
    linked = serializers.BooleanField(
        help_text="The person accepted the account's link: their games here count in their own account's stats."
    )
    per_game = PlayerGameSerializer(many=True, help_text="In the catalogue's order, the games this player played.")
    url = URLLink("api-player", source="id", help_text="This player in the API.")


class PlayerRecordSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The engine's record (`xtrem`, `longest_streak`, `exact_bids`…).")
    label = serializers.CharField(help_text="Its name in the request's language.")
    value = serializers.IntegerField()
    of = serializers.IntegerField(allow_null=True, help_text="Out of how many, when the record is a count of tries.")


class PlayerResultSerializer(serializers.Serializer):
    played_at = Moment(help_text="When the game was played (its last round).")
    total = serializers.IntegerField()
    winner = serializers.BooleanField()

    def to_representation(self, result):
        played_at, total, winner = result  # as accounts.services gives it
        return super().to_representation({"played_at": played_at, "total": total, "winner": winner})


class PlayerGameDetailSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES), source="slug")
    name = serializers.CharField(help_text="The game's name in the request's language.")
    session = serializers.BooleanField(help_text="A session counts its own games (no totals, no average).")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="Per cent.")
    average = serializers.FloatField(allow_null=True)
    best = serializers.IntegerField(allow_null=True, help_text="Highest total, or lowest where the lowest wins.")
    records = PlayerRecordSerializer(many=True)
    results = PlayerResultSerializer(
        many=True, help_text="This page's finished games, in the order played (100 a page, from the first played)."
    )
    results_count = serializers.IntegerField(help_text="Every finished game of this game, on all pages.")
    rating = PlayerRatingSerializer(allow_null=True)


class PlayerVersusSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Finished games both played.")
    ahead = serializers.IntegerField(help_text="Games this player finished above the other.")
    behind = serializers.IntegerField()
    level = serializers.IntegerField(help_text="Games they finished level.")
    wins = serializers.IntegerField(help_text="Of these games, the ones this player won.")
    their_wins = serializers.IntegerField(help_text="Of these games, the ones the other won.")


class PlayerDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    names = serializers.ListField(child=serializers.CharField())
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    linked = serializers.BooleanField(
        source="link.linked",
        help_text="The person accepted the account's link: their games here count in their own account's stats.",
    )
    per_game = PlayerGameDetailSerializer(many=True)
    versus = PlayerVersusSerializer(many=True, help_text="Head to head, most games together first.")
    page = serializers.IntegerField(help_text="The page of results this answer holds (`?page=`, 1 by default).")
    pages = serializers.IntegerField(help_text="How many pages the game with the most results fills (at least 1).")
    next = serializers.URLField(allow_null=True, help_text="The next page of results; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The page before; null on the first.")

    def to_representation(self, player):
        games = sum(g["games"] for g in player["per_game"])
        return super().to_representation({**player, "games": games, "wins": sum(g["wins"] for g in player["per_game"])})


class PlayerLinkSerializer(serializers.Serializer):
    url = serializers.URLField(help_text="The page to send to the person: they open it, log in and accept.")
    api_url = serializers.URLField(help_text="The same link in the API: GET says what it is, POST accepts it.")
    expires_at = Moment(help_text="The link works once, until then (30 days).")


class PlayerLinkShownSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's id at the other account's table.")
    name = serializers.CharField(help_text="The player's name as that table shows it.")
    table = serializers.CharField(help_text='The name the table\'s owner plays under, or "" if they chose none.')


class PlayerLinkAcceptedSerializer(PlayerLinkShownSerializer):
    counted = serializers.IntegerField(help_text="The games of that table that now count in your stats.")


class SeatSerializer(serializers.Serializer):
    sheet = serializers.CharField(help_text="The sheet's id.")
    players = serializers.ListField(child=serializers.CharField(), help_text="The sheet's names, seat 0 first.")
    seat = serializers.IntegerField(allow_null=True, help_text="The seat that is yours (0 is the first), or null.")
    none = serializers.BooleanField(help_text="You answered « aucun »: a game you only kept score of.")
    asked = serializers.BooleanField(
        help_text="The sheet's page asks you « Qui êtes-vous ? »: finished, no seat yours, not answered."
    )


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 for the first row; rows are ranked by wins, then games.")
    id = serializers.IntegerField(allow_null=True, help_text="The player's id (« Mes joueurs »).")
    name = serializers.CharField(help_text="The name as the account shows it.")
    games = serializers.IntegerField(help_text="Finished games of this game in the period.")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="Per cent.")
    best = serializers.IntegerField(
        allow_null=True, help_text="Highest total, or lowest where the lowest wins; null for a session."
    )
    rating = PlayerRatingSerializer(allow_null=True, help_text="The table's rating in this game (all time).")
    url = URLLink("api-player", source="id", allow_null=True, help_text="This player in the API.")


class BoardSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES))
    period = serializers.ChoiceField(choices=["all", "month"])
    rows = BoardRowSerializer(many=True, help_text="At most the board's size, best first.")
