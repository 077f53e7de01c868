"""A URLconf with a view that fails, for the tests of what a 500 leaves in the logs."""

from django.urls import path


class ScoresTableOnFire(RuntimeError):
    pass


def fail(request):
    raise ScoresTableOnFire("the scores table caught fire")


urlpatterns = [path("fail/", fail)]
