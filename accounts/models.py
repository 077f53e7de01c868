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
