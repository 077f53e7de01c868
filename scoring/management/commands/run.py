"""Start the whole app on one machine: the web server (uvicorn, ASGI) and a Celery worker with beat.

`make run` calls this. Ctrl-C (SIGINT) or SIGTERM stops every process it started.
"""

import os
import signal
import subprocess
import sys
import time

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the web app and a Celery worker with beat; Ctrl-C stops them all."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--no-worker", action="store_true")

    def handle(self, *args, addr, no_worker, **options):
        env = dict(os.environ)
        python = sys.executable
        host, _, port = addr.rpartition(":")
        # The same ASGI server as production (Procfile): the live table's streams need it.
        commands = [
            [
                python,
                "-m",
                "uvicorn",
                "numapp.asgi:application",
                "--host",
                host or "127.0.0.1",
                "--port",
                port,
                "--no-proxy-headers",
                "--no-access-log",
                "--timeout-graceful-shutdown",
                "3",
            ]
        ]
        if not no_worker:
            commands.append(
                [
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "numapp",
                    "worker",
                    "--beat",
                    "--loglevel",
                    "INFO",
                    "--concurrency",
                    "1",
                    "--pool",
                    "solo",
                ]
            )
        procs = [subprocess.Popen(cmd, env=env) for cmd in commands]
        self.stdout.write(f"Num scores on http://{addr}/ (Ctrl-C stops the app and its worker)")
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping and all(p.poll() is None for p in procs):
                time.sleep(0.3)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 10
            for p in procs:
                try:
                    p.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    p.kill()
        code = max((p.returncode or 0) for p in procs) if not stopping else 0
        if code:
            sys.exit(code)
