"""Odd input on the API: NUL bytes, lone surrogates, names that clean to something else,
deep JSON, odd If-Match and Idempotency-Key headers. Always a 400/404 in the API's error
shape, naming the field, in the user's language; nothing stored; never a 500.

The NUL cases only broke on PostgreSQL (it refuses NUL in text): run this file with
DATABASE_URL=postgres://… to see them fail without the fixes.
"""

import json

import pytest
from django.test import Client

from scoring.models import IdempotentRequest, Player, Round, Sheet
from tests.api.sheets import create as create_sheet

pytestmark = pytest.mark.django_db

# A cooperative session never ends: a sheet that takes as many rounds as a test needs.
ROUND = {"placed": 50}
# The stateless endpoints: they store nothing whatever they are sent.
SCORE = "/api/v1/games/numx/score/"
TRICK = "/api/v1/games/numking/trick/"


def post(client, url, body, **headers):
    """Post `body` (a JSON value, or JSON text as it goes on the wire)."""
    text = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, text, content_type="application/json", **headers)


def put(client, url, body, **headers):
    text = body if isinstance(body, str) else json.dumps(body)
    return client.put(url, text, content_type="application/json", **headers)


def create(client, players=("Elya", "Sasha"), game="numx", options=None):
    return create_sheet(game, players, options or {}, client=client)


def refused(r, status=400, path=None, code=None):
    """Assert the API's error shape; return the errors."""
    assert r.status_code == status, r.content
    assert r["Content-Type"].startswith("application/json")
    body = r.json()
    assert body["detail"] and body["errors"]
    for error in body["errors"]:
        assert set(error) == {"path", "code", "message"} and error["message"]
    if path is not None:
        assert path in [e["path"] for e in body["errors"]], body
    if code is not None:
        assert code in [e["code"] for e in body["errors"]], body
    return body["errors"]


@pytest.fixture
def sheet():
    api = Client()
    created = create(api, game="coop")
    token = created["edit_token"]
    assert post(api, f"/api/v1/sheets/{created['id']}/rounds/", ROUND, HTTP_X_EDIT_TOKEN=token).status_code == 201
    share = created["share_url"].rstrip("/").rsplit("/", 1)[-1]
    return {"id": created["id"], "token": token, "share": share, "client": api}


# --- 1. NUL bytes -------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", "/api/v1/sheets/a%00b/"),
        ("post", "/api/v1/sheets/a%00b/rounds/"),
        ("put", "/api/v1/sheets/a%00b/rounds/1/"),
        ("delete", "/api/v1/sheets/a%00b/rounds/1/"),
        ("post", "/api/v1/sheets/a%00b/rematch/"),
        ("get", "/api/v1/sheets/%00/"),
    ],
)
def test_it_answers_404_in_json_for_a_nul_byte_in_a_sheet_id(method, url):
    client = Client()
    r = client.get(url) if method == "get" else getattr(client, method)(url, "{}", content_type="application/json")
    refused(r, 404, code="not_found")


@pytest.mark.parametrize("where", ["X-Share-Token", "share"])
@pytest.mark.parametrize("token", ["a\x00b", "é", "\xff" * 40])
def test_it_answers_404_for_an_odd_share_token(sheet, where, token):
    url = f"/api/v1/sheets/{sheet['id']}/"
    if where == "share":
        r = Client().get(url, {"share": token})
    else:
        r = Client().get(url, HTTP_X_SHARE_TOKEN=token)
    refused(r, 404, code="not_found")


@pytest.mark.parametrize("token", ["a\x00b", "é"])
def test_it_answers_404_for_an_odd_edit_token(sheet, token):
    r = post(Client(), f"/api/v1/sheets/{sheet['id']}/rounds/", ROUND, HTTP_X_EDIT_TOKEN=token)
    refused(r, 404, code="not_found")
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1


@pytest.mark.parametrize("url", ["/api/v1/games/num%00x/score/", "/api/v1/games/num%00king/trick/"])
def test_it_answers_404_in_json_for_a_nul_byte_in_a_game_slug(url):
    refused(post(Client(), url, {"players": ["Elya", "Sasha"]}), 404, path="slug", code="unknown_game")


@pytest.mark.parametrize("key", ["a\x00b", "clé-é", "tab\tinside", "\x7f"])
def test_it_refuses_an_idempotency_key_that_is_not_printable_ascii(sheet, key):
    url = f"/api/v1/sheets/{sheet['id']}/rounds/"
    r = post(sheet["client"], url, ROUND, HTTP_X_EDIT_TOKEN=sheet["token"], HTTP_IDEMPOTENCY_KEY=key)
    errors = refused(r, path="Idempotency-Key", code="invalid")
    assert "ASCII" in errors[0]["message"]
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1
    assert IdempotentRequest.objects.count() == 0


def test_it_still_takes_a_uuid_as_idempotency_key(sheet):
    url = f"/api/v1/sheets/{sheet['id']}/rounds/"
    key = "8e03978e-40d5-43e8-bc93-6894a57f9324"
    r = post(sheet["client"], url, ROUND, HTTP_X_EDIT_TOKEN=sheet["token"], HTTP_IDEMPOTENCY_KEY=key)
    assert r.status_code == 201, r.content
    assert IdempotentRequest.objects.get().key == key


@pytest.mark.parametrize(
    "url, body, path",
    [
        ("/api/v1/games/numx/score/", {"players": ["El\x00ya", "Sasha"]}, "players[0]"),
        (TRICK, {"players": ["El\x00ya", "Sasha"], "plays": []}, "players[0]"),
        (
            TRICK,
            {"players": ["A", "B"], "plays": [{"player": "A\x00", "card": {"kind": "numx", "as": 0}}]},
            "plays[0].player",
        ),
        (
            TRICK,
            {"players": ["A", "B"], "plays": [], "played": [{"kind": "action", "name": "fl\x00ip"}]},
            "played[0].name",
        ),
        ("/api/v1/sheets/", {"game": "numx", "players": ["Elya", "Sa\x00sha"]}, "players[1]"),
        ("/api/v1/sheets/", {"game": "numx\x00", "players": ["Elya", "Sasha"]}, "game"),
        (
            "/api/v1/sheets/",
            {
                "game": "numx",
                "players": ["A", "B", "C", "D"],
                "options": {"teams": {"T\x00": ["A", "B"], "U": ["C", "D"]}},
            },
            "options.teams.T\ufffd",
        ),
        (
            "/api/v1/sheets/",
            {"game": "numx", "players": ["A", "B", "C", "D"], "options": {"teams": {"T": ["A\x00", "B"], "U": ["C"]}}},
            "options.teams.T[0]",
        ),
    ],
)
def test_it_refuses_a_nul_byte_in_any_text_of_a_body_and_stores_nothing(url, body, path):
    r = post(Client(), url, body)
    errors = refused(r, path=path, code="invalid_character")
    assert "U+0000" in errors[0]["message"]
    assert Sheet.objects.count() == 0 and Player.objects.count() == 0


def test_it_refuses_a_nul_byte_in_a_round_and_keeps_the_sheet_as_it_was(sheet):
    url = f"/api/v1/sheets/{sheet['id']}/rounds/"
    body = {"entries": {"Elya": {"points": 3}, "Sasha\x00": {"points": 5}}}
    refused(post(sheet["client"], url, body, HTTP_X_EDIT_TOKEN=sheet["token"]), code="invalid_character")
    refused(put(sheet["client"], url + "1/", body, HTTP_X_EDIT_TOKEN=sheet["token"]), code="invalid_character")
    assert list(Round.objects.filter(sheet_id=sheet["id"]).values_list("data", flat=True)) == [ROUND]


@pytest.mark.parametrize("url", [SCORE, TRICK])
def test_it_names_the_refused_character_in_french_and_english(url):
    body = {"players": ["El\x00ya", "Sasha"]}
    fr = refused(post(Client(), url, body))[0]["message"]
    en = refused(post(Client(), url, body, HTTP_ACCEPT_LANGUAGE="en"))[0]["message"]
    assert fr.startswith("players[0]") and "caractère" in fr and "U+0000" in fr
    assert en.startswith("players[0]") and "character" in en and "U+0000" in en


# --- 2. Lone surrogates (sent as JSON escapes: they are not UTF-8) ------------------------


@pytest.mark.parametrize(
    "url, text, path",
    [
        ("/api/v1/games/numx/score/", '{"players": ["a\\udc80", "Sasha"]}', "players[0]"),
        ("/api/v1/games/numx/score/", '{"players": ["Elya", "\\ud800"]}', "players[1]"),
        ("/api/v1/games/numx/score/", '{"players": ["A", "B"], "options": {"mode": "\\udc80"}}', "options.mode"),
        (TRICK, '{"players": ["A", "\\ud800"], "plays": []}', "players[1]"),
        (
            TRICK,
            '{"players": ["A", "B"], "plays": [{"player": "A", "card": {"kind": "\\udc80"}}]}',
            "plays[0].card.kind",
        ),
        ("/api/v1/sheets/", '{"game": "numx", "players": ["a\\udc80", "Sasha"]}', "players[0]"),
        ("/api/v1/sheets/", '{"game": "\\udc80", "players": ["A", "B"]}', "game"),
        (
            "/api/v1/sheets/",
            '{"game": "numx", "players": ["A", "B", "C", "D"], "options": {"teams": {"\\udc80": ["A", "B"]}}}',
            "options.teams.\ufffd",
        ),
    ],
)
def test_it_refuses_a_lone_surrogate_naming_the_field_and_stores_nothing(url, text, path):
    r = post(Client(), url, text, HTTP_ACCEPT_LANGUAGE="en")
    errors = refused(r, path=path, code="invalid_character")
    assert errors[0]["message"].startswith(path) and "U+D" in errors[0]["message"]
    assert Sheet.objects.count() == 0


def test_it_refuses_a_lone_surrogate_in_a_round_entry(sheet):
    url = f"/api/v1/sheets/{sheet['id']}/rounds/"
    text = '{"entries": {"Elya": {"points": 3}, "\\udc80": {"points": 5}}}'
    refused(post(sheet["client"], url, text, HTTP_X_EDIT_TOKEN=sheet["token"]), code="invalid_character")
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1


def test_it_still_takes_a_surrogate_pair_that_spells_an_emoji():
    r = post(Client(), "/api/v1/games/numx/score/", '{"players": ["\\ud83c\\udccf Elya", "Sasha"]}')
    assert r.status_code == 200, r.content
    assert "🃏 Elya" in r.json()["totals"]


# --- 3. Names are checked after they are cleaned ---------------------------------------


def test_it_refuses_a_41_character_name_that_folds_to_40_everywhere():
    raw = "a  " + "b" * 38  # 41 characters as sent, 40 once the double space is folded
    assert len(raw) == 41
    for url, body in [
        ("/api/v1/games/numx/score/", {"players": [raw, "Sasha"]}),
        (TRICK, {"players": [raw, "Sasha"], "plays": []}),
        ("/api/v1/sheets/", {"game": "numx", "players": [raw, "Sasha"]}),
    ]:
        errors = refused(post(Client(), url, body), path="players[0]", code="player_name_long")
        assert "41" in errors[0]["message"] and "40" in errors[0]["message"]
    assert Sheet.objects.count() == 0


def test_it_keeps_a_sheet_name_cleaned_and_checks_it_again():
    sheet = create(Client(), players=["  Jean \t  Pierre ", "E\u0301lya"])
    assert sheet["players"] == ["Jean Pierre", "\u00c9lya"]  # spaces folded, NFC
    assert list(Player.objects.values_list("name", flat=True)) == ["Jean Pierre", "\u00c9lya"]


@pytest.mark.parametrize(
    "char",
    ["\u200b", "\u202e", "\ufeff", "\u2066", "\x85", "\x1b", "\u00ad", "\u200d"],
    ids=["zero-width-space", "bidi-override", "bom", "bidi-isolate", "nel", "escape", "soft-hyphen", "lone-zwj"],
)
def test_it_refuses_invisible_and_control_characters_in_names_naming_the_field(char):
    name = f"El{char}ya"
    for url, body in [
        ("/api/v1/games/numx/score/", {"players": ["Sasha", name]}),
        (TRICK, {"players": ["Sasha", name], "plays": []}),
        ("/api/v1/sheets/", {"game": "numx", "players": ["Sasha", name]}),
    ]:
        fr = refused(post(Client(), url, body), path="players[1]", code="player_name_control")[0]["message"]
        assert "invisible ou de contrôle" in fr and f"U+{ord(char):04X}" in fr
        assert "El\ufffdya" in fr  # the name as it can be read, the character marked
        en = refused(post(Client(), url, body, HTTP_ACCEPT_LANGUAGE="en"), path="players[1]")[0]["message"]
        assert "invisible or control character" in en
    assert Sheet.objects.count() == 0


def test_it_refuses_invisible_characters_in_team_names():
    body = {
        "game": "numx",
        "players": ["A", "B", "C", "D"],
        "options": {"teams": {"Rouge\u200b": ["A", "B"], "Bleu": ["C", "D"]}},
    }
    errors = refused(post(Client(), "/api/v1/sheets/", body), code="team_name_control")
    assert errors[0]["path"].startswith("options.teams.Rouge")
    assert "Nom d'équipe" in errors[0]["message"]
    assert Sheet.objects.count() == 0


def test_it_cleans_team_names_and_members_like_the_players():
    body = {
        "game": "numx",
        "players": [" A", "B ", "C", "D"],
        "options": {"teams": {" Rouge  vif ": [" A", "B "], "Bleu": ["C", "D"]}},
    }
    sheet = create(Client(), players=body["players"], options=body["options"])
    assert sheet["players"] == ["A", "B", "C", "D"]
    assert sheet["options"]["teams"] == {"Rouge vif": ["A", "B"], "Bleu": ["C", "D"]}
    assert sheet["teams"]["Rouge vif"]["members"] == ["A", "B"]


@pytest.mark.parametrize(
    "first, second",
    [
        ("Élya", "E\u0301lya"),  # NFC and NFD
        ("Elya", "elya"),  # case
        ("Elya", "Ｅｌｙａ"),  # fullwidth compatibility forms
        ("Jean Pierre", "Jean  Pierre"),  # spaces
    ],
)
def test_it_refuses_names_that_are_the_same_once_cleaned(first, second):
    for url, body in [
        ("/api/v1/games/numx/score/", {"players": [first, second]}),
        (TRICK, {"players": [first, second], "plays": []}),
        ("/api/v1/sheets/", {"game": "numx", "players": [first, second]}),
    ]:
        errors = refused(post(Client(), url, body), path="players[1]", code="player_duplicate")
        assert "double" in errors[0]["message"]
    assert Sheet.objects.count() == 0


def test_it_takes_emoji_sequences_in_names():
    names = [
        "👩\u200d💻 Elya",
        "🏳\ufe0f\u200d🌈 Sasha",
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Noa",
    ]
    sheet = create(Client(), players=names)
    assert sheet["players"] == names


def test_it_describes_the_names_rule_in_the_schema():
    schema = Client().get("/api/v1/schema/?format=json").json()
    score = schema["paths"]["/api/v1/games/numx/score/"]["post"]["requestBody"]["content"]["application/json"]
    create = schema["paths"]["/api/v1/sheets/"]["post"]["requestBody"]["content"]["application/json"]
    for body in (score["schema"], create["schema"]["oneOf"][0]):
        players = body["properties"]["players"]
        assert players["items"]["maxLength"] == 40
        assert "as sent" in players["description"] and "once cleaned" in players["description"]


# --- 4. Deeply nested JSON -----------------------------------------------------------------

DEEP_ARRAY = "[" * 2000 + "]" * 2000
DEEP_OBJECT = '{"a":' * 2000 + "1" + "}" * 2000


def deep_in(field: str, depth: int = 2000) -> str:
    return f'{{"{field}": {"[" * depth + "]" * depth}}}'


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT, deep_in("players"), deep_in("rounds"), deep_in("plays")])
@pytest.mark.parametrize("lang, words", [("fr", "niveaux"), ("en", "levels")])
def test_it_refuses_deep_json_on_every_endpoint_with_a_body(sheet, body, lang, words):
    api, headers = sheet["client"], {"HTTP_X_EDIT_TOKEN": sheet["token"], "HTTP_ACCEPT_LANGUAGE": lang}
    base = f"/api/v1/sheets/{sheet['id']}"
    answers = [
        post(api, "/api/v1/games/numx/score/", body, **headers),
        post(api, TRICK, body, **headers),
        post(api, "/api/v1/sheets/", body, **headers),
        post(api, f"{base}/rounds/", body, **headers),
        post(api, f"{base}/rounds/", body, HTTP_IDEMPOTENCY_KEY="deep", **headers),
        put(api, f"{base}/rounds/1/", body, **headers),
    ]
    for r in answers:
        errors = refused(r, code="too_deep")
        assert words in errors[0]["message"] and "32" in errors[0]["message"]
    assert Sheet.objects.count() == 1
    assert list(Round.objects.values_list("data", flat=True)) == [ROUND]


def test_it_reads_a_body_nested_32_levels_and_lets_the_engine_answer():
    text = '{"players": ["A", "B"], "options": %s}' % ('{"a":' * 31 + "1" + "}" * 31)
    errors = refused(post(Client(), "/api/v1/games/numx/score/", text))
    assert "too_deep" not in [e["code"] for e in errors]
    assert "options.a" in [e["path"] for e in errors]


def test_it_counts_brackets_inside_strings_as_text():
    text = json.dumps({"players": ["[" * 39, "{" * 39]})
    assert post(Client(), "/api/v1/games/numx/score/", text).status_code == 200


# --- 5. If-Match ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["\u00b2", "9" * 5000, "abc", '"1", "2"', '"-1"', '" 1"', "1.0", "W/", '""', "١"], ids=repr
)
def test_it_refuses_a_malformed_if_match_with_400_and_writes_nothing(sheet, value):
    api, base = sheet["client"], f"/api/v1/sheets/{sheet['id']}"
    # Django's test client sends headers as latin-1 text: spell the Arabic digit in UTF-8 bytes as a server would see them.
    wire = value.encode().decode("latin-1")
    headers = {"HTTP_X_EDIT_TOKEN": sheet["token"], "HTTP_IF_MATCH": wire}
    for r in [
        post(api, f"{base}/rounds/", ROUND, **headers),
        put(api, f"{base}/rounds/1/", ROUND, **headers),
        api.delete(f"{base}/rounds/1/", **headers),
    ]:
        errors = refused(r, path="If-Match", code="invalid")
        assert "ETag" in errors[0]["message"]
    assert Sheet.objects.get().version == 2 and Round.objects.count() == 1


@pytest.mark.parametrize("value", ['"2"', 'W/"2"', "2", "*", " 2 "])
def test_it_takes_the_if_match_forms_it_documents(sheet, value):
    r = post(
        sheet["client"],
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        ROUND,
        HTTP_X_EDIT_TOKEN=sheet["token"],
        HTTP_IF_MATCH=value,
    )
    assert r.status_code == 201, r.content
    assert r["ETag"] == '"3"'


def test_it_still_answers_412_for_a_well_formed_stale_version(sheet):
    r = post(
        sheet["client"],
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        ROUND,
        HTTP_X_EDIT_TOKEN=sheet["token"],
        HTTP_IF_MATCH='"1"',
    )
    refused(r, 412, code="stale")
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    "players, path",
    [(["El\u200bya", "Sasha"], "players[0]"), (["\u00c9lya", "E\u0301lya"], "players[1]")],
    ids=["invisible-character", "same-once-cleaned"],
)
def test_it_keeps_a_stored_sheet_readable_when_its_names_predate_the_rule(sheet, players, path):
    # A sheet made before the names rule may hold names the rule now refuses.
    stored = Sheet.objects.get(pk=sheet["id"])
    Sheet.objects.filter(pk=stored.pk).update(players=players, version=stored.version + 1)
    for seat, name in enumerate(players):
        Player.objects.filter(sheet=stored, seat=seat).update(name=name)
    api, headers = sheet["client"], {"HTTP_X_EDIT_TOKEN": sheet["token"]}
    r = api.get(f"/api/v1/sheets/{stored.pk}/", **headers)
    assert r.status_code == 200 and r.json()["players"] == players
    assert post(api, f"/api/v1/sheets/{stored.pk}/rounds/", ROUND, **headers).status_code == 201
    assert Round.objects.filter(sheet=stored).count() == 2
    # A rematch makes a new sheet: there the name must follow the rule.
    refused(post(api, f"/api/v1/sheets/{stored.pk}/rematch/", {}, **headers), path=path)
    assert Sheet.objects.count() == 1


# --- 6. Odd values and bytes for the trick referee ----------------------------------------------

ODD_TRICKS = [
    b"\xff\xfe\x00{",
    b'{"players": ["A", "B"], "plays": [{"player": "A", "card": {"kind": "rainbow", "value": 1e999}}]}',
    b'{"players": ["A", "B"], "plays": [{"player": "A", "card": {"kind": "numx", "as": -0.0}}]}',
    b'{"players": ["A", "B"], "plays": [{"player": 7, "card": []}, {"player": ["B"], "card": null}]}',
    b'{"players": ["A", "B"], "plays": [{"player": {"x": 1}, "card": {"kind": {"kind": "numx"}}}]}',
    b'{"players": ["A", "B"], "plays": [[], null, 3, "A"], "played": [null, [], {"kind": null}]}',
    b'{"players": ["A", "B"], "plays": [{"player": "A", "card": {"kind": "action", "name": ["flip"]}}]}',
    b'{"players": ["A", "B"], "plays": [{"player": "A", "card": {"kind": "rainbow", "value": 99999999999999999999999}}]}',
    b'{"players": ["A", "B"], "options": [], "plays": {}}',
    b'{"players": "AB", "plays": "AB", "played": "AB"}',
    (
        '{"players": ["A", "B"], "plays": ['
        + ",".join(['{"player": "A", "card": {"kind": "numx", "as": 0}}'] * 400)
        + "]}"
    ).encode(),
]


@pytest.mark.parametrize("body", ODD_TRICKS, ids=range(len(ODD_TRICKS)))
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_trick_referee_answers_odd_values_and_bytes_with_400_in_its_error_shape(body, lang):
    r = Client().post(TRICK, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)
    refused(r)
    assert Sheet.objects.count() == 0
