"""Schemathesis over our own OpenAPI schema: no server error, answers as documented.

The same examples on every `make test` run (the "numapp" Hypothesis profile, tests/conftest.py);
`make fuzz` runs FUZZ_EXAMPLES new ones per operation (tests/fuzzing.py).
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from numapp.wsgi import application
from tests.fuzzing import FUZZ, examples

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


@pytest.fixture(autouse=True)
def _no_throttle(monkeypatch):
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"score": None, "sheet_create": None, "round_write": None}
    )


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(max_examples=examples(40), suppress_health_check=list(HealthCheck))
def test_it_answers_as_documented(case):
    # The test client does not undo gzip: ask for plain bodies. A request can match the
    # schema's shapes and still break a game's rules (a joker in Num Win): positive
    # data is not always acceptable, so that one check is left out.
    case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance])


@pytest.mark.skipif(FUZZ, reason="make fuzz draws new examples on purpose")
def test_it_draws_the_same_examples_on_every_run():
    from hypothesis.configuration import storage_directory

    current = settings()
    assert current.derandomize is True and current.database is None
    # Nothing Hypothesis writes lands in the working tree: var/ is ignored by git.
    assert storage_directory(intent_to_write=False).path.parts[-2:] == ("var", "hypothesis")
