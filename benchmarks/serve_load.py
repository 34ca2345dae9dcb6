"""Load on the TCP server (``atout serve --listen``, loopback only): throughput and
p50/p99 latency of cheap requests (``legal`` on records of every game) and of PIMC moves
(Coinche card play, ``pimc:worlds=W``), at 1 and N workers; every reply is checked to
be the answer to its own request (ids), none lost or malformed. Appends a table to
benchmarks/RESULTS.md.

Usage: python benchmarks/serve_load.py [--clients 32] [--requests 100] [--workers N]
                                       [--pimc-clients 8] [--pimc-requests 5]
                                       [--worlds 20] [--no-append]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.agents import make_agent  # noqa: E402
from solver.games import get_game  # noqa: E402

GAMES = [("tarot", {}), ("tarot", {"players": 3}), ("tarot", {"players": 5}),
         ("belote", {}), ("coinche", {}), ("tarocchini", {}),
         ("tarocchini", {"game": "terziglio"})]


def start(workers: int):
    p = subprocess.Popen([sys.executable, "-m", "solver.server", "--listen", "127.0.0.1:0",
                          "--workers", str(workers), "--max-queue", "10000"],
                         stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    return p, int(line.split()[3].rsplit(":", 1)[1])


def records_legal() -> list[str]:
    return [get_game(g).new_state(options=o, seed=s).to_record().to_text()
            for g, o in GAMES for s in range(3)]


def records_pimc() -> list[str]:
    out = []
    for seed in range(6):
        s = get_game("coinche").new_state(seed=seed)
        agent = make_agent("heuristic", seed=seed)
        while s.phase != "play" and not s.is_over():
            s.play(agent.choose(s, s.to_act))
        if not s.is_over():
            for _ in range(4 * (seed % 3)):  # trick 1 to trick 3
                s.play(agent.choose(s, s.to_act))
            out.append(s.to_record().to_text())
    return out


def run_load(port: int, clients: int, requests: int, make_req) -> dict:
    lat: list[float] = []
    bad: list[str] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        rng = random.Random(k)
        sock = socket.create_connection(("127.0.0.1", port), timeout=300)
        f = sock.makefile("rwb")
        mine = []
        try:
            for i in range(requests):
                rid = f"{k}-{i}"
                req = make_req(rng) | {"id": rid}
                t = time.perf_counter()
                f.write(json.dumps(req).encode() + b"\n")
                f.flush()
                line = f.readline()
                dt = time.perf_counter() - t
                try:
                    r = json.loads(line)
                except ValueError:
                    bad.append(f"malformed: {line[:80]!r}")
                    continue
                if r.get("id") != rid or not r.get("ok"):
                    bad.append(json.dumps(r)[:200])
                mine.append(dt)
        except OSError as e:
            bad.append(f"lost: {e}")
        finally:
            sock.close()
            with lock:
                lat.extend(mine)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    lat.sort()
    n = len(lat)
    return {"requests": clients * requests, "answered": n, "bad": len(bad),
            "bad_examples": bad[:3], "wall_s": round(wall, 2),
            "per_s": round(n / wall, 1) if wall else 0.0,
            "p50_ms": round(1000 * lat[n // 2], 1) if n else None,
            "p99_ms": round(1000 * lat[min(n - 1, int(n * 0.99))], 1) if n else None}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--pimc-clients", type=int, default=8)
    ap.add_argument("--pimc-requests", type=int, default=5)
    ap.add_argument("--worlds", type=int, default=20)
    ap.add_argument("--no-append", action="store_true")
    a = ap.parse_args()
    legal_recs, pimc_recs = records_legal(), records_pimc()
    rows = []
    for workers in sorted({1, a.workers}):
        p, port = start(workers)
        try:
            r = run_load(port, a.clients, a.requests,
                         lambda rng: {"cmd": rng.choice(["legal", "legal", "legal", "version"]),
                                      "record": rng.choice(legal_recs)})
            rows.append(("legal/version", workers, a.clients, a.requests, r))
            print(rows[-1], flush=True)
            spec = f"pimc:worlds={a.worlds}"
            r = run_load(port, a.pimc_clients, a.pimc_requests,
                         lambda rng, spec=spec: {"cmd": "move",
                                                 "record": rng.choice(pimc_recs),
                                                 "agent": spec, "seed": rng.randrange(100)})
            rows.append((f"move {spec} (coinche play)", workers, a.pimc_clients,
                         a.pimc_requests, r))
            print(rows[-1], flush=True)
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait(60)
    if a.no_append:
        return
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    lines = [
        "", f"## TCP server load (benchmarks/serve_load.py) — "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; commit {commit}. Loopback, one request at a time "
        "per client; latency = request written to reply read.", "",
        "| requests | workers | clients x requests | answered | lost/mixed/malformed | "
        "wall s | req/s | p50 ms | p99 ms |",
        "|---|---|---|---|---|---|---|---|---|"]
    for name, w, c, n, r in rows:
        lines.append(f"| {name} | {w} | {c} x {n} | {r['answered']} | {r['bad']} | "
                     f"{r['wall_s']} | {r['per_s']} | {r['p50_ms']} | {r['p99_ms']} |")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")
    with open(path, "a") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
