"""A phone revalidating what it was sent gets 304 while the sheet is unchanged, compressed or not.

GZipMiddleware sends the ETag of a compressed answer in its weak form (W/"…"), and a
client revalidating sends back what it was given: If-None-Match compares weakly (RFC 9110).
"""

import pytest
from django.test import Client

from scoring import services, tokens

pytestmark = pytest.mark.django_db


def sheet_with_rounds(count: int):
    created = services.sheet_create(game="coop", players=["Léa", "Marc", "Noa"], options={})
    sheet = created.sheet
    for placed in range(30, 30 + count):
        sheet = services.round_add(sheet=sheet, data={"placed": placed})
    return sheet, created.edit_token


def test_it_answers_304_to_a_share_page_revalidated_with_the_etag_of_its_compressed_copy():
    sheet, _token = sheet_with_rounds(6)
    path = f"/w/{sheet.pk}/{tokens.read_token(sheet.pk)}/?fragment=1"
    watcher = Client()
    first = watcher.get(path, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    assert first["ETag"] == f'W/"{sheet.version}-fr"'
    assert watcher.get(path, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert watcher.get(path, HTTP_IF_NONE_MATCH=f'"{sheet.version}-fr"').status_code == 304
    services.round_add(sheet=sheet, data={"placed": 50})
    again = watcher.get(path, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] == f'W/"{sheet.version + 1}-fr"'


def test_it_answers_304_to_a_sheet_revalidated_with_the_etag_of_its_compressed_json():
    sheet, token = sheet_with_rounds(6)
    api = Client(HTTP_X_EDIT_TOKEN=token, HTTP_ACCEPT_ENCODING="gzip")
    first = api.get(f"/api/v1/sheets/{sheet.pk}/")
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    assert first["ETag"] == f'W/"{sheet.version}"'
    assert api.get(f"/api/v1/sheets/{sheet.pk}/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert api.get(f"/api/v1/sheets/{sheet.pk}/", HTTP_IF_NONE_MATCH=f'"{sheet.version}"').status_code == 304
