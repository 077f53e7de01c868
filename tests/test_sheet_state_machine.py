"""Random add / edit / undo sequences against a plain model of a sheet; totals after every step."""

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from scoring import services
from scoring.models import Player, Round
from tests.fuzzing import examples

PLAYERS = ["Elya", "Sasha", "Mendy"]
FIXED_ROUNDS = 5
points = st.lists(st.integers(min_value=0, max_value=25), min_size=3, max_size=3)


def round_of(values):
    return {"entries": {name: {"points": v} for name, v in zip(PLAYERS, values)}}


class SheetMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.sheet = services.sheet_create(
            game="numx-malus", players=PLAYERS, options={"end": "fixed"}, owner_key="machine"
        ).sheet
        self.model: list[list[int]] = []

    @precondition(lambda self: len(self.model) < FIXED_ROUNDS)
    @rule(values=points)
    def add(self, values):
        services.round_add(sheet=self.sheet, data=round_of(values))
        self.model.append(values)

    @precondition(lambda self: len(self.model) == FIXED_ROUNDS)
    @rule(values=points)
    def add_after_the_end_is_refused(self, values):
        with pytest.raises(services.InvalidInput):
            services.round_add(sheet=self.sheet, data=round_of(values))

    @precondition(lambda self: self.model)
    @rule(data=st.data(), values=points)
    def edit(self, data, values):
        number = data.draw(st.integers(min_value=1, max_value=len(self.model)))
        services.round_edit(sheet=self.sheet, number=number, data=round_of(values))
        self.model[number - 1] = values

    @precondition(lambda self: self.model)
    @rule()
    def undo(self):
        services.round_delete(sheet=self.sheet, number=len(self.model))
        self.model.pop()

    @rule()
    def stale_write_is_refused(self):
        self.sheet.refresh_from_db()
        with pytest.raises(services.VersionMismatch):
            services.round_edit(sheet=self.sheet, number=1, data=round_of([0, 0, 0]), if_version=self.sheet.version - 1)

    @invariant()
    def totals_match_the_model(self):
        expected = {name: sum(r[i] for r in self.model) for i, name in enumerate(PLAYERS)}
        stored = dict(Player.objects.filter(sheet=self.sheet).values_list("name", "total"))
        assert stored == expected
        self.sheet.refresh_from_db()  # results are kept by version: read the sheet as a request would
        result = services.sheet_state(self.sheet, "fr")[0]
        assert result["totals"] == expected
        assert result["finished"] == (len(self.model) == FIXED_ROUNDS)
        assert [r.number for r in Round.objects.filter(sheet=self.sheet)] == list(range(1, len(self.model) + 1))


SheetMachine.TestCase.settings = settings(
    max_examples=examples(25), stateful_step_count=12, deadline=None, suppress_health_check=list(HealthCheck)
)
test_sheet_machine = pytest.mark.django_db(SheetMachine.TestCase)
