"""What an account adds to the sheets: a public name (opt-in) and leaderboard standings."""

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40, blank=True)
    # Nobody appears on the global leaderboards without choosing to.
    public = models.BooleanField(default=False)

    def __str__(self):
        return self.display_name or f"user {self.user_id}"


class Standing(models.Model):
    """One player's results in one game over one period ("all" or "YYYY-MM").

    Recounted from the seats in the same transaction as any change that affects
    them, so leaderboards read one indexed table instead of a million sheets.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standings")
    game = models.CharField(max_length=20)
    period = models.CharField(max_length=7)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    best = models.IntegerField(null=True)
    public = models.BooleanField(default=False)
    name = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game", "period"], name="unique_standing")]
        indexes = [models.Index(fields=["game", "period", "public", "-wins", "-games"], name="standing_board")]


class TablePlayer(models.Model):
    """One of « Mes joueurs »: a person of the account's table, recognised by name across its sheets.

    The people at the table need no account: the sheets name them, and the names that
    fold to the same key (case and accents ignored) are one player until the account
    holder splits them. Only the account holder sees them (the API and pages are theirs).
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_players")
    name = models.CharField(max_length=40)  # as the account shows it (a rename changes only this)
    created_at = models.DateTimeField(auto_now_add=True)
    # The account this person has, once they accepted the owner's link: the player's seats on
    # the owner's sheets count in their own stats (the sheets stay the owner's).
    linked_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="linked_players"
    )
    # The generation of the player's link (accounts/services.py player_link_token): a new link,
    # or the link accepted, moves it on and ends the previous one.
    link_epoch = models.PositiveIntegerField(default=0)
    link_made_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "name"], name="table_player_owner")]

    def __str__(self):
        return self.name


class TableName(models.Model):
    """A name as typed on the account's sheets, and the player it is: merging moves names, splitting gives one its own player."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_names")
    name = models.CharField(max_length=40)
    # The name folded (NFKD, accents dropped, casefold): a new spelling joins the player of its key.
    key = models.CharField(max_length=160)
    player = models.ForeignKey(TablePlayer, on_delete=models.CASCADE, related_name="names")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_table_name")]
        indexes = [models.Index(fields=["owner", "key"], name="table_name_key")]


class Rating(models.Model):
    """A player's rating in one game at the account's table (OpenSkill's Plackett-Luce): mu ± sigma.

    Recomputed from the account's finished sheets of the game, in the order they were
    played, whenever one of them changes (accounts/services.py ratings_recount).
    """

    player = models.ForeignKey(TablePlayer, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="unique_rating")]


class SeatAnswer(models.Model):
    """The account holder answered « Qui êtes-vous ? » on one of their finished sheets with « aucun »: never asked again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_answers")
    sheet_id = models.CharField(max_length=32)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "sheet_id"], name="unique_seat_answer")]
