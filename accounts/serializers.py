"""The shapes of « Mes joueurs » in the API, for the OpenAPI schema (accounts/api.py builds them)."""

from rest_framework import serializers

from scoring.games import GAMES


class PlayerRatingSerializer(serializers.Serializer):
    mu = serializers.FloatField(help_text="OpenSkill (Plackett-Luce) mean: the level the table's games show.")
    sigma = serializers.FloatField(help_text="Its uncertainty: wide with few games, narrower as games are played.")
    games = serializers.IntegerField(help_text="Finished games the rating counts.")
    text = serializers.CharField(help_text="As the pages show it: « 27 ± 6 » (mu ± sigma, rounded).")


class PlayerGameSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES), help_text="The game's slug.")
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
    url = serializers.URLField(help_text="This player in the API.")


class PlayerRecordSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The engine's record (`xtrem`, `longest_streak`, `exact_bids`…).")
    label = serializers.CharField(help_text="Its name in the request's language.")
    value = serializers.IntegerField()
    of = serializers.IntegerField(allow_null=True, help_text="Out of how many, when the record is a count of tries.")


class PlayerResultSerializer(serializers.Serializer):
    played_at = serializers.DateTimeField(help_text="When the game was played (its last round).")
    total = serializers.IntegerField()
    winner = serializers.BooleanField()


class PlayerGameDetailSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES))
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
        help_text="The person accepted the account's link: their games here count in their own account's stats."
    )
    per_game = PlayerGameDetailSerializer(many=True)
    versus = PlayerVersusSerializer(many=True, help_text="Head to head, most games together first.")
    page = serializers.IntegerField(help_text="The page of results this answer holds (`?page=`, 1 by default).")
    pages = serializers.IntegerField(help_text="How many pages the game with the most results fills (at least 1).")
    next = serializers.URLField(allow_null=True, help_text="The next page of results; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The page before; null on the first.")
