"""Schemathesis over our own OpenAPI schema: the schema says what the server accepts, and the server answers as documented.

Every check schemathesis has is on (no server error, status codes, content types, headers
and bodies as documented, undeclared methods answered 405, data the schema refuses is
refused, data the schema accepts is accepted), once per operation and in a stateful run
that creates sheets and follows the schema's links to every operation on a sheet, with
its id, its edit token and its ETag.

Two allowances, said once: a request the schema accepts may break a rule of the game that
JSON Schema cannot state (each player has an entry, a card held once, a bid within the
cards dealt…): the server then answers 400 with codes from `shapes.GAME_RULES` only, any
other code (an unknown field, an option or a value the schema allows) fails. And the round
in progress is emptied by DELETE, not removed: it is still there to read.

The same examples on every `make test` run (the "numapp" Hypothesis profile,
tests/conftest.py); `make fuzz` runs FUZZ_EXAMPLES new ones per operation (tests/fuzzing.py).
"""

import collections
import itertools

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance, use_after_free
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation

from numapp.wsgi import application
from scoring import services
from scoring.api.shapes import GAME_RULES
from scoring.games import GAMES
from scoring.models import Sheet
from tests.fuzzing import FUZZ, examples

# A body over 64 KiB is refused before it is read: 413 rejects invalid data as 400 does. A write whose
# If-Match names another version is refused (412) before its body is read: nothing stored either.
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {
                "expected-statuses": [400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 422, 428, 429]
            }
        }
    }
)
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application, config=CONFIG)
# The test client does not undo gzip: ask for plain bodies.
PLAIN = {"Accept-Encoding": "identity"}
SHEET_OPERATIONS = sorted(op.ok().label for op in schema.get_all_operations() if "{sheet_id}" in op.ok().path)


def refused_by_a_game_rule(response) -> bool:
    """Tell whether a 400 names only rules of the game the schema cannot state (scoring/api/shapes.py)."""
    try:
        errors = response.json().get("errors") or []
    except ValueError:
        return False
    return bool(errors) and all(error.get("code") in GAME_RULES and _rule_applies(error) for error in errors)


def _rule_applies(error) -> bool:
    # OpenAPI 3.0 cannot constrain an object's keys: a NUL is refused in a key of entries or teams only.
    path = error.get("path", "")
    return error["code"] != "invalid_character" or "entries." in path or "teams." in path


def schema_valid_data_accepted(ctx, response, case):
    """Schemathesis's positive_data_acceptance, except for a refusal that names only rules of the game."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except AssertionError:
        if response.status_code in (400, 412, 413, 422) and refused_by_a_game_rule(response):
            return None
        raise


def deleted_resource_gone(ctx, response, case):
    """Schemathesis's use_after_free, except for the round in progress: DELETE empties it, it stays (docs/api.md)."""
    if case.operation.path.endswith("/draft/"):
        return None
    return use_after_free(ctx, response, case)


CHECKS = {
    "excluded_checks": [positive_data_acceptance, use_after_free],
    "additional_checks": [schema_valid_data_accepted, deleted_resource_gone],
}


@pytest.fixture(autouse=True)
def _no_throttle(monkeypatch):
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"score": None, "sheet_create": None, "round_write": None}
    )


def made_sheets():
    """Return one sheet per game with its example game played, and a turn counter that picks one."""
    made = []
    for slug, game in GAMES.items():
        example = game.api_example
        created = services.sheet_create(game=slug, players=example["players"], options=example["options"])
        for data in example["rounds"]:
            services.round_add(sheet=created.sheet, data=data)
        made.append(created)
    return made, itertools.count()


@pytest.fixture
def sheets(transactional_db):
    return made_sheets()


def pin(case, sheets) -> None:
    """Send a case for one sheet to a real sheet, with its edit token, one of its players and rounds.

    A case whose path is the invalid part (a case made to be refused) is sent as drawn.
    """
    if "sheet_id" not in (case.path_parameters or {}):
        return
    path = case.meta.components.get(ParameterLocation.PATH) if case.meta else None
    if path is not None and path.mode.is_negative:
        return
    made, turns = sheets
    turn = next(turns)
    created = made[turn % len(made)]
    sheet = created.sheet
    case.path_parameters["sheet_id"] = sheet.pk
    case.headers = {**(case.headers or {}), "X-Edit-Token": created.edit_token}
    if "player" in case.path_parameters:
        case.path_parameters["player"] = sheet.players[turn % len(sheet.players)]
    if "number" in case.path_parameters:
        case.path_parameters["number"] = 1  # the example's first round


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(max_examples=examples(5), suppress_health_check=list(HealthCheck))
def test_it_answers_as_documented(case, sheets):
    pin(case, sheets)
    case.call_and_validate(headers=PLAIN, **CHECKS)


class SheetStates(schema.include(path_regex="^/api/v1/sheets/").as_state_machine()):
    """Create sheets and follow the schema's links to their operations; count what each operation answered."""

    answers = collections.Counter()
    sheets = None  # the test's own sheets, for the steps that draw a sheet's id instead of following a link

    def setup(self):
        # Every scenario starts from the same sheets and the same turn: Hypothesis replays a scenario's
        # first steps and must get the same answers (a sheet an earlier scenario changed answers otherwise).
        SheetStates.sheets = made_sheets()

    def before_call(self, case):
        if not Sheet.objects.filter(pk=(case.path_parameters or {}).get("sheet_id")).exists():
            pin(case, SheetStates.sheets)

    def get_call_kwargs(self, case):
        return {"headers": PLAIN}

    def after_call(self, response, case):
        super().after_call(response, case)
        SheetStates.answers[case.operation.label, response.status_code] += 1

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        case.validate_response(response, recorder=self.recorder, headers=PLAIN, **CHECKS)


@pytest.mark.django_db(transaction=True)
def test_every_sheet_operation_is_reached_with_a_real_sheet(sheets):
    SheetStates.answers.clear()
    SheetStates.sheets = sheets
    SheetStates.run(
        settings=settings(
            max_examples=examples(25), stateful_step_count=8, suppress_health_check=list(HealthCheck), deadline=None
        )
    )
    reached = {label for (label, code) in SheetStates.answers if code != 404}
    # Replacing or removing a round needs a round the run saved or a pinned sheet's, and a trick of the
    # hand a Num King round whose bids are all in; the stateless test sends them to the pinned sheets
    # (`pin`), this run does not always draw them.
    unreached = {label for label in SHEET_OPERATIONS if label not in reached}
    may_be_missed = {
        "PUT /api/v1/sheets/{sheet_id}/rounds/{number}/",
        "DELETE /api/v1/sheets/{sheet_id}/rounds/{number}/",
        "PUT /api/v1/sheets/{sheet_id}/draft/tricks/{n}/",
    }
    assert unreached <= may_be_missed, sorted(SheetStates.answers.items())
    assert len(SHEET_OPERATIONS) == 10


@pytest.mark.skipif(FUZZ, reason="make fuzz draws new examples on purpose")
def test_it_draws_the_same_examples_on_every_run():
    from hypothesis.configuration import storage_directory

    current = settings()
    assert current.derandomize is True and current.database is None
    # Nothing Hypothesis writes lands in the working tree: var/ is ignored by git.
    assert storage_directory(intent_to_write=False).path.parts[-2:] == ("var", "hypothesis")
