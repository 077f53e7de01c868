"""What the README tells a newcomer about `make run` is true: another port, and where the sign-up code shows."""

import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from numapp import settings as conf
from scoring.management.commands import run

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
PASSWORD = "une phrase assez longue"


class _Ended:
    """A process that has already ended (the command then stops at once)."""

    returncode = 0

    def __init__(self, cmd, env=None):
        self.cmd = cmd

    def poll(self):
        return 0

    def wait(self, timeout=None):
        return 0


def test_the_readmes_other_port_is_the_one_the_server_listens_on(monkeypatch):
    started = []
    addr = re.search(r"manage\.py run --addr (\S+?)`", README).group(1)
    host, port = addr.rsplit(":", 1)
    assert port != "8000"
    with monkeypatch.context() as patch:
        patch.setattr(run.subprocess, "Popen", lambda cmd, env=None: started.append(_Ended(cmd)) or started[-1])
        call_command("run", "--addr", addr, "--no-worker")
    uvicorn = started[0].cmd
    assert uvicorn[uvicorn.index("--host") + 1] == host and uvicorn[uvicorn.index("--port") + 1] == port
    # make run ADDR=… passes the same option.
    make_addr = re.search(r"make run ADDR=(\S+?)`", README).group(1)
    dry = subprocess.run(
        ["make", "-n", "run", f"ADDR={make_addr}"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert f"manage.py run --addr {make_addr}" in dry.stdout


@pytest.mark.django_db
def test_the_sign_up_code_is_printed_whole_among_the_servers_lines(client, settings, capsys):
    assert "printed whole" in README and "console email backend" in README
    assert conf.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"  # the default, under make run
    settings.EMAIL_BACKEND = conf.EMAIL_BACKEND  # (the tests' own is Django's in-memory outbox)
    client.post("/accounts/signup/", {"email": "ana@example.org", "password1": PASSWORD, "password2": PASSWORD})
    printed = capsys.readouterr().out
    assert "To: ana@example.org" in printed
    assert re.search(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4}|[A-Z0-9]{6})\s*$", printed, flags=re.M)  # the code, on its own line
