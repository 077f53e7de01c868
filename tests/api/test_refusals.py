"""A service's refusal becomes the API's error in one place: scoring/api/errors.py."""

import ast
from pathlib import Path

import pytest
from django.utils import translation

from scoring import exceptions
from scoring.api.errors import exception_handler

ROOT = Path(__file__).resolve().parent.parent.parent

REFUSALS = [
    (exceptions.InvalidInput.one("players[0]", "player_name_long", "Trop long."), 400, "player_name_long"),
    (exceptions.UnknownGame("poker"), 404, "unknown_game"),
    (exceptions.VersionMismatch(7), 412, "stale"),
    (exceptions.RoundNotFound(), 404, "not_found"),
    (exceptions.SheetGone(), 404, "not_found"),
    (exceptions.NoReferee(), 404, "not_found"),
    (exceptions.PlayerNotFound(), 404, "not_found"),
    (exceptions.Conflict(), 409, "conflict"),
    (exceptions.DraftMoved(3), 409, "round_saved"),
    (exceptions.IdempotencyMismatch(), 422, "idempotency_mismatch"),
    (exceptions.RestoreRefused(2), 409, "restore_refused"),
    (exceptions.SeatTaken(), 409, "seat_taken"),
    (exceptions.CsrfRefused(), 403, "csrf"),
    (exceptions.PreconditionRequired(), 428, "if_match_required"),
]


def test_it_lists_every_refusal_the_services_raise():
    declared = {cls for cls in vars(exceptions).values() if isinstance(cls, type) and issubclass(cls, Exception)}
    # ServiceError and NotFound are the bases the refusals share; the services raise their subclasses.
    assert {type(exc) for exc, _status, _code in REFUSALS} == declared - {exceptions.ServiceError, exceptions.NotFound}


@pytest.mark.parametrize(
    "exc, status, code", REFUSALS, ids=lambda v: type(v).__name__ if isinstance(v, Exception) else ""
)
def test_it_answers_each_refusal_with_its_status_and_code_in_the_one_error_shape(exc, status, code):
    with translation.override("fr"):
        response = exception_handler(exc, {})
    assert response.status_code == status
    assert set(response.data) == {"detail", "errors"}
    [error] = response.data["errors"]
    assert set(error) == {"path", "code", "message"}
    assert error["code"] == code and error["message"] == response.data["detail"]


def test_it_names_the_current_version_of_a_sheet_that_moved_on():
    response = exception_handler(exceptions.VersionMismatch(7), {})
    assert response["ETag"] == '"7"'
    assert response.data["errors"][0]["path"] == ""


def test_it_says_a_late_entry_in_the_requests_language():
    with translation.override("en"):
        en = exception_handler(exceptions.DraftMoved(3), {}).data["detail"]
    with translation.override("fr"):
        fr = exception_handler(exceptions.DraftMoved(3), {}).data["detail"]
    assert en.startswith("Round 2 was saved") and "round 3" in en
    assert fr.startswith("La manche 2 a été enregistrée") and fr != en


def test_the_api_views_translate_no_exception_themselves():
    # They raise; the exception handler answers. A try/except in a view is a second mapping.
    tree = ast.parse((ROOT / "scoring/api/views.py").read_text())
    handlers = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Try)]
    assert handlers == []
