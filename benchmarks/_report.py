"""Shared by the benchmark runners: print rows as a table and append them to RESULTS.md
with the date, the machine and the commit (medians and ratios; the machines are noisy)."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=HERE, capture_output=True, text=True).stdout.strip()
        return out + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def fmt(v) -> str:
    if isinstance(v, float):
        if v == 0:
            return "0"
        if abs(v) >= 1000:
            return f"{v:,.0f}"
        if abs(v) >= 10:
            return f"{v:.1f}"
        return f"{v:.3g}"
    return "" if v is None else str(v)


def _one_table(rows: list[dict]) -> str:
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for r in rows:
        lines.append("| " + " | ".join(fmt(r.get(k)) for k in keys) + " |")
    return "\n".join(lines) + "\n"


def table(rows: list[dict]) -> str:
    """Markdown tables of ``rows``: consecutive rows with the same keys share a table
    (columns that no row of it fills are left out), so a section mixing kinds of rows
    stays readable."""
    if not rows:
        return "(no rows)\n"
    groups: list[list[dict]] = []
    for r in rows:
        if groups and list(groups[-1][0]) == list(r):
            groups[-1].append(r)
        else:
            groups.append([r])
    # within a table, drop the columns no row fills
    return "\n".join(_one_table([{k: v for k, v in r.items()
                                   if any(x.get(k) not in (None, "") for x in g)}
                                  for r in g]) for g in groups)


def report(title: str, sections: dict[str, list[dict]], append: bool = True) -> str:
    """Print and (optionally) append a dated section to RESULTS.md."""
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = f"\n## {title} — {stamp}\n\nMachine: {machine()}; commit {commit()}.\n"
    for name, rows in sections.items():
        text += f"\n### {name}\n\n{table(rows)}"
    print(text)
    if append:
        if not RESULTS.exists():
            RESULTS.write_text("# Benchmark results\n\nAppended by the scripts in this folder; "
                               "newest at the end. Figures are medians unless stated.\n")
        with RESULTS.open("a") as f:
            f.write(text)
    return text


def median_rate(fn, work: int, repeats: int) -> float:
    """The median over ``repeats`` runs of ``fn()`` of ``work`` / its CPU seconds (the
    core benchmarks' rates: playouts or legal generations a second)."""
    import statistics
    import time

    rates = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        rates.append(work / max(1e-9, time.process_time() - t))
    return statistics.median(rates)


def run_modules(prefix: str, quick: bool, only: list[str] | None) -> dict[str, list[dict]]:
    """Import every benchmarks/<prefix>_<game>.py and call its run(quick)."""
    import importlib
    import sys
    import traceback

    sys.path.insert(0, str(HERE))
    sections: dict[str, list[dict]] = {}
    for path in sorted(HERE.glob(f"{prefix}_*.py")):
        game = path.stem[len(prefix) + 1:]
        if game == "speed" or (only and game not in only):
            continue
        try:
            module = importlib.import_module(path.stem)
            sections[game] = module.run(quick=quick)
        except Exception as e:  # a broken game benchmark must not hide the others
            traceback.print_exc()
            sections[game] = [{"game": game, "error": f"{type(e).__name__}: {e}"}]
    return sections


def runner_main(kind: str, title: str) -> None:
    """Command line of benchmarks/<kind>_speed.py: run every <kind>_<game>.py module."""
    import argparse

    parser = argparse.ArgumentParser(description=f"{title}: runs benchmarks/{kind}_<game>.py "
                                     "and appends the tables to benchmarks/RESULTS.md")
    parser.add_argument("games", nargs="*", help="only these games (default: all)")
    parser.add_argument("--quick", action="store_true", help="short run (smoke test)")
    parser.add_argument("--no-append", action="store_true", help="do not write RESULTS.md")
    args = parser.parse_args()
    sections = run_modules(kind, args.quick, args.games or None)
    report(title + (" (quick)" if args.quick else ""), sections, append=not args.no_append)
