"""The browser tests wait on promises with `wait_until`, never with `wait_for_function`.

Playwright's `wait_for_function` does not await the promise its predicate returns: a
promise is truthy, so the wait ends at once, before what it waits for holds (the service
worker's caches filled, for instance), and the test then passes or fails by chance. The
predicates are read with `ast`: a literal, or a module-level name bound to one.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# What a predicate can only answer through a promise.
ASYNC = ("async", ".then(", "await", "Promise", "caches.", "indexedDB")


def promised_waits() -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name) and isinstance(node.value.value, str)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "wait_for_function" and node.args):
                continue
            first = node.args[0]
            text = first.value if isinstance(first, ast.Constant) else constants.get(getattr(first, "id", ""), "")
            if isinstance(text, str) and any(word in text for word in ASYNC):
                found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    return found


def test_no_browser_test_gives_a_promise_to_wait_for_function():
    assert promised_waits() == []
