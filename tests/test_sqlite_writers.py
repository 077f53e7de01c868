"""SQLite shared by several processes, as `make run` shares it (the web server and the worker).

Django's own SQLite backend, with BEGIN IMMEDIATE and a busy timeout (numapp/settings.py):
writers started together wait for the write lock in turn, none fails with "database is locked".
"""

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WRITERS, ROUNDS = 3, 8
ROUND = {"entries": {"A": {"points": 0}, "B": {"points": 0}}}  # nobody nears the 30 that ends a game

CREATE = """
import json, django
django.setup()
from django.test import Client
r = Client().post("/api/v1/sheets/", {"game": "numx-malus", "players": ["A", "B"]}, content_type="application/json")
print(json.dumps(r.json()))
"""

WRITE = """
import json, os, sys, time, django
django.setup()
from django.test import Client
sheet, token, go, body, count = sys.argv[1:6]
client = Client()
open(f"{go}.{os.getpid()}.ready", "w").close()
while not os.path.exists(go):  # every writer ready, then all start at once
    time.sleep(0.01)
codes = [
    client.post(
        f"/api/v1/sheets/{sheet}/rounds/", body, content_type="application/json", HTTP_X_EDIT_TOKEN=token
    ).status_code
    for _ in range(int(count))
]
print(json.dumps(codes))
"""


@pytest.mark.timeout_sensitive
def test_it_saves_every_round_when_processes_write_one_sheet_at_once(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(VAR_DIR=str(tmp_path), DEBUG="1", DJANGO_SETTINGS_MODULE="numapp.settings", LOG_LEVEL="WARNING")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    created = subprocess.run(
        [sys.executable, "-c", CREATE], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    sheet = json.loads(created.stdout.strip().splitlines()[-1])
    go = tmp_path / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITE, sheet["id"], sheet["edit_token"], str(go), json.dumps(ROUND), str(ROUNDS)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(WRITERS)
    ]
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("go.*.ready"))) < WRITERS:  # each writer has imported Django and waits
        assert time.monotonic() < deadline and all(w.poll() is None for w in writers), "a writer did not start"
        time.sleep(0.01)
    go.touch()
    outputs = [w.communicate(timeout=120) for w in writers]
    for (out, err), w in zip(outputs, writers, strict=True):
        assert w.returncode == 0, err[-2000:]
        assert json.loads(out.strip().splitlines()[-1]) == [201] * ROUNDS, err[-2000:]
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        numbers = [n for (n,) in conn.execute("SELECT number FROM scoring_round WHERE sheet_id = ?", [sheet["id"]])]
        version = conn.execute("SELECT version FROM scoring_sheet WHERE id = ?", [sheet["id"]]).fetchone()[0]
    assert sorted(numbers) == list(range(1, WRITERS * ROUNDS + 1))
    assert version == 1 + WRITERS * ROUNDS
