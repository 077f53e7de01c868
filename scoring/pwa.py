"""The installable app: web app manifest, service worker, offline page and the engine bundle.

The service worker must be served from the root (its scope is the folder of its URL, and
whitenoise serves static files under /static/ with hashed names in production), so it is a
view. The engine bundle is the Python source of scoring/games, which the in-page engine
(static/js/engine-worker.js) runs in Pyodide: the same rules as the server, never a copy.
"""

import base64
import functools
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

import scoring.games
from web.i18n import request_lang

ENGINE_DIR = Path(scoring.games.__file__).resolve().parent
SW_SOURCE = "js/sw.js"
PYODIDE_DIR = "vendor/pyodide/"
# What the engine's worker fetches: the files `make vendor` copies, and nothing else.
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
# What the service worker keeps on install: enough to draw any page the device has opened.
SHELL = [
    "css/app.css",
    "css/nojs.css",
    "js/words.js",
    "js/app.js",
    "js/page.js",
    "js/device.js",
    "js/table.js",
    "js/phones.js",
    "js/referee.js",
    "js/live.js",
    "js/pwa.js",
    "js/engine.js",
    "js/engine-worker.js",
    "favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-512.png",
]
# Colours of static/css/app.css: --accent (the brand's red, the icon's background) and --bg.
THEME_COLOUR = "#b3261e"
BACKGROUND_COLOUR = "#f7f5f0"
IMMUTABLE = "public, max-age=31536000, immutable"


@require_safe
def manifest(request):
    """Return the web app manifest in the request's language."""
    lang = request_lang()
    body = {
        "id": "/",
        "name": "Num scores",
        "short_name": "Num scores",
        "description": _("Score keeper for the Num card games: Num-X, Num Win, Num King and the cooperative game."),
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games", "utilities"],
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }
    response = HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json")
    # The names follow the language (Accept-Language, or the language cookie).
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept-Language, Cookie"
    return response


@functools.cache
def engine_bundle() -> tuple[str, bytes]:
    """Return (content hash, JSON body) of the engine bundle, built once per process.

    The bundle holds every module of scoring/games under its package path, the engines'
    compiled gettext catalogues (scoring/games/locale/<lang>/LC_MESSAGES/engine.mo, in base64),
    and the API messages the score and trick endpoints add around the engine's own (in both
    languages).
    """
    modules = {
        "scoring/games/" + path.relative_to(ENGINE_DIR).as_posix(): path.read_text("utf-8")
        for path in sorted(ENGINE_DIR.rglob("*.py"))
        if "__pycache__" not in path.parts
    }
    messages = {}
    for lang in ("fr", "en"):
        with translation.override(lang):
            messages[lang] = {
                "unknown_game": _("Unknown game: %(game)s."),
                "problems": _("%(n)d problems in the request."),
                "not_found": _("Not found."),
            }
    catalogues = {
        "scoring/games/" + path.relative_to(ENGINE_DIR).as_posix(): base64.b64encode(path.read_bytes()).decode()
        for path in sorted(ENGINE_DIR.glob("locale/*/LC_MESSAGES/engine.mo"))
    }
    body = json.dumps(
        {"modules": modules, "catalogues": catalogues, "messages": messages}, ensure_ascii=False, sort_keys=True
    ).encode()
    return hashlib.sha256(body).hexdigest()[:20], body


def catalogue_languages() -> list[str]:
    """Return the languages of the app (settings.LANGUAGES): one JavaScript catalogue each."""
    return [code for code, _name in settings.LANGUAGES]


@functools.cache
def js_catalogue(lang: str) -> tuple[str, bytes]:
    """Return (content hash, body) of the browser scripts' words in ``lang``, built once per process.

    Django's JavaScriptCatalog (domain djangojs: locale/<lang>/LC_MESSAGES/djangojs.po) gives
    the scripts gettext, ngettext, interpolate and the language's plural rule (pluralidx).
    """
    request = HttpRequest()
    request.method = "GET"
    with translation.override(lang):
        body = JavaScriptCatalog.as_view(domain="djangojs")(request).content
    return hashlib.sha256(body).hexdigest()[:20], body


def js_catalogue_url(lang: str | None = None) -> str:
    """Return the address of the JavaScript catalogue in ``lang`` (the active language by default)."""
    lang = lang or translation.get_language() or settings.LANGUAGE_CODE
    if lang not in catalogue_languages():
        lang = settings.LANGUAGE_CODE
    return reverse("js-catalogue", args=[lang, js_catalogue(lang)[0]])


@require_safe
def js_catalogue_view(request, lang, digest):
    """Return the JavaScript catalogue of ``lang``; its address names its content, so it never changes."""
    if lang not in catalogue_languages() or digest != js_catalogue(lang)[0]:
        raise Http404
    current, body = js_catalogue(lang)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = IMMUTABLE
    response["ETag"] = f'"{current}"'
    return response


def engine_bundle_url() -> str:
    return reverse("engine-bundle", args=[engine_bundle()[0]])


@require_safe
def engine_bundle_view(request, digest):
    """Return the engine bundle; its URL names its content, so it never changes."""
    current, body = engine_bundle()
    if digest != current:
        raise Http404
    response = HttpResponse(body, content_type="application/json")
    response["Cache-Control"] = IMMUTABLE
    response["ETag"] = f'"{current}"'
    return response


def pyodide_version() -> str:
    """Return the Pyodide version pinned in package.json (the one `make vendor` copied)."""
    return json.loads((settings.BASE_DIR / "package.json").read_text())["dependencies"]["pyodide"]


def _sw_config() -> dict:
    sources = [finders.find(SW_SOURCE)] + [finders.find(name) for name in SHELL]
    sources.append(settings.BASE_DIR / "templates" / "offline.html")
    digest = hashlib.sha256()
    for path in sources:
        digest.update(Path(path).read_bytes())
    shell = [static(name) for name in SHELL]
    offline = {lang: reverse("offline", args=[lang]) for lang in ("fr", "en")}
    engine = engine_bundle_url()
    pyodide = pyodide_version()
    catalogues = [js_catalogue_url(lang) for lang in catalogue_languages()]
    digest.update(json.dumps([shell, offline, engine, pyodide, catalogues]).encode())
    return {
        "version": digest.hexdigest()[:16],
        "shell": shell,
        "offline": offline,
        "static": settings.STATIC_URL,
        "pyodide": settings.STATIC_URL + PYODIDE_DIR,
        "pyodideVersion": pyodide,
        "engine": engine,
        "runtime": [settings.STATIC_URL + PYODIDE_DIR + name for name in PYODIDE_FILES] + [engine],
        "manifest": reverse("manifest"),
        "catalogues": catalogues,
    }


@functools.cache
def _sw_body_kept() -> bytes:
    return _sw_body()


def _sw_body() -> bytes:
    config = json.dumps(_sw_config(), sort_keys=True)
    source = Path(finders.find(SW_SOURCE)).read_text("utf-8")
    return f"const CONFIG = {config};\n{source}".encode()


@require_safe
def service_worker(request):
    """Return the service worker, with what it must keep and its version written in.

    Its version changes with any file of the app shell, so a deployment installs a new
    worker, which drops the old caches. Development reads the files on each request.
    """
    body = _sw_body() if settings.DEBUG else _sw_body_kept()
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # The browser must ask each time, or a new version would wait for the HTTP cache.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request, lang):
    """Return the page shown offline for a page this device has not kept, in `lang`."""
    if lang not in ("fr", "en"):
        raise Http404
    with translation.override(lang):
        response = render(request, "offline.html", {"offline_lang": lang})
    response["Content-Language"] = lang
    return response


def context(request) -> dict:
    """Give the pages what the in-page engine needs to load (template context processor)."""
    return {
        "engine_bundle_url": engine_bundle_url,
        "js_catalogue_url": js_catalogue_url,
        "pyodide_url": settings.STATIC_URL + PYODIDE_DIR,
    }
