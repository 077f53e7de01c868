"""System checks of a deployment (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def live_table_reaches_every_process(app_configs, **kwargs):
    """Without Redis, what one web process announces reaches only the phones listening to that process."""
    if getattr(settings, "LIVE_REDIS_URL", ""):
        return []
    return [
        Warning(
            "REDIS_URL is not set: a round saved through one web process is announced only to the phones whose "
            "stream that process holds; phones on another process or machine stay on the old state.",
            hint="Set REDIS_URL (docs/deployment.md), or run a single web process (WEB_CONCURRENCY=1) on one machine.",
            id="scoring.W001",
        )
    ]
