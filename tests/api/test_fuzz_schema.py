"""Schemathesis over our own OpenAPI schema: no server error, answers as documented."""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from numapp.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


@pytest.fixture(autouse=True)
def _no_throttle(monkeypatch):
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"score": None, "sheet_create": None, "round_write": None}
    )


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_it_answers_as_documented(case):
    # The test client does not undo gzip: ask for plain bodies. A request can match the
    # schema's shapes and still break a game's rules (a joker in Num Win): positive
    # data is not always acceptable, so that one check is left out.
    case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance])
