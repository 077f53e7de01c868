"""Settings of the capacity benchmark's bare app (`make bench-capacity`): the bench settings, bare URLs.

The same Django, middleware and server as the app; every path the table's phones use is
answered by a view that does nothing but what a live table cannot do without (bench/urls_bench_bare.py).
"""

from bench.settings_bench import *  # noqa: F403

ROOT_URLCONF = "bench.urls_bench_bare"
