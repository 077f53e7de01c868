"""How the OpenAPI schema is drawn from the views: one operation per game, links between a sheet's operations.

drf-spectacular documents each view (scoring/api/views.py) with `BodySchema`; three hooks (numapp/settings.py,
SPECTACULAR_SETTINGS) finish the schema:

- `one_operation_per_game`: `/games/{slug}/score/` and `/games/{slug}/trick/` become one
  operation per game (`/games/numx/score/`…), each with its game's body (`BodySchema`, from the
  body of scoring/api/inputs.py): the players, options and entries a game takes depend on the game.
- `required_bodies`: a body with a field the server needs is marked required (a missing body lacks it).
- `sheet_links`: OpenAPI links from the answers that give a sheet (its id, its edit token,
  its ETag) to the operations on that sheet, so that a client or a test (schemathesis's
  stateful run) can follow them.
"""

from drf_spectacular.openapi import AutoSchema

from scoring.api.inputs import Envelope
from scoring.games import GAMES


class BodySchema(AutoSchema):
    """The API's schema class: a request body given as a body of scoring/api/inputs.py (`extend_schema(
    request=SheetBody)`) is documented inline by the JSON Schema drawn from its fields, for the view's
    game when it serves one (`game`, set per operation by `one_operation_per_game`), else for any game."""

    def _get_request_for_media_type(self, serializer, direction="request"):
        if isinstance(serializer, type) and issubclass(serializer, Envelope):
            game = getattr(self.view, "game", None)
            return serializer.json_schema(GAMES[game] if game else None), False
        return super()._get_request_for_media_type(serializer, direction)


class GameSchema(BodySchema):
    """The schema of a view that serves one game per operation: that game's example request only."""

    example = "api_example"

    def get_examples(self):
        body = getattr(GAMES[self.view.game], self.example)
        return [example for example in super().get_examples() if example.value == body]


class TrickSchema(GameSchema):
    example = "trick_example"


def one_operation_per_game(endpoints):
    """Replace each `{slug}` operation of a view with a `game` by one operation per game it serves."""
    out = []
    for path, regex, method, callback in endpoints:
        view = getattr(callback, "cls", None)
        if "{slug}" not in path or not hasattr(view, "games"):
            out.append((path, regex, method, callback))
            continue
        for slug in view.games():
            game_path = path.replace("{slug}", slug)
            game_regex = regex.replace("(?P<slug>[^/]+)", slug)
            out.append((game_path, game_regex, method, view.as_view(game=slug)))
    return out


SHEET = "/api/v1/sheets/{sheet_id}/"
# The operations on one sheet, and what each takes besides the sheet's id and edit token.
SHEET_OPERATIONS = {
    ("get", SHEET): {},
    ("get", SHEET + "draft/"): {},
    ("put", SHEET + "draft/"): {"header.If-Match": "$response.header.ETag"},
    ("delete", SHEET + "draft/"): {},
    ("put", SHEET + "draft/entries/{player}/"): {"player": "$response.body#/players/0"},
    ("post", SHEET + "rounds/"): {"header.If-Match": "$response.header.ETag"},
    ("post", SHEET + "rematch/"): {},
}
# A sheet's first round: replaced by itself as it was entered (`entry`), or removed.
FIRST_ROUND = "$response.body#/rounds/0"
ROUND_OPERATIONS = {
    ("put", SHEET + "rounds/{number}/"): {
        "number": FIRST_ROUND + "/number",
        "header.If-Match": "$response.header.ETag",
    },
    ("delete", SHEET + "rounds/{number}/"): {"number": FIRST_ROUND + "/number"},
}
# Bodies a link sends whole (never mixed with generated fields): the round in progress saved as it
# stands, a round replaced by itself as it was entered.
SHEET_BODIES = {("post", SHEET + "rounds/"): {"from_draft": True}}
ROUND_BODIES = {("put", SHEET + "rounds/{number}/"): FIRST_ROUND + "/entry"}
# The hand's first trick in the round in progress, stored again as it was (a correction), whole.
FIRST_TRICK = "$response.body#/fields/tricks_played/0"
DRAFT_OPERATIONS = {
    ("put", SHEET + "draft/"): {"header.If-Match": "$response.header.ETag"},
    ("put", SHEET + "draft/tricks/{n}/"): {"n": 1, "header.If-Match": "$response.header.ETag"},
    ("post", SHEET + "rounds/"): {"header.If-Match": "$response.header.ETag"},
}
DRAFT_BODIES = {
    ("put", SHEET + "draft/"): {
        "entries": "$response.body#/entries",
        "fields": "$response.body#/fields",
        "number": "$response.body#/number",
    },
    ("put", SHEET + "draft/tricks/{n}/"): {
        "leader": FIRST_TRICK + "/leader",
        "plays": FIRST_TRICK + "/plays",
        "number": "$response.body#/number",
    },
}


def _links(paths, targets, *, sheet: str, token: str, bodies=None, whole=None) -> dict:
    links = {}
    for (method, path), extra in targets.items():
        operation = paths.get(path, {}).get(method)
        if operation is None:
            continue
        parameters = {"sheet_id": sheet, "header.X-Edit-Token": token, **extra}
        link = {"operationId": operation["operationId"], "parameters": parameters}
        body = {**(whole or {}), **(bodies or {})}.get((method, path))
        if body is not None:
            link["requestBody"] = body
        if whole and (method, path) in whole:
            link["x-schemathesis"] = {"merge_body": False}
        links[operation["operationId"]] = link
    return links


def _required(schema: dict) -> bool:
    """Tell whether a body schema needs some field (then a missing body is refused too)."""
    branches = schema.get("oneOf") or schema.get("anyOf")
    return all(_required(b) for b in branches) if branches else bool(schema.get("required"))


def required_bodies(result, generator, request, public):
    """Mark as required the request bodies the server refuses when missing (an empty body lacks their fields)."""
    for operations in result["paths"].values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body and _required(body["content"]["application/json"]["schema"]):
                body["required"] = True
    return result


def sheet_links(result, generator, request, public):
    """Link the answers that give a sheet to its operations: its id, edit token, ETag, players, rounds, tricks.

    A created sheet (or its rematch) links with the id and token of its body; a read sheet,
    a saved round and a replaced or removed one with those of the request, and to the sheet's
    first round (replaced by itself as entered, or removed). Saving a round links with
    `{"from_draft": true}`: the round in progress as it stands. The round in progress links
    (read or written) to writing it back as it was, to saving it as it stands, at its version,
    and to its hand's first trick, stored again as it was.
    """
    paths = result["paths"]
    created = _links(
        paths, SHEET_OPERATIONS, sheet="$response.body#/id", token="$response.body#/edit_token", whole=SHEET_BODIES
    )
    for method, path in (("post", "/api/v1/sheets/"), ("post", SHEET + "rematch/")):
        paths[path][method]["responses"]["201"]["links"] = created
    same_sheet = {"sheet": "$request.path.sheet_id", "token": "$request.header.X-Edit-Token"}
    read = {
        **_links(paths, SHEET_OPERATIONS, **same_sheet, whole=SHEET_BODIES),
        **_links(paths, ROUND_OPERATIONS, **same_sheet, whole=ROUND_BODIES),
    }
    for method, path, code in (
        ("get", SHEET, "200"),
        ("post", SHEET + "rounds/", "201"),
        ("put", SHEET + "rounds/{number}/", "200"),
        ("delete", SHEET + "rounds/{number}/", "200"),
    ):
        paths[path][method]["responses"][code]["links"] = read
    draft = _links(paths, DRAFT_OPERATIONS, **same_sheet, whole={**SHEET_BODIES, **DRAFT_BODIES})
    for method, path in (("get", SHEET + "draft/"), ("put", SHEET + "draft/")):
        paths[path][method]["responses"]["200"]["links"] = draft
    return result
