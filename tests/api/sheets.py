"""What the API tests share: a sheet made through `POST /api/v1/sheets/`, as a client sends it."""

from django.test import Client


def create(game="numking", players=("Elya", "Sasha", "Mendy", "Noa"), options=None, *, client=None) -> dict:
    """Create a sheet (anonymously unless `client` carries a session); return the API's answer."""
    body = {"game": game, "players": list(players)}
    if options is not None:
        body["options"] = options
    r = (client or Client()).post("/api/v1/sheets/", body, content_type="application/json")
    assert r.status_code == 201, r.content
    return r.json()
