"""French Tarot exact double-dummy search on full deals (issue 23), side by side with the
search as it was before (the core's baseline switches, same build, same positions).

Deals: benchmarks/deals/tarot<n>_play.txt (``make_deals.py tarot_play``): 50 deals per
player count brought to the first lead by the heuristic player (auction, call, dog,
écart). Questions at the first lead, each with a per-position node budget (the same
for both searches, so a ratio is on the same positions; a search stopped by it counts
at the budget, and the medians are then lower bounds — ``done`` says how many finished;
``ratio_before_now`` is the median of the per-position node ratios of the positions
both finished, ``geo_ratio`` their geometric mean):

* (a) made or not: now ``dd.tarot.analyse``'s first search (the margin E at 0); before
  the probe T >= 1 (what the issue measured);
* (b) the exact T: now (a) then bisection inside what (a) leaves; before plain
  bisection on T;
* (c) every legal card: (b) then each card's search bounded by the value.

Growth table: (a) on positions k tricks before the end (k = 8 .. 18; 3p to 24, 5p to
15), reached by the heuristic player from the same deals, ``--growth-deals`` deals per k.

``before`` (``--baseline before``) = ``set_features(merge2=False, sure_ex=False,
sure_trumps=False, sure_lead=False, partition=False)`` with the T objective: no
points-aware merging of runs, no sure points, no partition search.
``--baseline no-partition``: the same analyse with only partition search off (the
ratio is that technique's); ``--baseline no-sure-facts``: without the sure facts added
after it (``sure_match``, ``sure_won``, ``sure_petit``: see ``TarotCore.set_features``);
``--baseline no-relax``: (a) without the relaxed game's probe first (``relax_first``,
``solver.dd.tarot._made_probe``); ``--baseline no-relax-value``: (b) by the core's
bisection instead of each probe asked in R_D first (``relax_value``,
``_value_relaxed_first``, for (b) and (c); with ``--growth-question value`` or
``cards``); ``--baseline no-relax-cards``: the same for (c) alone; ``--baseline
no-relax-floor``: (b) without R_DD's exact T as its first lower bound (``relax_floor``,
sixteenth session), ``--baseline no-relax-card-floor``: the same for (c)'s cards alone;
``--baseline no-relax-trumps``:
(a) and (b) in R_D instead of R_DT; ``--baseline no-mobility``: the attack's leads in
the core's old order (``mobility``: the lead leaving the opponents the fewest answers
first); ``--baseline no-merge2-relaxed``: points-aware merging off in the relaxed
games (``merge2_relaxed``); ``--baseline no-relax-void``: (a) in R_DT
instead of R_DV; ``--baseline no-relax-discard``: (a) in R_DV instead of R_DD
(a defender's discards deferred); ``--baseline even-fail-race``: R_A and the real game
given equal shares of the race after a relaxed fail (``fail_weight``);
``--baseline thirteenth``: both, the search as the thirteenth session left it;
``--baseline no-lowest``: the relaxed games without their rule that the side their
proofs run against plays only its lowest card of a suit into a trick it surely loses
(``lowest``, fifteenth session), i.e. the fourteenth session's search;
``--baseline no-owed``: R_DD's bounds without what the discards still owed surely
settle (``sure_owed``, eighteenth session); ``--baseline no-owed-tricks``: the same
without the cards the attack's sure tricks will take from the defenders who defer
(``sure_owed_tricks``); ``--baseline no-trumps-last``: (a)'s fail proofs with the
defence's trump leads where the heuristic puts them (``trump_leads_last``, nineteenth
session; on for 4 and 5 players);
``--baseline no-relax-fail``: (a) without R_A beside the real game after a
relaxed fail (``relax_fail``, on by default; with 3 players since the twenty-fifth
session);
``--baseline no-quasi``: the plain table without quasi-symmetry's shape entries
(``quasi``, twenty-second session); ``--baseline fail-weight-64``: R_A favoured 64:1
instead of FAIL_RACE_WEIGHT in (a)'s fail race (both with the doubling race);
``--baseline doubling-race``: (a)'s R_A raced against the real game with doubling
budgets (as before the twenty-fifth session) instead of run alone after the real
game's first budget (``real_first``); ``--baseline no-narrow``: (b)'s bisection waiting
on each probe to its end instead of narrowing around the probes that run past an
allowance (``narrow``, twenty-seventh session; the ``median_width`` / ``sum_width``
columns: the proven T interval's width where (b) stopped, 0 where it finished);
``--baseline no-upper``: (b)'s first probe (and each card's in (c)) not asked in R_A
after the real game's first slice (``relax_upper``, twenty-eighth session);
``--baseline no-classes``: (b) without the score classes (the chelem and the
petit au bout by points-blind sweep probes, ``sweep_classes``, twenty-third session);
``--baseline none``: no "before" rows (the search of now alone, e.g. at a target's
budget). Node counts are deterministic; seconds are on a
shared, noisy machine.

    python benchmarks/dd_tarot.py [--players 4] [--budget 5e6] [--growth-budget 2e6]
                                  [--deals 50] [--growth-deals 10] [--ks 10 12 14]
                                  [--baseline before|no-partition|no-sure-facts|no-relax|no-relax-part|
                                   no-relax-value|no-relax-cards|no-relax-floor|no-relax-card-floor|no-relax-trumps|no-mobility|
                                   no-merge2-relaxed|no-relax-void|no-relax-discard|even-fail-race|thirteenth|
                                   no-lowest|no-owed|no-owed-tricks|no-trumps-last|
                                   no-excuse-last|no-attack-trumps-last|table22|no-relax-fail|
                                   no-quasi|fail-weight-64|no-classes|no-effort|
                                   doubling-race|no-narrow|no-upper|none]
                                  [--per-deal]
                                  [--questions made] [--growth-question made|value|cards]
                                  [--no-append]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import report  # noqa: E402

from solver.agents import make_agent  # noqa: E402
from solver.core import tarot as face  # noqa: E402
from solver.dd import tarot as ddt  # noqa: E402
from solver.games import state_from_record  # noqa: E402
from solver.notation import Record  # noqa: E402

DEALS = Path(__file__).resolve().parent / "deals"
BEFORE = {"merge2": False, "sure_ex": False, "sure_trumps": False, "sure_lead": False,
          "sure_match": False, "mobility": False,
          "partition": False, "quasi": False}
GROWTH_K = {3: range(8, 25, 2), 4: range(8, 19), 5: range(8, 16)}


def load(n: int) -> list:
    """The first-lead states of benchmarks/deals/tarot<n>_play.txt."""
    lines = (DEALS / f"tarot{n}_play.txt").read_text(encoding="utf-8").splitlines()
    return [state_from_record(Record.from_text(x)) for x in lines if x.startswith("[")]


def later(state, i: int, k: int):
    """The position k tricks before the end, the heuristic player at every seat."""
    st = state.copy()
    agents = [make_agent("heuristic", seed=1000 * i + s) for s in range(st.players)]
    while ddt.tricks_left(st) > k or st.trick:
        st.play(agents[st.to_act].choose(st, st.to_act))
    return st


# --baseline: "before" (issue 23's techniques all off, the T probe for made), or now
# with one technique switched off (the same analyse, so the ratio is that technique's)
BASELINES = {"before": None, "no-partition": {"partition": False},
             "no-sure-facts": {"sure_match": False, "sure_won": False, "sure_petit": False},
             "no-relax": {"relax_first": False},
             "no-relax-part": {"relax_part": False},
             "no-relax-value": {"relax_value": False},
             "no-relax-cards": {"relax_cards": False},
             "no-relax-floor": {"relax_floor": False},
             "no-relax-card-floor": {"relax_card_floor": False},
             "no-relax-trumps": {"relax_trumps": False},
             "no-mobility": {"mobility": False},
             "no-merge2-relaxed": {"merge2_relaxed": False},
             "no-relax-void": {"relax_void": False},
             "no-relax-discard": {"relax_discard": False},
             "even-fail-race": {"fail_weight": False, "real_first": False},
             # the search as the thirteenth session left it (R_DV, an even race)
             "thirteenth": {"relax_discard": False, "fail_weight": False,
                            "real_first": False},
             # the relaxed games without the weakened side's lowest-card rule
             # (``lowest``, fifteenth session): the fourteenth session's search
             "no-lowest": {"lowest": False},
             # R_DD without the owed discards' settlement in its bounds (``sure_owed``,
             # eighteenth session)
             "no-owed": {"sure_owed": False},
             # ... with the owed discards but not the cards the attack's sure tricks take
             "no-owed-tricks": {"sure_owed_tricks": False},
             # (a)'s fail proofs with the defence's trump leads where the heuristic
             # puts them (``trump_leads_last``, nineteenth session)
             "no-trumps-last": {"trump_leads_last": False},
             # ... with the trump leads last but the Excuse lead where the heuristic
             # puts it (``excuse_lead_last``, twentieth session)
             "no-excuse-last": {"excuse_lead_last": False},
             # (a)'s made proof (R_DD) with the attack's trump leads where the
             # heuristic puts them (``attack_trump_leads_last``, twentieth session)
             "no-attack-trumps-last": {"attack_trump_leads_last": False},
             # the analysis with a table of 2**22 entries instead of the default 2**20
             # (``tt_bits`` is not a core switch: ask() passes it to analyse)
             "table22": {"tt_bits": 22},
             # the plain table without quasi-symmetry's shape entries (``quasi``,
             # twenty-second session)
             "no-quasi": {"quasi": False},
             # R_A favoured 64:1 in (a)'s fail race instead of FAIL_RACE_WEIGHT
             "fail-weight-64": {"fail_weight": 64, "real_first": False},
             "no-relax-fail": {"relax_fail": False},
             # (b) without the score classes' sweep probes (``sweep_classes``,
             # twenty-third session)
             "no-classes": {"sweep_classes": False},
             # the plain table's slot 0 kept for the deeper entry (cards left) instead
             # of the costlier one (``tt_effort``, twenty-fourth session)
             "no-effort": {"tt_effort": False},
             # (a)'s R_A raced against the real game with doubling budgets instead of
             # run alone after the real game's first budget (``real_first``,
             # twenty-fifth session)
             "doubling-race": {"real_first": False},
             # (b)'s bisection waiting on each probe to the end instead of narrowing
             # around the probes that run past an allowance (``narrow``,
             # twenty-seventh session)
             "no-narrow": {"narrow": False},
             # (b)'s first probe not asked in R_A (the game that favours the attack)
             # after the real game's first slice (``relax_upper``, twenty-eighth
             # session)
             "no-upper": {"relax_upper": False},
             "none": None}   # no "before" rows: the search of now alone (a target's budget)


def ask(state, version: str, question: str, budget: int,
        baseline: str = "before") -> tuple[float, int, bool, int]:
    """(seconds, nodes, finished, the proven T interval's width at the stop: 0 when
    the exact T is known; (b) only, else 0) of one question at ``state``."""
    core = face.from_state(state, tt_bits=20)
    t = time.perf_counter()
    if version == "before" and baseline == "before":
        core.set_features(**BEFORE)
        if question == "made":
            ok = core.probe(1, node_budget=budget) is not None
        else:
            v, ok = core.value(node_budget=budget)
            if ok and question == "cards":
                attack = core.side_of_to_act()
                for card in face.cards_of(core.legal_mask()):
                    core.play(card)
                    left = budget - core.stats()["nodes"]
                    _, ok = core.value(node_budget=max(left, 0), guess=v,
                                       hi=v if attack else None, lo=None if attack else v)
                    core.undo()
                    if not ok:
                        break
        lo, hi = core.last_bounds()
        width = hi - lo if question == "value" and not ok else 0
        return time.perf_counter() - t, core.stats()["nodes"], ok, width
    features = dict(BASELINES[baseline] or {}) if version == "before" else {}
    tt_bits = features.pop("tt_bits", ddt.DEFAULT_TT_BITS)
    a = ddt.analyse(state, node_budget=budget, cards=question == "cards", line=False,
                    tt_bits=tt_bits, features=features or None)
    stage_done = {"made": a.made is not None, "value": a.value is not None,
                  "cards": a.complete}[question]
    if question == "made":
        nodes = a.steps[0][2]
        secs = a.steps[0][1]
    elif question == "value":
        # every step analyse runs up to the exact T (the cards' made status, R_DD's
        # floor and the score classes too: before the twenty-sixth session only
        # "made" and "value" were counted, which left out the floor and the classes)
        upto = [s for s in a.steps if s[0] not in ("cards", "line")]
        nodes = sum(s[2] for s in upto)
        secs = sum(s[1] for s in upto)
    else:
        nodes, secs = a.nodes, a.seconds
    width = a.upper - a.lower if question == "value" else 0
    return secs, nodes, stage_done, width


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(n: int, label: str, res: dict[str, list], budget: int) -> list[dict]:
    rows = []
    for version in ("before", "now") if res["before"] else ("now",):
        r = res[version]
        secs = [x[0] for x in r]
        nodes = [x[1] for x in r]
        rows.append({"players": n, "question": label, "search": version, "positions": len(r),
                     "done": sum(x[2] for x in r), "budget": f"{budget:.2g}",
                     "median_s": statistics.median(secs), "p90_s": _pct(secs, 0.9),
                     "max_s": max(secs), "median_nodes": int(statistics.median(nodes)),
                     "p90_nodes": int(_pct(nodes, 0.9)), "max_nodes": max(nodes),
                     "median_width": statistics.median(x[3] for x in r),
                     "sum_width": sum(x[3] for x in r),
                     "ratio_before_now": None, "geo_ratio": None, "ratio_on": None})
    if not res["before"]:
        return rows
    both = [(b[1], w[1]) for b, w in zip(res["before"], res["now"], strict=True) if b[2] and w[2]]
    ratio = statistics.median(b / max(w, 1) for b, w in both) if both else None
    rows[-1]["ratio_before_now"] = ratio
    rows[-1]["geo_ratio"] = statistics.geometric_mean(
        max(b, 1) / max(w, 1) for b, w in both) if both else None
    rows[-1]["ratio_on"] = len(both)
    return rows


def run(quick: bool = False) -> list[dict]:
    """For dd_speed.py: the first-lead rows (quick: 4p, 10 deals, 1M nodes)."""
    if quick:
        return measure([4], 10, 1_000_000, 0, 0, ["made", "value"])["first lead"]
    return measure([3, 4, 5], 50, 5_000_000, 0, 0, ["made", "value", "cards"])["first lead"]


def measure(players: list[int], deals: int, budget: int, growth_deals: int,
            growth_budget: int, questions: list[str],
            baseline: str = "before", growth_question: str = "made",
            per_deal: bool = False) -> dict[str, list[dict]]:
    first: list[dict] = []
    growth: list[dict] = []
    versions = ("now",) if baseline == "none" else ("before", "now")
    for n in players:
        everything = load(n)
        states = everything[:deals]
        for q in (questions if deals else ()):
            res: dict[str, list] = {"before": [], "now": []}
            for st in states:
                for version in versions:
                    res[version].append(ask(st, version, q, budget, baseline))
                if per_deal:
                    # which deals sit where (the median of a subset can mislead)
                    i = len(res["now"]) - 1
                    print(f"{n}p deal {i} {q}: " + "  ".join(
                        f"{v} {res[v][i][1]:,} nodes {res[v][i][0]:.2f} s"
                        f"{'' if res[v][i][2] else ' (open'}"
                        f"{'' if res[v][i][2] or q != 'value' else f', width {res[v][i][3]}'}"
                        f"{'' if res[v][i][2] else ')'}" for v in versions),
                        flush=True)
            first.extend(summary(n, f"({'abc'['made value cards'.split().index(q)]}) {q}",
                                 res, budget))
            print(first[-1], flush=True)
        for k in (GROWTH_K[n] if growth_deals else ()):
            res = {"before": [], "now": []}
            for i, st in enumerate(everything[:growth_deals]):
                pos = later(st, i, k)
                for version in versions:
                    res[version].append(ask(pos, version, growth_question, growth_budget,
                                            baseline))
            label = {"made": "(a) made", "value": "(b) value",
                     "cards": "(c) cards"}[growth_question]
            rows = summary(n, f"{label}, {k} left", res, growth_budget)
            growth.extend(rows)
            print(rows[-1], flush=True)
    return {"first lead": first,
            f"growth by tricks left ({growth_question})": growth}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--budget", type=float, default=5e6)
    ap.add_argument("--growth-deals", type=int, default=10)
    ap.add_argument("--growth-budget", type=float, default=2e6)
    ap.add_argument("--questions", nargs="*", default=["made", "value", "cards"])
    ap.add_argument("--baseline", choices=sorted(BASELINES), default="before",
                    help="what 'before' is: issue 23's techniques all off, or now "
                         "without one of them")
    ap.add_argument("--ks", type=int, nargs="*", default=None,
                    help="tricks left for the growth table (default: per player count)")
    ap.add_argument("--growth-question", choices=["made", "value", "cards"], default="made",
                    help="the question of the growth table: (a) made, (b) the exact T or "
                         "(c) every card")
    ap.add_argument("--per-deal", action="store_true",
                    help="print each first-lead deal's nodes and seconds (not appended)")
    ap.add_argument("--no-append", action="store_true")
    a = ap.parse_args()
    if a.ks:
        for n in GROWTH_K:
            GROWTH_K[n] = a.ks
    sections = measure(a.players, a.deals, int(a.budget), a.growth_deals, int(a.growth_budget),
                       a.questions, a.baseline, a.growth_question, a.per_deal)
    title = ("the search of now alone" if a.baseline == "none"
             else f"{a.baseline} vs now (baseline {a.baseline})")
    report(f"Tarot full-deal DD search (dd_tarot.py), {title}", sections,
           append=not a.no_append)


if __name__ == "__main__":
    main()
