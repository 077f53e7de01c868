"""Health of the parts the app needs: the database and the Celery broker."""

from django.db import connection


def check() -> dict:
    """Return {"ok", "database", "broker"}: each part "ok" or what failed."""
    report = {"database": "ok", "broker": "ok"}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any failure is the report, not a crash
        report["database"] = f"error: {exc.__class__.__name__}"
    try:
        from numapp.celery import app

        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=1)
    except Exception as exc:
        report["broker"] = f"error: {exc.__class__.__name__}"
    report["ok"] = report["database"] == "ok" and report["broker"] == "ok"
    return report
