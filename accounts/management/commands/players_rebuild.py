"""Recognise « Mes joueurs » on every owned sheet and recompute every table's ratings (after an upgrade, or to check)."""

from django.core.management.base import BaseCommand

from accounts import services


class Command(BaseCommand):
    help = "Recognise the players of every account's sheets and recompute their ratings from the history."

    def handle(self, *args, **options):
        accounts = services.players_rebuild()
        self.stdout.write(f"{accounts} accounts rebuilt.")
