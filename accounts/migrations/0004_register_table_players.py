"""The names of the sheets accounts owned before « Mes joueurs »: recognised as players (ratings: manage.py players_rebuild)."""

import unicodedata

from django.db import migrations


def fold(name):
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.casefold().split())


def register(apps, schema_editor):
    Seat = apps.get_model("scoring", "Player")
    TablePlayer = apps.get_model("accounts", "TablePlayer")
    TableName = apps.get_model("accounts", "TableName")
    known = {}  # (owner, name) -> player id
    by_key = {}  # (owner, key) -> [player ids]
    used = {}  # sheet id -> player ids
    seats = (
        Seat.objects.filter(sheet__user__isnull=False)
        .order_by("sheet__user_id", "sheet__created_at", "sheet_id", "seat")
        .values_list("sheet__user_id", "sheet_id", "name")
    )
    for owner, sheet_id, name in seats.iterator(chunk_size=2000):
        at_sheet = used.setdefault(sheet_id, set())
        if (owner, name) in known:
            at_sheet.add(known[(owner, name)])
            continue
        key = fold(name)
        pid = next((p for p in by_key.get((owner, key), []) if p not in at_sheet), None)
        if pid is None:
            pid = TablePlayer.objects.create(owner_id=owner, name=name).pk
            by_key.setdefault((owner, key), []).append(pid)
        TableName.objects.create(owner_id=owner, name=name, key=key, player_id=pid)
        known[(owner, name)] = pid
        at_sheet.add(pid)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_table_players"),
        ("scoring", "0008_sheet_links_epoch"),
    ]

    operations = [migrations.RunPython(register, migrations.RunPython.noop)]
