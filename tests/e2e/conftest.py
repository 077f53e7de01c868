"""Real-browser tests: Debian's Chromium driven by Playwright's sync API, against live_server.

Run with ``.venv/bin/pytest tests/e2e -q``. Without /usr/bin/chromium the tests are
skipped, except under CI (``CI=true``), where a missing browser is a failure.
"""

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM (used by
# live_server's database setup and by the tests' own checks) refuses that without this.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")  # override only to test the skip/fail path
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
# How long a browser action or `expect` waits for its condition. A passing test never waits
# it out; it is long because the suite runs one Chromium per core (make test: pytest-xdist)
# on a machine that may be busy with more.
TIMEOUT_MS = 20000
# The in-page engine (Pyodide, several MB compiled in a worker on each sheet page: seconds of
# CPU per page). A phone without it scores its previews through the API, as a phone whose
# engine could not load does; the tests of the engine itself are marked `engine` and get it.
NO_WORKER = "Object.defineProperty(window, 'Worker', { value: undefined, configurable: true })"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
E2E_DIR = Path(__file__).resolve().parent
IN_CI = os.environ.get("CI") == "true"
MISSING_REASON = f"{CHROMIUM} is not installed (apt-get install chromium); browser tests skipped outside CI"


def pytest_configure(config):
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)


def pytest_collection_modifyitems(config, items):
    if os.path.exists(CHROMIUM) or IN_CI:
        return
    skip = pytest.mark.skip(reason=MISSING_REASON)
    for item in items:
        if E2E_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail(f"CI=true but {CHROMIUM} is missing: the browser tests cannot run.")
        pytest.skip(MISSING_REASON)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield Phones(browser)
        finally:
            browser.close()


class Phones:
    """The session's Chromium: each new context loads the in-page engine only for a test marked `engine`."""

    def __init__(self, browser):
        self._browser = browser
        self.engine = False

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        if not self.engine:
            context.add_init_script(NO_WORKER)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def _phones_of_the_test(request):
    """Give this test's phones the in-page engine when it is marked `engine`; after the test,
    once its phones are closed, wait until the server has answered their last requests, so
    that emptying the database never races a request still running (pytest-django flushes
    after this fixture's teardown)."""
    if "browser" in request.fixturenames:
        request.getfixturevalue("browser").engine = request.node.get_closest_marker("engine") is not None
    yield
    if "live_server" in request.fixturenames:
        server = request.getfixturevalue("live_server")
        assert server.requests.wait_idle(TIMEOUT_MS / 1000), f"{server.requests.count} requests still running"


@pytest.fixture
def new_phone(browser, live_server, request):
    """Return a factory of phones: each call opens a new context (own cookies) and a page.

    Every JavaScript error of every page is recorded; the test fails if there was any.
    """
    contexts = []
    errors = request.node.stash.setdefault(JS_ERRORS, [])

    def make(viewport=PHONE):
        context = browser.new_context(viewport=viewport, locale="fr-FR", base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def phone(new_phone):
    """A 390×844 French phone, on its own browser context."""
    return new_phone()


JS_ERRORS = pytest.StashKey[list]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    try:
        result = yield
    except BaseException as exc:
        # A test that failed (a wait that timed out…) says the page's errors too: they are often why.
        errors = item.stash.get(JS_ERRORS, [])
        if errors:
            exc.add_note("JavaScript errors on the page:\n" + "\n".join(errors))
        raise
    errors = item.stash.get(JS_ERRORS, [])
    if errors:
        pytest.fail("JavaScript errors on the page:\n" + "\n".join(errors), pytrace=False)
    return result


def shot(page, name: str) -> Path:
    """Save a full-page screenshot to var/screenshots/<name>.png and return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def module(name: str) -> str:
    """Return a JavaScript expression (to await) for the page's own instance of static/js/<name>.js.

    The scripts are ES modules that share nothing through `window`: a test imports the module
    from the URL the page's scripts import it from, and gets the same instance.
    """
    return f"(await import(new URL('{name}.js', document.querySelector(\"script[src*='/js/']\").src)))"


def new_sheet(page, slug: str, players: list[str], options: dict | None = None, screenshot: str = "") -> str:
    """Fill the new-sheet form like a user (revealing name fields as needed); return the sheet id."""
    from playwright.sync_api import expect

    page.goto(f"/new/{slug}/")
    for seat, name in enumerate(players):
        field = page.locator(f"#player-{seat}")
        if not field.is_visible():
            page.locator("#add-player").click()
        expect(field).to_be_visible()
        field.fill(name)
    for name, value in (options or {}).items():
        if isinstance(value, bool):
            page.locator(f"input[name=opt-{name}]").set_checked(value)
        elif page.locator(f"input[name=opt-{name}][type=number]").count():
            page.locator(f"input[name=opt-{name}]").fill(str(value))
        else:
            page.locator(f"input[name=opt-{name}][value='{value}']").check()
    if screenshot:
        shot(page, screenshot)
    button = page.locator("button.primary.big")
    expect(button).to_have_text("Commencer la partie")
    button.click()
    page.wait_for_url("**/sheets/*/")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def totals(page) -> list[int]:
    """Return the totals row of the score table, one number per player, in seat order."""
    cells = page.locator("table.scores tfoot tr.total-row td").all_inner_texts()
    return [int(c.replace("−", "-").strip()) for c in cells if c.strip()]


def wait_until(page, predicate: str, arg=None, timeout: float = TIMEOUT_MS):
    """Wait until `predicate` (a JS function, which may return a promise) gives a truthy value in the page; return it.

    For what only a promise answers (the service worker's caches, IndexedDB): Playwright's
    `wait_for_function` does not await the promise its predicate returns, and a promise is
    truthy, so it would return at once, before the condition holds.
    """
    return page.evaluate(
        f"""async (arg) => {{
  const predicate = {predicate};
  const end = performance.now() + {timeout};
  for (;;) {{
    const value = await predicate(arg);
    if (value) return value;
    if (performance.now() > end) throw new Error("still false after {timeout} ms: " + predicate);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }}
}}""",
        arg,
    )


def round_count(page) -> int:
    """Return how many rounds the score table shows."""
    return page.locator("table.scores tbody tr:has(details.cell)").count()


_MARK = """() => { window.__before = {
  main: document.querySelector('main'), errors: document.querySelector('#form-errors'),
  pending: document.querySelectorAll('tr.pending').length }; }"""
_ANSWERED = """() => { const b = window.__before || {}; const errors = document.querySelector('#form-errors');
  return b.main !== document.querySelector('main') || (errors && errors !== b.errors)
    || document.querySelector('#save-notice, #empty-question') !== null
    || document.querySelectorAll('tr.pending').length !== b.pending; }"""


def submit(page, target, *, navigates: bool = False, key: str = ""):
    """Click a save button (or press Enter in `target`) and wait for the page's answer.

    Rounds are saved by the page's script (no navigation): the answer is the sheet
    shown afresh, the errors, a notice, the empty-round question or a pending row.
    """
    if navigates:
        with page.expect_navigation():
            target.click()
        page.wait_for_load_state()
        return
    page.evaluate(_MARK)
    target.press(key) if key else target.click()
    page.wait_for_function(_ANSWERED)
