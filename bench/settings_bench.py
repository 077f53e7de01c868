"""Settings of the HTTP benchmark (`make bench`): the production settings plus a bare view.

Everything else comes from numapp.settings and its environment variables; bench/load.py
sets DEBUG=0, a throwaway SECRET_KEY, a temporary VAR_DIR and very high throttle rates.
"""

from numapp.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls_bench"
