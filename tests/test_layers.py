"""The imports show one-way layers (docs/architecture.md): views → services → engines and models.

Each module's imports are read with `ast` (nothing is imported to check them), so a
rule fails as soon as someone adds an import it forbids, at the top of a file or
inside a function.
"""

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("scoring", "accounts", "web", "numapp")

# The modules that answer requests, by layer.
PAGE_VIEWS = ("scoring.views", "accounts.views")
API = "scoring.api"
VIEWS = (*PAGE_VIEWS, API)
# What views and request helpers build on; none of these may reach back up.
LOWER = (
    "scoring.services",
    "scoring.models",
    "scoring.games",
    "scoring.tokens",
    "scoring.signals",
    "scoring.charts",
    "scoring.tasks",
    "scoring.live",
    "accounts.services",
    "accounts.models",
)
UPPER = (*VIEWS, "scoring.forms", "scoring.access", "scoring.templatetags")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    return {
        _module_name(path): path
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
    }


SOURCES = _sources()


def _imports(name: str) -> list[tuple[str, bool, int]]:
    """Return (imported module, imported inside a function?, line) for every import of a module.

    `from x import y` counts as importing `x.y` too, so that `from scoring import api`
    is seen as an import of scoring.api.
    """
    path = SOURCES[name]
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []

    def visit(node, inline: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = inline or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((alias.name, inline, child.lineno) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                found.append((base, inline, child.lineno))
                found.extend((f"{base}.{alias.name}", inline, child.lineno) for alias in child.names)
            visit(child, nested)

    visit(tree, False)
    return found


def _is(module: str, prefixes) -> bool:
    prefixes = (prefixes,) if isinstance(prefixes, str) else prefixes
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _offences(modules, forbidden, *, inline_only: bool = False) -> list[str]:
    return [
        f"{SOURCES[name].relative_to(ROOT)}:{line} imports {target}"
        for name in modules
        for target, inline, line in _imports(name)
        if _is(target, forbidden) and (inline or not inline_only)
    ]


def _in(prefixes) -> list[str]:
    return [name for name in SOURCES if _is(name, prefixes)]


def test_it_reads_the_modules_it_checks():
    # A rule over no module would pass for nothing.
    for name in (*VIEWS, *LOWER, "scoring.access", "scoring.forms", "accounts.signals"):
        assert _in(name), name
    assert ("scoring.services", False) in {(t, i) for t, i, _line in _imports("scoring.views")}


def test_pages_never_import_the_api():
    # Shared helpers (the request's language, tokens, the error shape) live below both front ends.
    # The players' API (accounts.api) is an API module too: it answers refusals in the API's error shape.
    outside = [name for name in SOURCES if not _is(name, (API, "accounts.api"))]
    assert _offences(outside, API) == []


def test_the_project_package_only_configures():
    # numapp holds the settings, the URLs that include each app's own, the ASGI/WSGI entry
    # points and the Celery app; the shared web helpers are web's. It reaches into no app.
    # The benchmarks' settings and URLs live in bench/.
    modules = {name for name in _in("numapp") if not _is(name, "numapp.formats")}
    assert modules == {"numapp", "numapp.settings", "numapp.urls", "numapp.asgi", "numapp.wsgi", "numapp.celery"}
    assert _offences(_in("numapp"), ("scoring", "accounts")) == []


def test_the_web_helpers_import_no_app_nor_the_project():
    # What every app's requests go through sits below the apps and beside the settings.
    assert _in("web")
    assert _offences(_in("web"), ("scoring", "accounts", "numapp")) == []


def test_scoring_never_imports_accounts():
    # Accounts follow the sheets through scoring.signals (seats_scored), never the other way.
    assert _offences(_in("scoring"), "accounts") == []


def _url_names(module: str) -> set[str]:
    """Return the URL names an app's URLconf gives (its own `urlpatterns`, included ones aside)."""
    patterns = importlib.import_module(module).urlpatterns
    return {p.name for p in patterns if getattr(p, "name", None)}


ACCOUNTS_URLS = _url_names("accounts.urls")
SCORING_TEMPLATES = sorted((ROOT / "templates" / "scoring").rglob("*.html"))


def _accounts_tag_libraries() -> set[str]:
    return {path.stem for path in (ROOT / "accounts" / "templatetags").glob("*.py") if path.stem != "__init__"}


def test_it_reads_the_url_names_and_templates_it_checks():
    assert {"seat-me", "seat-join", "save-to-account", "history"} <= ACCOUNTS_URLS
    assert "players" in _accounts_tag_libraries()
    assert len(SCORING_TEMPLATES) > 20


URL_BY_NAME = {"reverse", "reverse_lazy", "redirect", "resolve_url"}


def _named_urls(name: str) -> list[tuple[str, int]]:
    """Return the URL names a module passes to reverse(), redirect() and the like, with their lines."""
    found = []
    for node in ast.walk(ast.parse(SOURCES[name].read_text())):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if func in URL_BY_NAME and isinstance(node.args[0].value, str):
                found.append((node.args[0].value, node.lineno))
    return found


def test_scoring_never_names_accounts_urls_in_its_code():
    # A reverse() or redirect() by name reaches the app that owns the name as surely as an import.
    assert "sheet-watch" in {url for module in _in("scoring") for url, _line in _named_urls(module)}
    offences = [
        f"{SOURCES[name].relative_to(ROOT)}:{line} names {url}"
        for name in _in("scoring")
        for url, line in _named_urls(name)
        if url in ACCOUNTS_URLS
    ]
    assert offences == []


def test_scoring_templates_never_reach_accounts():
    # No {% url %} of accounts' names, no accounts' tag library, no accounts' template by name:
    # what the account's side adds to scoring's pages, it draws itself (settings.SCORING_PAGE_PARTS).
    libraries = _accounts_tag_libraries()
    offences = []
    for path in SCORING_TEMPLATES:
        text = path.read_text()
        where = path.relative_to(ROOT)
        offences += [
            f"{where}: url {n}" for n in re.findall(r"{%\s*url\s+['\"]([^'\"]+)['\"]", text) if n in ACCOUNTS_URLS
        ]
        offences += [
            f"{where}: load {lib}"
            for loaded in re.findall(r"{%\s*load\s+([^%]+?)\s*%}", text)
            for lib in loaded.split()
            if lib in libraries
        ]
        offences += [f"{where}: {m}" for m in re.findall(r"['\"]accounts/[^'\"]+['\"]", text)]
    assert offences == []


@pytest.mark.parametrize("lower", LOWER)
def test_lower_layers_never_import_views_forms_or_request_helpers(lower):
    assert _offences(_in(lower), UPPER) == []


@pytest.mark.parametrize("services", ["scoring.services", "accounts.services"])
def test_services_know_no_http_nor_the_api_framework(services):
    # A refusal is a ServiceError (scoring/exceptions.py); the handlers decide how it is answered.
    assert _offences(_in(services), ("django.http", "rest_framework", "scoring.api")) == []


def test_engines_know_no_django_nor_the_rest_of_the_project():
    outside = ("django", "rest_framework", "accounts", "numapp", "web", *(m for m in LOWER if m != "scoring.games"))
    assert _offences(_in("scoring.games"), outside) == []


def test_views_never_import_another_apps_models():
    # An account page asks accounts.services; a sheet page asks scoring.services.
    assert _offences([*_in("accounts.views"), *_in("accounts.api")], "scoring.models") == []
    assert _offences([*_in("scoring.views"), *_in(API)], "accounts") == []


def test_request_views_run_no_query_of_their_own():
    # Reads and writes are the services' (and the permission check's, scoring/access.py).
    views = [*_in(PAGE_VIEWS), "scoring.api.views", "accounts.api"]
    assert _offences(views, ("scoring.models", "accounts.models", "django.db")) == []


def test_accounts_reach_scoring_through_its_services_signals_and_helpers():
    allowed = (
        "scoring.services",
        "scoring.signals",
        "scoring.exceptions",
        "scoring.access",
        "scoring.tokens",
        "scoring.games",
        "scoring.device",
    )
    # accounts.services counts seats: it is the one account module that reads scoring's models.
    allowed_for_services = (*allowed, "scoring.models")
    offences = []
    for name in _in("accounts"):
        ok = {
            "accounts.services": allowed_for_services,
            # The players' API documents its refusals with the one error shape of the API, reads its
            # bodies with the API's envelopes and describes them with the API's JSON Schema helpers.
            "accounts.api": (*allowed, "scoring.api.serializers", "scoring.api.inputs", "scoring.api.shapes"),
        }.get(name, allowed)
        offences += [
            f"{name}:{line} imports {target}"
            for target, _inline, line in _imports(name)
            if _is(target, "scoring") and target != "scoring" and not _is(target, ok)
        ]
    assert offences == []


def test_no_app_imports_another_inside_a_function():
    # An inline import between apps hides a cycle; AppConfig.ready() connecting its own signals is Django's way.
    offences = []
    for name in SOURCES:
        app = name.split(".")[0]
        others = tuple(a for a in APPS if a != app and a != "numapp")
        offences += _offences([name], others, inline_only=True)
    assert offences == []
