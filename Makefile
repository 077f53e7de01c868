# Num scores — the commands a newcomer needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint format bench-engine bench bench-capacity bench-purge bench-leaderboard messages clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py run

test: install
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

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

messages: install
	$(BIN)/python manage.py makemessages -l fr -l en --no-location --ignore '.venv/*' --ignore 'var/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) var
