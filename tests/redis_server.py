"""A private redis-server for tests that stop, hang or restart Redis.

Each server runs on a free port of 127.0.0.1, in its own temporary directory, with no
persistence, as a child process of the test run: a test stops, pauses or kills only the
server it started, never the shared Redis of the machine (or of CI) on port 6379.
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

STARTUP_SECONDS = 10


def require_redis_server() -> str:
    """Return the path of redis-server; skip the test without it (fail in CI, which installs it)."""
    path = shutil.which("redis-server")
    if path:
        return path
    if os.environ.get("CI") == "true":
        pytest.fail("redis-server is not on PATH: .ci/run must install it (apt-get install redis-server)")
    pytest.skip("redis-server is not on PATH (apt-get install redis-server to run the Redis fault tests)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serving_pid(port: int, timeout: float = 0.2) -> int | None:
    """Return the process id of the Redis answering on `port` (INFO server), None if none answers."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"INFO server\r\n")
            reply = b""
            while b"process_id:" not in reply or not reply.split(b"process_id:", 1)[1].count(b"\r\n"):
                chunk = sock.recv(4096)
                if not chunk:
                    return None
                reply += chunk
    except OSError:
        return None
    return int(reply.split(b"process_id:", 1)[1].split(b"\r\n", 1)[0])


class RedisServer:
    """One redis-server owned by the test: start, stop, pause (SIGSTOP), resume, close."""

    def __init__(self, binary: str):
        self.binary = binary
        self.dir = tempfile.mkdtemp(prefix="numapp-redis-")
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.paused = False
        self.served = False

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> "RedisServer":
        """Start the server on its port (the same one after a stop) and wait until it answers."""
        assert self.process is None or self.process.poll() is not None, "already running"
        for _ in range(3):
            log = open(os.path.join(self.dir, "redis.log"), "ab")
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--dir",
                    self.dir,
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            log.close()
            deadline = time.monotonic() + STARTUP_SECONDS
            while time.monotonic() < deadline and self.process.poll() is None:
                # Our own process, not another server that took the port meanwhile.
                if serving_pid(self.port) == self.process.pid:
                    self.served = True
                    return self
                time.sleep(0.05)
            self.stop()
            # Another process took the port between free_port() and the start: try another
            # one, unless a test restarts the server and relies on its address.
            if not self.served:
                self.port = free_port()
        raise RuntimeError(f"redis-server did not start on port {self.port}; see {self.dir}/redis.log")

    def stop(self) -> None:
        """Stop the server (SIGKILL: an outage, not a clean shutdown) and wait for it to exit."""
        if self.process is None or self.process.poll() is not None:
            return
        self.resume()
        self.process.kill()
        self.process.wait(timeout=STARTUP_SECONDS)

    def pause(self) -> None:
        """Freeze the server (SIGSTOP): connections are accepted by the kernel, nothing answers."""
        assert self.process is not None and self.process.poll() is None
        os.kill(self.process.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        if self.paused and self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)
        self.paused = False

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
