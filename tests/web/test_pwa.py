"""The installable app's server side: manifest, service worker, offline page, engine bundle."""

import base64
import hashlib
import json
import re
import struct
from pathlib import Path

import pytest
from django.test import Client

from scoring import pwa
from scoring.models import Sheet
from tests.web.sheets import start

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
ENGINE_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "scoring" / "games").rglob("*.py"))
PYODIDE_FILES = {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}


def css_var(name: str) -> str:
    """Return the light-theme value of a custom property of static/css/app.css."""
    css = (ROOT / "static" / "css" / "app.css").read_text()
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]+)", css).group(1)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def sheet_page(client) -> tuple[Sheet, str]:
    sheet = start(client, "numx", ["Elya", "Sasha"])
    return sheet, client.get(f"/sheets/{sheet.pk}/").content.decode()


def test_it_serves_the_manifest_in_french_and_english(client):
    fr = client.get("/manifest.webmanifest")
    en = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en")
    assert fr.status_code == en.status_code == 200
    assert fr["Content-Type"] == "application/manifest+json"
    assert "Accept-Language" in fr["Vary"] and "Cookie" in fr["Vary"]
    m_fr, m_en = fr.json(), en.json()
    assert m_fr["lang"] == "fr" and m_en["lang"] == "en"
    assert m_fr["description"].startswith("Feuille de scores des jeux de cartes Num")
    assert m_en["description"].startswith("Score keeper for the Num card games")
    for m in (m_fr, m_en):
        assert m["name"] == "Num scores" and m["short_name"] == "Num scores"
        assert (m["start_url"], m["scope"], m["display"]) == ("/", "/", "standalone")
        # The colours of the stylesheet: the header's accent and the page background.
        assert m["theme_color"] == css_var("accent")
        assert m["background_color"] == css_var("bg")


def test_it_lists_icons_that_exist_with_the_sizes_they_claim(client):
    icons = client.get("/manifest.webmanifest").json()["icons"]
    purposes = {(i["sizes"], i["purpose"]) for i in icons}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    for icon in icons:
        r = client.get(icon["src"])
        assert r.status_code == 200, icon
        assert r["Content-Type"] == "image/png"
        w, h = png_size(body(r))
        assert f"{w}x{h}" == icon["sizes"]


def test_it_links_the_manifest_theme_colour_and_service_worker_from_every_page(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest" crossorigin="use-credentials">' in page
    assert f'<meta name="theme-color" content="{css_var("accent")}">' in page
    assert re.search(r'<script type="module" src="/static/js/pwa\.js"></script>', page)
    # Still no inline script anywhere.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)


def test_it_serves_the_service_worker_from_the_root_never_cached(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/javascript")
    assert r["Service-Worker-Allowed"] == "/"
    assert r["Cache-Control"] == "no-cache"
    text = r.content.decode()
    first, rest = text.split("\n", 1)
    config = json.loads(first.removeprefix("const CONFIG = ").removesuffix(";"))
    assert rest == (ROOT / "static" / "js" / "sw.js").read_text()
    assert config["engine"] == pwa.engine_bundle_url()
    assert config["offline"] == {"fr": "/offline/fr/", "en": "/offline/en/"}
    assert config["pyodide"] == "/static/vendor/pyodide/"
    assert config["pyodideVersion"] == json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    # Everything the shell names exists, and the shell holds the scripts and styles of a sheet page.
    for url in config["shell"]:
        assert client.get(url).status_code == 200, url
    for name in ("css/app.css", "js/app.js", "js/engine.js", "js/engine-worker.js", "js/pwa.js"):
        assert f"/static/{name}" in config["shell"]
    # What the engine's worker fetches, for the service worker to keep: the vendored files and the bundle.
    assert sorted(config["runtime"]) == sorted(
        [f"/static/vendor/pyodide/{n}" for n in PYODIDE_FILES] + [config["engine"]]
    )
    assert client.post("/sw.js").status_code == 405


def test_it_gives_the_service_worker_a_new_version_when_a_shell_file_changes(settings, tmp_path, monkeypatch):
    settings.DEBUG = True  # development reads the files on every request
    before = json.loads(Client().get("/sw.js").content.decode().split("\n", 1)[0][15:-1])["version"]
    changed = tmp_path / "app.js"
    changed.write_text((ROOT / "static" / "js" / "app.js").read_text() + "\n// changed\n")
    real_find = pwa.finders.find
    monkeypatch.setattr(pwa.finders, "find", lambda name: str(changed) if name == "js/app.js" else real_find(name))
    after = json.loads(Client().get("/sw.js").content.decode().split("\n", 1)[0][15:-1])["version"]
    assert re.fullmatch(r"[0-9a-f]{16}", after) and after != before


def test_it_serves_the_engine_bundle_with_every_engine_module_and_nothing_else(client):
    url = pwa.engine_bundle_url()
    digest = re.fullmatch(r"/engine/([0-9a-f]{20})\.json", url).group(1)
    r = client.get(url)
    assert r.status_code == 200
    assert r["Content-Type"] == "application/json"
    assert r["Cache-Control"] == "public, max-age=31536000, immutable"
    raw = body(r)
    assert hashlib.sha256(raw).hexdigest()[:20] == digest  # the address names the content
    bundle = json.loads(raw)
    assert set(bundle) == {"modules", "catalogues", "messages"}
    assert sorted(bundle["modules"]) == ENGINE_FILES
    assert "scoring/games/__init__.py" in bundle["modules"] and len(ENGINE_FILES) >= 8
    for path, source in bundle["modules"].items():
        assert source == (ROOT / path).read_text(), path
    # The engines' French, compiled: the in-page engine says what the server's says.
    assert sorted(bundle["catalogues"]) == ["scoring/games/locale/fr/LC_MESSAGES/engine.mo"]
    for path, data in bundle["catalogues"].items():
        assert base64.b64decode(data) == (ROOT / path).read_bytes(), path
    assert bundle["messages"]["fr"] == {
        "unknown_game": "Jeu inconnu : %(game)s.",
        "problems": "%(n)d problèmes dans la demande.",
        "not_found": "Introuvable.",
    }
    assert bundle["messages"]["en"]["unknown_game"] == "Unknown game: %(game)s."


def test_it_serves_the_scripts_words_per_language_at_an_address_naming_their_content(client):
    # Django's JavaScriptCatalog (domain djangojs), kept by the service worker for offline play.
    urls = {}
    for lang in ("fr", "en"):
        client.cookies["django_language"] = lang
        page = client.get("/").content.decode()
        urls[lang] = re.search(r'<script src="(/jsi18n/[a-z]+/[0-9a-f]{20}\.js)" defer></script>', page).group(1)
        assert page.index(urls[lang]) < page.index("/static/js/words.js")  # said before the scripts use it
        assert urls[lang] == pwa.js_catalogue_url(lang) and f"/jsi18n/{lang}/" in urls[lang]
        r = client.get(urls[lang])
        assert r.status_code == 200
        assert r["Content-Type"] == "text/javascript; charset=utf-8"
        assert r["Cache-Control"] == "public, max-age=31536000, immutable"
        assert hashlib.sha256(body(r)).hexdigest()[:20] == urls[lang].rsplit("/", 1)[1][:-3]
    french = body(client.get(urls["fr"])).decode()
    assert '"Pick a colour first."' in french and '"Choisissez d\'abord une couleur."' in french
    assert "(n > 1)" in french
    assert "Choisissez" not in body(client.get(urls["en"])).decode()
    assert client.get(urls["fr"].replace("/fr/", "/de/")).status_code == 404
    assert client.get(urls["fr"][:-8] + "0000000.js").status_code == 404
    config = json.loads(client.get("/sw.js").content.decode().split("\n", 1)[0][15:-1])
    assert sorted(config["catalogues"]) == sorted(urls.values())


def test_it_answers_404_for_an_engine_bundle_of_another_version(client):
    assert client.get("/engine/0123456789abcdef0123.json").status_code == 404
    assert client.get("/engine/" + "../" * 3 + "settings.json").status_code == 404


def test_it_gives_the_sheet_pages_the_engine_and_where_to_load_it(client):
    sheet, page = sheet_page(client)
    tag = re.search(r'<script type="module" src="/static/js/engine\.js" ([^>]*)></script>', page)
    assert tag, "engine.js is not loaded on the sheet page"
    attrs = dict(re.findall(r'data-(\w+)="([^"]*)"', tag.group(1)))
    assert attrs == {
        "worker": "/static/js/engine-worker.js",
        "pyodide": "/static/vendor/pyodide/",
        "bundle": pwa.engine_bundle_url(),
    }
    # A module of the page (the previews find it among the page's parts: static/js/app.js join).
    assert "/static/js/page.js" in page
    hand = json.dumps([{"kind": "red", "value": 7}])
    assert (
        client.post(
            f"/sheets/{sheet.pk}/rounds/", {"cards-0": hand, "cards-1": "", "number": 1, "confirm_empty": "1"}
        ).status_code
        == 302
    )
    edit = client.get(f"/sheets/{sheet.pk}/rounds/1/edit/").content.decode()
    assert tag.group(0) in edit
    # The share page has nothing to score: it never downloads the engine.
    watch = client.get(re.search(r'value="(http://testserver/w/[^"]+)"', page).group(1))
    assert watch.status_code == 200 and "engine.js" not in watch.content.decode()


def test_it_allows_webassembly_only_in_the_engine_worker(client):
    worker = client.get("/static/js/engine-worker.js")
    assert worker.status_code == 200
    assert "script-src 'self' 'wasm-unsafe-eval';" in worker["Content-Security-Policy"]
    for url in ("/", "/static/js/engine.js", "/sw.js"):
        csp = client.get(url)["Content-Security-Policy"]
        assert "wasm-unsafe-eval" not in csp and "unsafe-eval" not in csp, url
        assert "worker-src 'self'" in csp


def test_it_serves_the_offline_page_in_each_language(client):
    fr = client.get("/offline/fr/")
    en = client.get("/offline/en/")
    assert fr.status_code == en.status_code == 200
    assert "<h1>📵 Pas de réseau</h1>" in fr.content.decode() and '<html lang="fr">' in fr.content.decode()
    assert "<h1>📵 No network</h1>" in en.content.decode() and '<html lang="en">' in en.content.decode()
    # The page does not depend on who asks: no form, no token, no cookie set.
    assert "csrfmiddlewaretoken" not in fr.content.decode() and not fr.cookies
    assert client.get("/offline/de/").status_code == 404


def test_it_keeps_the_vendored_pyodide_files_of_the_pinned_version():
    folder = ROOT / "static" / "vendor" / "pyodide"
    assert {p.name for p in folder.iterdir()} == PYODIDE_FILES
    version = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/pyodide"]["version"] == version
    assert f'"{version}"' in (folder / "pyodide.mjs").read_text()
    assert f'"{version}"' in (folder / "pyodide.asm.mjs").read_text()
