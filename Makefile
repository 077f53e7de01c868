# Num scores — the commands a newcomer needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test fuzz lint format bench-engine bench bench-capacity bench-purge bench-leaderboard bench-players messages vendor icons clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# ADDR=host:port serves elsewhere than 127.0.0.1:8000 (make run ADDR=127.0.0.1:8080).
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py run $(if $(ADDR),--addr $(ADDR))

# The suite in one process per core (pytest-xdist; tests/conftest.py keeps each process's database
# and cache keys apart); PYTEST_ARGS="-n 0" runs it in this process alone.
test: install
	$(BIN)/python -m pytest -q -n auto --dist loadgroup $(PYTEST_ARGS)

# Property tests with new random examples (tests/fuzzing.py): FUZZ_EXAMPLES per test (1000),
# FUZZ_SEED=<n> to replay a run; what fails is kept in var/hypothesis/ and tried first next time.
fuzz: install
	FUZZ=1 $(BIN)/python -m pytest -q tests/api/test_fuzz_schema.py tests/games tests/test_sheet_state_machine.py tests/test_parsing.py \
		$(if $(FUZZ_SEED),--hypothesis-seed=$(FUZZ_SEED)) $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench-engine: install
	$(BIN)/python bench/engine.py

# HTTP load test: gunicorn + wrk on 127.0.0.1, about 3 minutes (docs/performance.md).
# PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set, SQLite otherwise; BENCH_ARGS=--help.
bench: install
	$(BIN)/python bench/load.py $(BENCH_ARGS)

# Capacity: how many live tables one server carries, SQLite then PostgreSQL + Redis when
# DATABASE_URL/REDIS_URL are set; about 15 minutes on a quiet machine, more on a busy one (failed
# steps are played again); BENCH_ARGS=--quick under 3 (docs/performance.md).
bench-capacity: install
	$(BIN)/python bench/capacity.py $(BENCH_ARGS)

bench-purge: install
	$(BIN)/python bench/purge.py $(BENCH_ARGS)

bench-leaderboard: install
	$(BIN)/python bench/leaderboard.py $(BENCH_ARGS)

# « Mes joueurs » and « Ma table » for one account of 10,000 games: one request at a time, then
# under load (uvicorn as in the Procfile, wrk -c 8 and 16, a game finishing every second), about
# 8 minutes; BENCH_ARGS="--db-url postgres://…/numapp_players" for PostgreSQL (docs/performance.md).
bench-players: install
	$(BIN)/python bench/players.py --load $(BENCH_ARGS)

# Every text users see, in gettext catalogues. The pages' (templates, views) and the browser scripts'
# (JavaScriptCatalog) are Django's: locale/<lang>/LC_MESSAGES/django.po and djangojs.po. The engines'
# (scoring/games: plain Python, no Django, run in the browser too) are a domain of their own, collected
# by xgettext with the markers of scoring/games/i18n.py into scoring/games/locale/<lang>/LC_MESSAGES/engine.po.
# compilemessages compiles them all (the .mo files are committed: a fresh clone needs no gettext tools).
ENGINE_LOCALE := scoring/games/locale
ENGINE_KEYWORDS := --keyword --keyword=_:2 --keyword=n_:2,3 --keyword=N_ --keyword=pN_:1c,2 --keyword=Nn_:1,2
messages: install
	$(BIN)/python manage.py makemessages -l fr -l en --no-location --ignore '.venv/*' --ignore 'var/*' --ignore 'node_modules/*' --ignore 'scoring/games/*'
	$(BIN)/python manage.py makemessages -d djangojs -l fr --no-location --ignore '.venv/*' --ignore 'var/*' --ignore 'node_modules/*' --ignore 'static/vendor/*' --ignore 'tests/*'
	xgettext --language=Python --from-code=UTF-8 --no-location $(ENGINE_KEYWORDS) --output=$(ENGINE_LOCALE)/engine.pot scoring/games/*.py
	for po in $(ENGINE_LOCALE)/*/LC_MESSAGES/engine.po; do msgmerge --quiet --update --backup=none $$po $(ENGINE_LOCALE)/engine.pot; done
	rm $(ENGINE_LOCALE)/engine.pot
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

# The in-page Python runtime (Pyodide, pinned in package.json / package-lock.json): only the
# files the engines need are copied, and they are committed, so `make run` needs no Node.
# axe-core (a devDependency) is the accessibility checker the browser tests inject into each page:
# it is copied next to them, never served by the app.
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
vendor:
	npm ci --ignore-scripts --no-audit --no-fund
	rm -rf static/vendor/pyodide
	mkdir -p static/vendor/pyodide
	cd node_modules/pyodide && cp $(PYODIDE_FILES) ../../static/vendor/pyodide/
	mkdir -p tests/e2e/vendor/axe-core
	cp node_modules/axe-core/axe.min.js node_modules/axe-core/LICENSE tests/e2e/vendor/axe-core/

# The app's icons, drawn from static/favicon.svg (Debian: apt-get install librsvg2-bin).
icons:
	rsvg-convert -w 192 -h 192 static/favicon.svg -o static/icons/icon-192.png
	rsvg-convert -w 512 -h 512 static/favicon.svg -o static/icons/icon-512.png
	rsvg-convert -w 512 -h 512 static/icons/maskable.svg -o static/icons/maskable-512.png

clean:
	rm -rf $(VENV) var
