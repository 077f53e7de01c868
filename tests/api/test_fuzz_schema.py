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
from hypothesis.stateful import Bundle, initialize, multiple
from schemathesis.checks import positive_data_acceptance, use_after_free
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.stateful.state_machine import StepInput
from schemathesis.python._constants.orchestrator import make_constants_value_source

from numapp.wsgi import application
from scoring import services
from scoring.api.schema import SHEET
from scoring.api.shapes import GAME_RULES
from scoring.games import GAMES
from tests.fuzzing import FUZZ, examples

# A body over 64 KiB is refused before it is read: 413 rejects invalid data as 400 does. A write whose
# If-Match names another version is refused (412) before its body is read: nothing stored either.
CONFIG_DATA = {
    "checks": {
        "negative_data_rejection": {
            "expected-statuses": [400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 422, 428, 429]
        }
    }
}
CONFIG = SchemathesisConfig.from_dict(CONFIG_DATA)
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application, config=CONFIG)
# The test client does not undo gzip: ask for plain bodies.
PLAIN = {"Accept-Encoding": "identity"}
SHEET_OPERATIONS = sorted(op.ok().label for op in schema.get_all_operations() if "{sheet_id}" in op.ok().path)


def refused_by_a_game_rule(response, body=None) -> bool:
    """Tell whether a 400 names only rules of the game the schema cannot state (scoring/api/shapes.py).

    A round given as its entry form (`{"form": …}`) holds text: what that text says (a number, the
    cards as JSON) is the engine's to read, so any refusal of such a round is one the schema cannot state.
    """
    try:
        errors = response.json().get("errors") or []
    except ValueError:
        return False
    forms = _form_paths(body)
    return bool(errors) and all(
        (error.get("code") in GAME_RULES and _rule_applies(error)) or _in_a_form(error.get("path", ""), forms)
        for error in errors
    )


def _form_paths(body) -> list[str]:
    """Return the paths of the rounds a body gives as their entry form ("" for the body itself)."""
    if not isinstance(body, dict):
        return []
    if "form" in body:
        return [""]
    rounds = body.get("rounds")
    if not isinstance(rounds, list):
        return []
    return [f"rounds[{i}]" for i, r in enumerate(rounds) if isinstance(r, dict) and set(r) == {"form"}]


def _in_a_form(path: str, forms: list[str]) -> bool:
    """Tell whether an error's path is in what a round given as its form was read into (its entries, its
    own fields), not in the form's fields themselves (text, which the schema states) nor the request's."""
    if path.startswith("form") or path in ("number", "If-Match", "Idempotency-Key"):
        return False
    return any(form == "" or path == form or path.startswith(form + ".") for form in forms)


def _rule_applies(error) -> bool:
    # OpenAPI 3.0 cannot constrain an object's keys: a NUL is refused in a key of entries, teams or a form only.
    path = error.get("path", "")
    return error["code"] != "invalid_character" or any(key in path for key in ("entries.", "teams.", "form."))


def schema_valid_data_accepted(ctx, response, case):
    """Schemathesis's positive_data_acceptance, except for a refusal that names only rules of the game."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except AssertionError:
        if response.status_code in (400, 412, 413, 422) and refused_by_a_game_rule(response, case.body):
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


@pytest.fixture
def sheets(transactional_db):
    """One sheet per game with its example game played, and a turn counter that picks one."""
    made = []
    for slug, game in GAMES.items():
        example = game.api_example
        created = services.sheet_create(game=slug, players=example["players"], options=example["options"])
        for data in example["rounds"]:
            services.round_add(sheet=created.sheet, data=data)
        made.append(created)
    return made, itertools.count()


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


# The stateful run follows the schema's own links only: links schemathesis would infer from
# the paths carry no edit token, and every step they draw is a 404.
STATEFUL = SchemathesisConfig.from_dict({**CONFIG_DATA, "phases": {"stateful": {"inference": {"algorithms": []}}}})
stateful_schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application, config=STATEFUL)


class LinksFollowed:
    """Every value a link gives is used (schemathesis otherwise drops some, to explore): a step on a sheet
    is one a client following the schema's links would send, with the sheet's id, edit token and version."""

    def is_calibrated(self, transition_id) -> bool:
        return True

    def use_probability(self, transition_id) -> float:
        return 1.0


sheets_schema = stateful_schema.include(path_regex="^/api/v1/sheets/")
Base = sheets_schema.build_state_machine(
    feedback=FeedbackSources(constants_value_source=make_constants_value_source(sheets_schema)),
    link_calibration=LinksFollowed(),
)


class SheetStates(Base):
    """Create sheets and follow the schema's links to their operations; count what each operation answered.

    Each run starts from one sheet per game made through the API as its example game
    (`api_example`: its players, its first round saved; for the game with a referee, a round
    in progress with the bids and a hand of one trick), one more whose round in progress
    holds the example's first round whole (a link saves it `from_draft`), and one on which
    each operation on a sheet is called once as its links say (`_every_operation`): random
    data cannot name a sheet's players, which a round, an entry and a trick need, and which
    link a step follows is drawn, so that a random walk reaches an operation or not as the
    draws fall. Every step after that is schemathesis's: sheets it creates, and operations
    reached through the schema's links from the answers (no sheet id is pinned). Every answer
    is checked against the schema; the test fails unless each of the 10 operations on a sheet
    answered 2xx at least once.
    """

    answers = collections.Counter()

    @initialize(target=Bundle("seed"))
    def seed(self):
        outputs = []
        for slug, game in GAMES.items():
            example = game.api_example
            body = {"game": slug, "players": example["players"], "options": example["options"]}
            played, entered = self._sheet(body), self._sheet(body)
            outputs.append(played["created"])
            self._send("POST", SHEET + "rounds/", body=example["rounds"][0], **played["on"])
            first = example["rounds"][0]
            if getattr(game, "trick_example", None):
                players = example["players"]
                seats = dict(zip(game.trick_example["players"], players, strict=False))
                plays = [{**play, "player": seats[play["player"]]} for play in game.trick_example["plays"]]
                trick = {"leader": plays[0]["player"], "plays": plays}
                bids = {"entries": {p: {"bid": 0} for p in players}, "fields": {"tricks_played": [trick]}}
                self._send("PUT", SHEET + "draft/", body=bids, **played["on"])
            # The example's first round entered whole in the round in progress of the other sheet.
            whole = {"fields": {k: v for k, v in first.items() if k != "entries"}}
            if first.get("entries"):
                whole["entries"] = first["entries"]
            self._send("PUT", SHEET + "draft/", body=whole, **entered["on"])
            self._every_operation(game, body, first)
            outputs += [self._send("GET", SHEET, **sheet["on"]) for sheet in (played, entered)]
            if getattr(game, "trick_example", None):
                outputs.append(self._send("GET", SHEET + "draft/", **played["on"]))
        return multiple(*outputs)

    def _every_operation(self, game, body, first):
        """Call each operation on a sheet once as a client following the links would, on a sheet of its own."""
        other = self._sheet(body)
        on, sheet_id = other["on"], other["on"]["path_parameters"]["sheet_id"]
        player = body["players"][0]
        self._send("POST", SHEET + "rounds/", body=first, **on)
        round_one = {"path_parameters": {"sheet_id": sheet_id, "number": 1}, "headers": on["headers"]}
        self._send("PUT", SHEET + "rounds/{number}/", body=first, **round_one)
        self._send("DELETE", SHEET + "rounds/{number}/", **round_one)
        entry = (first.get("entries") or {}).get(player)
        if entry is not None:
            at = {"path_parameters": {"sheet_id": sheet_id, "player": player}, "headers": on["headers"]}
            self._send("PUT", SHEET + "draft/entries/{player}/", body=entry, **at)
        if getattr(game, "trick_example", None):
            seats = dict(zip(game.trick_example["players"], body["players"], strict=False))
            plays = [{**play, "player": seats[play["player"]]} for play in game.trick_example["plays"]]
            (version,) = self._send("GET", SHEET, **on).response.headers["etag"]  # schemathesis: lower-case, a list
            at = {"path_parameters": {"sheet_id": sheet_id, "n": 1}, "headers": {**on["headers"], "If-Match": version}}
            self._send("PUT", SHEET + "draft/tricks/{n}/", body={"leader": plays[0]["player"], "plays": plays}, **at)
        self._send("DELETE", SHEET + "draft/", **on)
        self._send("POST", SHEET + "rematch/", **on)

    def _sheet(self, body):
        created = self._send("POST", "/api/v1/sheets/", body=body)
        sheet_id, token = created.response.json()["id"], created.response.json()["edit_token"]
        return {
            "created": created,
            "on": {"path_parameters": {"sheet_id": sheet_id}, "headers": {"X-Edit-Token": token}},
        }

    def _send(self, method, path, **parts):
        case = stateful_schema[path][method].Case(**parts)
        self.recorder.record_case(case=case)
        output = self.step(StepInput.initial(case))
        assert output.response.status_code < 300, (method, path, output.response.status_code, output.response.text)
        return output

    def get_call_kwargs(self, case):
        return {"headers": PLAIN}

    def after_call(self, response, case):
        super().after_call(response, case)
        SheetStates.answers[case.operation.label, response.status_code] += 1

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        case.validate_response(response, recorder=self.recorder, headers=PLAIN, **CHECKS)


@pytest.mark.django_db(transaction=True)
def test_every_sheet_operation_is_reached_with_a_2xx():
    SheetStates.answers.clear()
    SheetStates.run(
        settings=settings(
            max_examples=examples(15), stateful_step_count=8, suppress_health_check=list(HealthCheck), deadline=None
        )
    )
    reached = {label for (label, code) in SheetStates.answers if 200 <= code < 300}
    assert len(SHEET_OPERATIONS) == 10
    assert reached >= set(SHEET_OPERATIONS), (
        sorted(set(SHEET_OPERATIONS) - reached),
        "\n".join(f"{label} {code}: {n}" for (label, code), n in sorted(SheetStates.answers.items())),
    )


@pytest.mark.skipif(FUZZ, reason="make fuzz draws new examples on purpose")
def test_it_draws_the_same_examples_on_every_run():
    from hypothesis.configuration import storage_directory

    current = settings()
    assert current.derandomize is True and current.database is None
    # Nothing Hypothesis writes lands in the working tree: var/ is ignored by git.
    assert storage_directory(intent_to_write=False).path.parts[-2:] == ("var", "hypothesis")
