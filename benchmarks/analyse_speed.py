"""Speed of the analysis for people (issue 27): deals per second of ``atout analyse``
(Coinche DD tables and par; Tarot 4p made/fail at a late position) at 1 and 2 local
jobs, with the results checked identical; the time to write a viewer page
(``atout view``, every position of a full deal) per game; and a 1,000-deal file
(``atout analyse`` of 1,000 Coinche deals, ``atout review`` of 1,000 played Belote
deals) when asked. Appends a section to RESULTS.md.

Usage: python benchmarks/analyse_speed.py [--coinche N] [--tarot N] [--thousand]
       [--no-append]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

from _report import report

from solver.analyse import BatchConfig, read_lines, run_batch
from solver.games import get_game, state_from_record
from solver.heuristic import HeuristicAgent
from solver.notation import parse_record
from solver.viewer import write_page

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SEED = 20261202


def coinche_deals(n: int) -> list[str]:
    """``n`` Coinche deals (deal i from seed SEED + i), as the deal text."""
    game = get_game("coinche")
    return [game.new_state(seed=SEED + i).to_record().deal.to_text(game.DECK)
            for i in range(n)]


def tarot_late(n: int, left: int = 7) -> list[str]:
    """``n`` Tarot 4p records of benchmarks/deals/tarot4_play.txt (at the first lead),
    played on by the heuristic player until ``left`` tricks are left."""
    lines = [ln for ln in (HERE / "deals" / "tarot4_play.txt").read_text().splitlines()
             if ln.startswith("[")][:n]
    out = []
    for i, line in enumerate(lines):
        state = state_from_record(parse_record(line))
        agent = HeuristicAgent(seed=i)
        while not state.is_over() and 18 - state.trick_no() > left or (
                not state.is_over() and state.trick):
            state.play(agent.choose(state, state.to_act))
        out.append(state.to_record().to_text())
    return out


def played_belote(n: int) -> list[str]:
    """``n`` Belote deals played with random legal moves (as ``atout play``)."""
    game = get_game("belote")
    out = []
    for i in range(n):
        state = game.new_state(seed=SEED + i)
        rng = random.Random(i)
        while not state.is_over():
            state.play_random(rng)
        out.append(state.to_record().to_text())
    return out


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the jobs' workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def batch_rate(name: str, cfg: BatchConfig, lines: list[str], jobs: int) -> tuple[dict, list]:
    """Wall and CPU time of one batch; the machine's load average beside them (the
    machine is shared: with other work running, 2 jobs cannot get 2 cores)."""
    items = read_lines("bench", "\n".join(lines))
    start, cpu = time.monotonic(), cpu_seconds()
    results = run_batch(cfg, items, jobs=jobs)
    wall, cpu = time.monotonic() - start, cpu_seconds() - cpu
    row = {"batch": name, "deals": len(items), "jobs": jobs, "seconds": round(wall, 2),
           "deals/s": round(len(items) / wall, 2), "CPU s": round(cpu, 1),
           "deals per CPU s": round(len(items) / cpu, 2),
           "load avg": round(os.getloadavg()[0], 1),
           "errors": sum("error" in r for r in results)}
    return row, results


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--coinche", type=int, default=200)
    ap.add_argument("--tarot", type=int, default=30)
    ap.add_argument("--thousand", action="store_true",
                    help="also analyse 1,000 Coinche deals and review 1,000 Belote deals "
                         "(2 jobs)")
    ap.add_argument("--no-view", action="store_true", help="skip the viewer pages")
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    sections: dict[str, list[dict]] = {}

    rows = []
    deals = coinche_deals(args.coinche)
    tarot = tarot_late(args.tarot, left=10)
    for name, cfg, lines in (("coinche DD table + par", BatchConfig(game="coinche"), deals),
                             ("tarot 4p made/fail, T and every card, 10 tricks left",
                              BatchConfig(at="end", deadline=60.0), tarot)):
        one, r1 = batch_rate(name, cfg, lines, 1)
        two, r2 = batch_rate(name, cfg, lines, 2)
        same = r1 == r2
        for row in (one, two):
            row["same results"] = "yes" if same else "NO"
        if "made" in name:
            made = [r["analysis"].get("made") for r in r1 if "analysis" in r]
            one["made proven"] = two["made proven"] = f"{sum(m is not None for m in made)}" \
                f"/{len(made)}"
        rows += [one, two]
    sections["atout analyse: deals per second (1 and 2 local jobs, same deals)"] = rows

    rows = []
    for name in () if args.no_view else ("coinche_deal", "belote_ex10", "tarot4", "tarot3", "tarot5",
                 "tarocchini_ottocento", "tarocchini_terziglio"):
        record = parse_record((ROOT / "examples" / f"{name}.txt").read_text())
        with tempfile.TemporaryDirectory() as tmp:
            start = time.monotonic()
            data = write_page(record, str(Path(tmp) / "page.html"))
            wall = time.monotonic() - start
            size = (Path(tmp) / "page.html").stat().st_size
        card = [f for f in data["frames"] if f.get("values")]
        rows.append({"example": name, "positions": len(data["frames"]),
                     "card positions": len(card),
                     "with estimates": sum(not f["values"]["exact"] for f in card),
                     "seconds": round(wall, 1), "page KB": round(size / 1024)})
    if rows:
        sections["atout view: one page of a full deal (1 s a position, DD table "
                 "included)"] = rows

    if args.thousand:
        rows = []
        big = coinche_deals(1000)
        row, _ = batch_rate("coinche DD table + par", BatchConfig(game="coinche"), big, 2)
        rows.append(row)
        played = played_belote(1000)
        row, results = batch_rate("belote review (2 worlds, 0.05 s a position)",
                                  BatchConfig(review_worlds=2, deadline=0.05), played, 2)
        costs = [sum(t["dd_cost"] for t in r["review"]["totals"]) for r in results
                 if "review" in r]
        row["median DD cost a deal"] = statistics.median(costs) if costs else None
        rows.append(row)
        sections["a 1,000-deal file (2 jobs)"] = rows

    report("Analysis for people: analyse, view, review (benchmarks/analyse_speed.py, "
           "issue 27)", sections, append=not args.no_append)


if __name__ == "__main__":
    main()
