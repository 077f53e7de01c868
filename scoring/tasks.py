"""Celery tasks: thin wrappers over the model code."""

import logging

from celery import shared_task
from django.core.management import call_command

from scoring.models import Sheet

log = logging.getLogger(__name__)


@shared_task(name="scoring.tasks.purge_expired_sheets", ignore_result=True)
def purge_expired_sheets() -> int:
    """Delete anonymous sheets 48 hours after their last change, and expired sessions; return the count."""
    removed = Sheet.objects.purge_expired()
    call_command("clearsessions")
    log.info("purge: removed %d expired anonymous sheet(s)", removed)
    return removed
