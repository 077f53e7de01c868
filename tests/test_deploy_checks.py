"""`manage.py check --deploy` says what a deployment lacks for the live table."""

from django.core.checks import run_checks


def deploy_warnings() -> list[str]:
    return [m.id for m in run_checks(include_deployment_checks=True) if m.id.startswith("scoring.")]


def test_without_redis_the_deployment_check_warns_that_announcements_stay_in_one_process(settings):
    settings.LIVE_REDIS_URL = ""
    assert deploy_warnings() == ["scoring.W001"]
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:6379/0"
    assert deploy_warnings() == []
