"""How many examples the property tests run: a fixed set in `make test`, many new ones under `make fuzz`.

`make test` (and CI) load the "numapp" Hypothesis profile (tests/conftest.py): examples
derived from each test's own code, no example database, so a run never fails by
chance. `make fuzz` sets FUZZ=1: random examples, FUZZ_EXAMPLES of them per test
(1000 unless set), failures kept in var/hypothesis/ and replayed first next time;
FUZZ_SEED=<n> replays one run (`--hypothesis-seed`).
"""

import os

FUZZ = os.environ.get("FUZZ", "") not in ("", "0")
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or 1000)


def examples(normal: int) -> int:
    """Return a test's number of examples: ``normal`` in ordinary runs, at least FUZZ_EXAMPLES under make fuzz."""
    return max(normal, FUZZ_EXAMPLES) if FUZZ else normal
