"""`manage.py run` (what `make run` starts): web + worker + beat on the embedded defaults."""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


@pytest.mark.timeout_sensitive
def test_it_serves_and_purges_through_its_own_worker_and_stops_on_ctrl_c(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(VAR_DIR=str(tmp_path), PURGE_INTERVAL_SECONDS="1", DEBUG="1")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [
            *manage,
            "shell",
            "-c",
            "from datetime import timedelta; from django.utils import timezone; from scoring import services; "
            "from scoring.models import Sheet; "
            "s = services.sheet_create(game='coop', players=['A', 'B'], options={}).sheet; "
            "Sheet.objects.filter(pk=s.pk).update(expires_at=timezone.now() - timedelta(minutes=1)); "
            "services.sheet_create(game='coop', players=['C', 'D'], options={})",
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    db = tmp_path / "db.sqlite3"

    def count():
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT count(*) FROM scoring_sheet").fetchone()[0]

    assert count() == 2
    port = free_port()
    proc = subprocess.Popen(
        [*manage, "run", "--addr", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        assert wait_for(lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).status == 200, 30)
        assert wait_for(lambda: count() == 1, 40), "the worker did not purge the expired sheet"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    assert proc.returncode == 0, out.decode(errors="replace")[-2000:]

    # Every process of the group is gone: nothing still answers or runs.
    def group_gone():
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return True
        return False

    left = ""
    if not wait_for(group_gone, 15):
        left = subprocess.run(["ps", "-o", "pid,stat,args", "-g", str(proc.pid)], capture_output=True, text=True).stdout
        os.killpg(proc.pid, signal.SIGKILL)
    assert not left, left
    assert b"purge: removed 1" in out or count() == 1
