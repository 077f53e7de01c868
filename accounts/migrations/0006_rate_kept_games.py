"""The ratings of the games kept before « Mes joueurs »: each account's finished sheets of each game, in the order played.

The same computation as accounts.services.ratings_recount (a finished game that comes
later is then rated onto these ratings, which is exact only if they hold the whole
history before it).
"""

from django.db import migrations
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

from accounts.players import replay
from scoring.games import GAMES


def rate(apps, schema_editor):
    Sheet = apps.get_model("scoring", "Sheet")
    Seat = apps.get_model("scoring", "Player")
    Round = apps.get_model("scoring", "Round")
    TableName = apps.get_model("accounts", "TableName")
    Rating = apps.get_model("accounts", "Rating")
    rated = [slug for slug, engine in GAMES.items() if engine.rated]
    last_round = Round.objects.filter(sheet=OuterRef("pk")).order_by("-number").values("created_at")[:1]
    pairs = (
        Sheet.objects.filter(user__isnull=False, finished=True, deleted_at__isnull=True, game__in=rated)
        .order_by()
        .values_list("user_id", "game")
        .distinct()
    )
    for owner_id, game in list(pairs):
        engine = GAMES[game]
        finished = Sheet.objects.filter(user_id=owner_id, game=game, finished=True, deleted_at__isnull=True)
        order = list(
            finished.annotate(played=Coalesce(Subquery(last_round), "created_at"))
            .order_by("played", "created_at", "pk")
            .values_list("pk", "options")
        )
        by_sheet = {}
        for sheet_id, name, total, winner in Seat.objects.filter(sheet__in=finished).values_list(
            "sheet_id", "name", "total", "winner"
        ):
            by_sheet.setdefault(sheet_id, []).append((name, total, winner))
        player_of = dict(TableName.objects.filter(owner_id=owner_id).values_list("name", "player_id"))
        history = []
        for sheet_id, options in order:
            seen, sides = set(), []
            for members, place in engine.ranked_sides(options, by_sheet.get(sheet_id, [])):
                ids = [player_of[m] for m in members if m in player_of and player_of[m] not in seen]
                seen.update(ids)
                sides.append((ids, place))
            history.append(sides)
        Rating.objects.filter(player__owner_id=owner_id, game=game).delete()
        Rating.objects.bulk_create(
            Rating(player_id=pid, game=game, mu=mu, sigma=sigma, games=n) for pid, (mu, sigma, n) in replay(history).items()
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_player_link"),
        ("scoring", "0008_sheet_links_epoch"),
    ]

    operations = [migrations.RunPython(rate, migrations.RunPython.noop)]
