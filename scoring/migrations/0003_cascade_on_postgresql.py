"""On PostgreSQL, let the database delete a sheet's rows with it (ON DELETE CASCADE).

The purge deletes sheets by the thousand; checking three deferred foreign keys per
deleted sheet at commit, then deleting the children in separate statements, cost more
than the deletes themselves (docs/performance.md, "Purge"). Django still deletes
children itself on `Model.delete()`; this only changes what the raw purge needs.
If a later migration alters one of these foreign keys, it must apply this again.
"""

from django.db import migrations

CHILDREN = ("scoring_round", "scoring_player", "scoring_idempotentrequest")


def foreign_keys(cursor, table):
    cursor.execute(
        "SELECT conname FROM pg_constraint WHERE contype = 'f' "
        "AND conrelid = %s::regclass AND confrelid = 'scoring_sheet'::regclass",
        [table],
    )
    return [row[0] for row in cursor.fetchall()]


def set_cascade(apps, schema_editor, cascade=True):
    if schema_editor.connection.vendor != "postgresql":
        return
    action = "ON DELETE CASCADE" if cascade else ""
    with schema_editor.connection.cursor() as cursor:
        for table in CHILDREN:
            for name in foreign_keys(cursor, table):
                cursor.execute(
                    f'ALTER TABLE {table} DROP CONSTRAINT "{name}", ADD CONSTRAINT "{name}" '
                    f"FOREIGN KEY (sheet_id) REFERENCES scoring_sheet (id) {action} DEFERRABLE INITIALLY DEFERRED"
                )


def unset_cascade(apps, schema_editor):
    set_cascade(apps, schema_editor, cascade=False)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0002_idempotent_request")]
    operations = [migrations.RunPython(set_cascade, unset_cascade)]
