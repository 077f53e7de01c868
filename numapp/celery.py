"""The Celery application: configured from Django settings under the CELERY_ namespace."""

import os

from celery import Celery
from django.core.signals import setting_changed

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")

app = Celery("numapp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def follow_setting(*, setting, value, **kwargs):
    """Apply a changed CELERY_* setting (override_settings, pytest's settings) to the app.

    Celery reads the settings once; without this, a test that points the broker at its
    own Redis would still publish to the configured one.
    """
    if not setting.startswith("CELERY_"):
        return
    app.conf[setting.removeprefix("CELERY_").lower()] = value
    if setting.startswith("CELERY_BROKER_"):
        # The pooled broker connections lead to the old address: drop them, as Celery
        # does itself in a forked child.
        app._after_fork()


setting_changed.connect(follow_setting, dispatch_uid="numapp.celery.follow_setting")
