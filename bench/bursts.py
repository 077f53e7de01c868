"""Bursts of concurrent requests against one uvicorn process: what a push to a table's phones sends.

Run from the repo root: ``python bench/bursts.py`` (about a minute; ``--help`` for the options).
A change pushed to a table's phones brings their page requests at once. This sends bursts of
``--size`` concurrent GETs of the bare page (bench/urls_bench_bare.py: a small JSON object, the
app's middleware) every ``--gap`` seconds for ``--seconds`` to one uvicorn process (the
Procfile's options), for each way of serving it:

- ``stock``: Django's own ASGI handler, a thread started and joined for each request;
- ``lanes``: web/lanes.py's LaneHandler (two long-lived threads), full collections as Python makes them;
- ``app``: numapp.asgi as the Procfile runs it (lanes, and gc.freeze once loaded).

and prints p50 / p99 / max of the requests' latency (connection included) and the full (gen-2)
collections the server made, with their longest pause. docs/performance.md, « Results, 2026-12-07 ».
"""

import argparse
import asyncio
import os
import pathlib
import secrets
import subprocess
import sys
import tempfile
import time

import load

VARIANTS = {
    "stock": "bench.asgi_variants:stock",
    "lanes": "bench.asgi_variants:lanes_unfrozen",
    "app": "numapp.asgi:application",
}
GC_LOG = """
import gc, sys, time
_started = {}
def _watch(phase, info):
    if info["generation"] != 2:
        return
    if phase == "start":
        _started["at"] = time.perf_counter()
    else:
        print(f"full collection {(time.perf_counter() - _started['at']) * 1000:.1f} ms", file=sys.stderr, flush=True)
gc.callbacks.append(_watch)
"""


def quantile(times: list[float], p: float) -> float:
    """Return the `p` quantile of sorted `times`, in ms."""
    return times[min(len(times) - 1, int(p * len(times)))] * 1000


async def one(port: int) -> float:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"GET /bench/bare HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n"
    )
    await writer.drain()
    answer = await reader.read()
    writer.close()
    if b" 200 " not in answer[:16]:
        raise RuntimeError(answer[:200])
    return time.perf_counter() - started


async def bursts(port: int, size: int, gap: float, seconds: float) -> list[float]:
    tasks, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        tasks += [asyncio.ensure_future(one(port)) for _ in range(size)]
        await asyncio.sleep(gap)
    return sorted(await asyncio.gather(*tasks))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=8, help="concurrent requests a burst (default 8)")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between bursts (default 0.05)")
    parser.add_argument("--seconds", type=float, default=15, help="length of each run (default 15)")
    parser.add_argument("--only", choices=list(VARIANTS), action="append", help="run this variant only")
    args = parser.parse_args()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="numapp-bursts-"))
    site = tmp / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(GC_LOG)
    env = load.bench_env(tmp) | {
        "DJANGO_SETTINGS_MODULE": "bench.settings_bench_bare",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "PYTHONPATH": os.pathsep.join([str(site), str(load.ROOT)]),
    }
    load.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], env=env, capture=True)
    print(
        f"bursts of {args.size} GETs every {args.gap * 1000:.0f} ms for {args.seconds:.0f} s, one uvicorn process; load average {os.getloadavg()[0]:.2f}"
    )
    for name in args.only or VARIANTS:
        port, log = load.free_port(), tmp / f"{name}.log"
        with log.open("w") as out:
            server = load.start(
                [sys.executable, "-m", "uvicorn", VARIANTS[name], "--host", "127.0.0.1", "--port", str(port),
                 "--no-access-log", "--timeout-keep-alive", "5"],
                cwd=load.ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            load.wait_ready(f"http://127.0.0.1:{port}", server, log)
            times = asyncio.run(bursts(port, args.size, args.gap, args.seconds))
        finally:
            server.terminate()
            server.wait(10)
        pauses = [float(line.split()[2]) for line in log.read_text().splitlines() if line.startswith("full collection")]
        longest = f", longest {max(pauses):.0f} ms" if pauses else ""
        print(
            f"  {name:6} n={len(times)}  p50 {quantile(times, 0.5):6.1f}  p99 {quantile(times, 0.99):6.1f}  max {times[-1] * 1000:6.1f} ms"
            f"  full collections {len(pauses)}{longest}"
        )


if __name__ == "__main__":
    main()
