"""The app started the way docs/deployment.md says: the Procfile's own lines, under production settings.

The release line (migrate, collectstatic) then the web line, each run as written by a shell,
with `DEBUG=0`, a secret key, the test's own SQLite and static files under a temporary
`VAR_DIR` and a free port in `PORT`. The server must listen on loopback only, answer a
request the balancer marks `X-Forwarded-Proto: https` (no redirect loop), redirect one
without it to https, and serve the collected static files. The test stops the server it
started (its own process group).
"""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.redis_server import free_port
from tests.test_two_nodes import wait_for_port

ROOT = Path(__file__).resolve().parent.parent
PROCFILE = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if ": " in line)
GUIDE = (ROOT / "docs" / "deployment.md").read_text()


def production_env(var_dir: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "BIND_HOST")}
    return {
        **env,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        "DEBUG": "0",
        "SECRET_KEY": "procfile-test-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "VAR_DIR": str(var_dir),
        "WEB_CONCURRENCY": "1",
        **extra,
    }


def loopback_only(port: int) -> set[str]:
    """Return the local addresses listening on this TCP port (from /proc/net/tcp and tcp6)."""
    addresses = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, _remote, state = row.split()[1:4]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:  # LISTEN
                addresses.add(address)
    return addresses


LOOPBACK = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1, ::1


def get(port: int, path: str, **headers) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", path, headers={"Host": "127.0.0.1", **headers})
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def test_the_guide_gives_the_procfiles_lines():
    assert "collectstatic --noinput" in PROCFILE["release"] and "migrate --noinput" in PROCFILE["release"]
    assert f"| release | `{PROCFILE['release']}`" in GUIDE
    # The guide names the variables; the Procfile gives their defaults (${NAME:-default}).
    web = re.sub(r"\$\{(\w+):-[^}]*\}", r"$\1", PROCFILE["web"])
    assert f"| web | `{web}`" in GUIDE
    assert "X-Forwarded-Proto" in GUIDE


def test_the_web_line_binds_loopback_and_handles_the_proxys_headers_explicitly():
    web = PROCFILE["web"]
    assert "${BIND_HOST:-127.0.0.1}" in web and "0.0.0.0" not in web
    # Either uvicorn ignores forwarded headers (the app reads X-Forwarded-Proto through
    # SECURE_PROXY_SSL_HEADER and X-Forwarded-For through TRUSTED_PROXIES), or it trusts named proxies.
    assert "--no-proxy-headers" in web or ("--proxy-headers" in web and "--forwarded-allow-ips" in web)


def test_the_beats_schedule_is_under_var_dir(tmp_path):
    beat = PROCFILE["beat"]
    schedule = re.search(r"--schedule (\S+)", beat).group(1)
    expanded = subprocess.run(
        ["bash", "-c", f'printf %s "{schedule}"'], env={"VAR_DIR": str(tmp_path)}, capture_output=True, text=True
    ).stdout
    assert Path(expanded).parent == tmp_path


@pytest.fixture
def web(tmp_path):
    """Run the release line, then the web line on a free port; stop the server's process group after."""
    port = free_port()
    env = production_env(tmp_path / "var", PORT=str(port))
    (tmp_path / "var").mkdir()
    release = subprocess.run(
        ["bash", "-c", PROCFILE["release"]], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert release.returncode == 0, release.stderr[-2000:]
    process = subprocess.Popen(["bash", "-c", "exec " + PROCFILE["web"]], cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_for_port(port, process, "the web line", seconds=60)
        yield port, tmp_path / "var"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


def test_the_web_line_serves_https_behind_the_balancer_and_only_on_loopback(web):
    port, var_dir = web
    listening = loopback_only(port)
    assert listening and listening <= LOOPBACK, listening
    # Another address of this machine does not reach it (when the machine has one).
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.connect(("192.0.2.1", 9))  # no packet is sent: it only picks the outgoing address
        other = probe.getsockname()[0]
        probe.close()
    except OSError:
        other = None
    if other and not other.startswith("127."):
        with pytest.raises(OSError):
            socket.create_connection((other, port), timeout=2).close()

    # From the balancer: the request came in over HTTPS, the page answers (no redirect loop).
    page = get(port, "/", **{"X-Forwarded-Proto": "https"})
    assert page.status == 200
    assert "max-age" in (page.getheader("Strict-Transport-Security") or "")
    # Without the header, the app sends the client to https (SECURE_SSL_REDIRECT).
    plain = get(port, "/")
    assert plain.status == 301 and plain.getheader("Location") == "https://127.0.0.1/"
    assert get(port, "/healthz").status == 200  # the balancer's health check needs no header

    # The release line's collectstatic: hashed names, served by the app.
    manifest = json.loads((var_dir / "static" / "staticfiles.json").read_text())["paths"]
    name = next(hashed for source, hashed in manifest.items() if source.endswith(".css"))
    static = get(port, f"/static/{name}", **{"X-Forwarded-Proto": "https"})
    assert static.status == 200 and "css" in static.getheader("Content-Type")
    # The scripts are ES modules: each import names the hashed file, which the app serves.
    table = get(port, "/static/" + manifest["js/table.js"], **{"X-Forwarded-Proto": "https"}).body.decode()
    imported = re.findall(r'from "\./([^"]+)"', table)
    assert sorted(imported) == sorted(
        manifest[f"js/{n}.js"].removeprefix("js/") for n in ("app", "device", "engine", "live", "words")
    )
    for module in imported:
        assert get(port, f"/static/js/{module}", **{"X-Forwarded-Proto": "https"}).status == 200
