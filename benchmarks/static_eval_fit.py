"""How good is the Tarot core's static evaluation (``static_eval``, the horizon search's
leaf value) against the exact double-dummy value, and how much better a small fitted
linear model is (issue 28, PIMC's horizon search early in the deal).

Positions: the 50 deals of benchmarks/deals/tarot<n>_play.txt (``dd_tarot.load``),
each played from its first lead ``--variants`` times; variant 0 is the heuristic player
at every seat (the positions of ``dd_tarot.later``), variant v >= 1 the heuristic player
(seeds 1000*deal + seat + 7919*v) with, at each card, probability ``--eps`` of a uniformly
random legal card instead (``random.Random(f"{deal}/{v}")``), so that the positions vary.
Each play-through is cut at the trick boundaries ``--ks`` tricks before the end.

Exact value: ``core.set_objective("margin"); core.value(node_budget=--budget)``, the
margin E = P - R(B) of TAROT-COUNT-4 in doubled points (made iff E >= 0); positions
whose search hits the budget are skipped and counted. ``core.static_eval()`` on the same
objective is the estimate (equal to E on a finished deal). With ``--objective-t`` the
same is done for T (TAROT-SCORE-1, per-defender points with base, multiplier, petit au
bout, chelem, poignées), whose static value is the margin estimate scored by f_points.

Models, fitted by least squares (numpy) on the deals with ``deal % 3 != 2`` and scored
on the others (no deal in both):

* ``static``: static_eval as it is;
* ``calib``: E ~ a + b * static_eval (its scale and bias corrected);
* ``fit``: E ~ intercept + the features below (static_eval among them);
* ``fit-no-se``: the same features without static_eval (could they replace it?);
* ``split-fit``: the shape the core could use: static_eval's own bouts and captured
  points (``nosplit``: E if the attack won no other live point) kept with coefficient
  1, and its point split (``split``) replaced by intercept + a linear form of
  ``SPLIT_FEATURES`` fitted to E - nosplit;
* ``base-fit``: the same shape with ``base`` kept at coefficient 1 instead of
  ``nosplit`` (no Petit rule: the Petit features correct it), the other features fitted.

Features (attack minus defence where both exist, doubled points): ``se``; ``base``: the
attack's captured points + 9 per bout its hands hold - R(B) at the bouts it has
captured or holds; ``split``: static_eval's share of the non-bout live points by
trick-taking power (4 per master trump, 2 per other trump, 3 per plain-suit master, 2
per cut), unclamped; ``live_diff``: non-bout points in the attack's hands minus the
defence's; ``live``: all non-bout live points; ``tr_diff``: trumps; ``mtr_diff``:
trumps above all of the other side's; ``mast_diff``: plain suits whose highest live
card a side holds; ``cut_diff``: voids of a seat holding trumps in live suits (at most
its trumps); ``lead``: the attack leads; ``petit_a`` / ``petit_d``: the attack / the
defence holds the live Petit; ``petit_a_hunted``: the attack holds it and the defence
holds more trumps or the top trump; ``kings_diff``: live kings held.

``--evaluations``: instead of fitting, the evaluations built into the core
(``solver.dd.tarot.EVALUATIONS``: ``static``, ``fit``, ``soft``) against the exact
values on the same kind of positions: the held-out deals only (each player count's fit
saw the others: 4p at 8-11 tricks left, 3p at 8-14, 5p at 8-11), unless ``--all-deals``
(for positions the fits have not seen: other variants); a cache without their figures
is completed by replaying its positions.

Errors on the held-out deals by tricks left: MAE, RMSE, bias (mean of prediction -
exact), sign agreement (prediction >= 0 iff E >= 0: made/fail right). Deterministic.

    python benchmarks/static_eval_fit.py [--players 4] [--ks 8 9 10 11] [--variants 8]
        [--eps 0.2] [--budget 5e6] [--objective-t] [--cache /tmp/sef.json] [--evaluations]
        [--first-variant 0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dd_tarot import load  # noqa: E402

from solver.agents import make_agent  # noqa: E402
from solver.core import tarot as face  # noqa: E402
from solver.dd.tarot import EVALUATIONS  # noqa: E402
from solver.games import tarot as rules  # noqa: E402

R2 = [112, 102, 82, 72]     # doubled required points by bouts (TAROT-COUNT-2)
PETIT, MONDE, EX = 0, 20, 21
BOUTS = (PETIT, MONDE, EX)
TRUMPS = (1 << 21) - 1
SUIT = [((1 << 14) - 1) << (22 + 14 * s) for s in range(4)]
KINGS = sum(1 << (22 + 14 * s + 13) for s in range(4))
PTS = [face.card_points2(c) for c in range(78)]
FEATURES = ["se", "base", "split", "live_diff", "live", "tr_diff", "mtr_diff", "mast_diff",
            "cut_diff", "lead", "petit_a", "petit_d", "petit_a_hunted", "kings_diff"]
SPLIT_FEATURES = ["split", "live", "live_diff", "tr_diff", "mtr_diff", "mast_diff",
                  "cut_diff", "lead", "kings_diff", "petit_a", "petit_d", "petit_a_hunted"]


def bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def pts(m: int) -> int:
    return sum(PTS[c] for c in bits(m))


def features(core, sides: list[int]) -> dict:
    """The features of a trick-boundary core position (see the module docstring)."""
    n = core.n
    hands = [core.hand(s) for s in range(n)]
    side_m = [0, 0]
    for s in range(n):
        side_m[sides[s]] |= hands[s]
    a, d = side_m[1], side_m[0]
    live = a | d
    bmask = sum(1 << b for b in BOUTS)
    c = core.counts()
    held_b = (a & bmask).bit_count()
    bouts = min(3, c["att_bouts"] + held_b)
    at, dt = a & TRUMPS, d & TRUMPS
    mtr_a = (at >> dt.bit_length()).bit_count() if dt else at.bit_count()
    mtr_d = (dt >> at.bit_length()).bit_count() if at else dt.bit_count()
    mast = 0
    power = [2 * dt.bit_count() + 2 * mtr_d, 2 * at.bit_count() + 2 * mtr_a]
    for sm in SUIT:
        if live & sm:
            top_a = (a >> ((live & sm).bit_length() - 1)) & 1
            mast += 1 if top_a else -1
            power[top_a] += 3
    cut = 0
    live_suits = [sm for sm in SUIT if live & sm]
    for s in range(n):
        nt = (hands[s] & TRUMPS).bit_count()
        if nt:
            nv = min(nt, sum(1 for sm in live_suits if not hands[s] & sm))
            cut += nv if sides[s] else -nv
            power[sides[s]] += 2 * nv
    rp = pts(live & ~sum(1 << b for b in BOUTS))
    split = rp * power[1] / sum(power) if sum(power) else rp / 2
    petit_a = int(bool(a & 1))
    petit_d = int(bool(d & 1))
    hunted = int(petit_a and dt and ((dt & ~1).bit_count() > (at & ~1).bit_count()
                                     or dt.bit_length() > at.bit_length()))
    # static_eval without its point split: captured points, T21 to its holder's side,
    # the Excuse to its owner's, the Petit by the core's safety rule; R(B) of those bouts
    est_p, est_b = c["att_pts"], c["att_bouts"]
    if at >> MONDE & 1:
        est_p, est_b = est_p + 9, est_b + 1
    if a >> EX & 1:
        est_p, est_b = est_p + 9, est_b + 1
    if live & 1:
        hs_tr = (at if petit_a else dt) & ~1
        op_tr = dt if petit_a else at
        own, opp = hs_tr.bit_count(), op_tr.bit_count()
        safe = opp == 0 or (own >= opp and hs_tr.bit_length() > op_tr.bit_length())
        if petit_a == int(safe):
            est_p, est_b = est_p + 9, est_b + 1
    nb = ~bmask
    return dict(nosplit=est_p - R2[min(3, est_b)],
        se=core.static_eval(),
        base=c["att_pts"] + 9 * held_b - R2[bouts], split=split,
        live_diff=pts(a & nb) - pts(d & nb), live=pts(live & nb),
        tr_diff=(at & ~1).bit_count() - (dt & ~1).bit_count(),
        mtr_diff=mtr_a - mtr_d, mast_diff=mast, cut_diff=cut,
        lead=sides[core.leader], petit_a=petit_a, petit_d=petit_d,
        petit_a_hunted=hunted,
        kings_diff=(a & KINGS).bit_count() - (d & KINGS).bit_count())


def playthrough(state, i: int, v: int, ks: set, eps: float) -> dict:
    """{k: the state k tricks before the end} of one seeded play of deal i."""
    st = state.copy()
    n = st.players
    agents = [make_agent("heuristic", seed=1000 * i + s + 7919 * v) for s in range(n)]
    rng = random.Random(f"{i}/{v}")
    out = {}
    total = rules.HAND_SIZE[n]
    while not st.is_over():
        if not st.trick and total - st.trick_no() in ks:
            out[total - st.trick_no()] = st.copy()
            if len(out) == len(ks):
                break
        if v > 0 and rng.random() < eps:
            st.play(rng.choice(st.legal_moves()))
        else:
            st.play(agents[st.to_act].choose(st, st.to_act))
    return out


def evaluations(core, objective: str) -> dict:
    """Every built-in evaluation (for the position's player count) of a trick-boundary
    core position (``objective``: "margin" or "T"); the core is left with the
    evaluation as built."""
    core.set_objective(objective)
    out = {}
    for name, by_players in EVALUATIONS.items():
        weights, spread = by_players[core.n]
        if weights is None and not spread:
            core.set_eval(None)
        else:
            core.set_eval(weights, spread)
        out[name] = core.static_eval()
    core.set_eval(None)
    return out


def add_evaluations(rows: list[dict], args) -> None:
    """Complete the rows (of a cache) with ``evaluations`` by replaying their positions
    (deterministic: the same play-throughs as ``collect``)."""
    states = load(args.players)
    todo = {(r["deal"], r["variant"]): [] for r in rows if "ev" not in r}
    for r in rows:
        if "ev" not in r:
            todo[(r["deal"], r["variant"])].append(r)
    for (i, v), rs in sorted(todo.items()):
        at = playthrough(states[i], i, v, {r["k"] for r in rs}, args.eps)
        for r in rs:
            core = face.from_state(at[r["k"]], tt_bits=10)
            r["ev"] = evaluations(core, "margin")
            assert r["ev"]["static"] == r["se"], "the cache is not these positions"
            if "exact_t" in r:
                r["ev_t"] = evaluations(core, "T")


def collect(args) -> tuple[list[dict], dict]:
    states = load(args.players)
    rows, skipped = [], {}
    t0 = time.perf_counter()
    for v in range(args.first_variant, args.first_variant + args.variants):
        for i, st0 in enumerate(states):
            for k, st in sorted(playthrough(st0, i, v, set(args.ks), args.eps).items()):
                core = face.from_state(st, tt_bits=20)
                sides = [st.side_of(s) for s in range(st.players)]
                core.set_objective("margin")
                f = features(core, sides)
                val, ok = core.value(node_budget=args.budget)
                if not ok:
                    skipped[k] = skipped.get(k, 0) + 1
                    continue
                row = dict(deal=i, variant=v, k=k, exact=val, **f)
                if args.evaluations:
                    row["ev"] = evaluations(core, "margin")
                if args.objective_t:
                    core.set_objective("T")
                    row["se_t"] = core.static_eval()
                    tv, tok = core.value(node_budget=args.budget)
                    row["exact_t"] = tv if tok else None
                    if args.evaluations:
                        row["ev_t"] = evaluations(core, "T")
                rows.append(row)
        print(f"variant {v}: {len(rows)} positions, {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
    return rows, skipped


def errors(pred, y) -> dict:
    e = pred - y
    return dict(mae=float(np.mean(np.abs(e))), rmse=float(np.sqrt(np.mean(e * e))),
                bias=float(np.mean(e)), sign=float(np.mean((pred >= 0) == (y >= 0))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--ks", type=int, nargs="+", default=[8, 9, 10, 11])
    ap.add_argument("--variants", type=int, default=8)
    ap.add_argument("--eps", type=float, default=0.2)
    ap.add_argument("--budget", type=float, default=5e6)
    ap.add_argument("--objective-t", action="store_true")
    ap.add_argument("--cache", help="json file: reuse the positions' values if present")
    ap.add_argument("--evaluations", action="store_true",
                    help="the core's built-in evaluations against the exact values, no fit")
    ap.add_argument("--all-deals", action="store_true",
                    help="--evaluations: every deal, not only the held-out ones "
                    "(for positions the fit has not seen: other tricks left or variants)")
    ap.add_argument("--first-variant", type=int, default=0,
                    help="variants first_variant.. (others than a fit has seen)")
    args = ap.parse_args()
    if args.cache and Path(args.cache).exists():
        data = json.loads(Path(args.cache).read_text())
        rows, skipped = data["rows"], {int(k): x for k, x in data["skipped"].items()}
    else:
        rows, skipped = collect(args)
        if args.cache:
            Path(args.cache).write_text(json.dumps({"rows": rows, "skipped": skipped}))
    if args.evaluations:
        report_evaluations(rows, skipped, args)
        return
    X = np.array([[r[f] for f in FEATURES] for r in rows], dtype=float)
    y = np.array([r["exact"] for r in rows], dtype=float)
    ks = np.array([r["k"] for r in rows])
    test = np.array([r["deal"] % 3 == 2 for r in rows])
    train = ~test
    one = np.ones((len(rows), 1))
    designs = {"calib": np.hstack([one, X[:, :1]]),
               "fit": np.hstack([one, X]),
               "fit-no-se": np.hstack([one, X[:, 1:]])}
    preds = {"static": X[:, 0]}
    coefs = {}
    for name, D in designs.items():
        w, *_ = np.linalg.lstsq(D[train], y[train], rcond=None)
        preds[name] = D @ w
        coefs[name] = w
    # the core-shaped model: static_eval's bouts and captured points kept (coefficient
    # 1: the table's bounds need the leaf nondecreasing in the captured points), only
    # the point split replaced by a linear form
    ns = np.array([r["nosplit"] for r in rows], dtype=float)
    D = np.hstack([one, np.array([[r[f] for f in SPLIT_FEATURES] for r in rows], float)])
    w, *_ = np.linalg.lstsq(D[train], (y - ns)[train], rcond=None)
    preds["split-fit"] = ns + D @ w
    coefs["split-fit"] = w
    # the same with ``base`` (captured points, held bouts at 9, R(B)) kept instead
    bs = X[:, 1]
    D = np.hstack([one, X[:, 2:]])
    w, *_ = np.linalg.lstsq(D[train], (y - bs)[train], rcond=None)
    preds["base-fit"] = bs + D @ w
    coefs["base-fit"] = w
    print(f"positions: {len(rows)} ({int(train.sum())} train / {int(test.sum())} test "
          f"deals split by deal % 3 == 2), skipped at the budget: "
          f"{sum(skipped.values())} {dict(sorted(skipped.items()))}")
    print("\n| tricks left | model | n | MAE | RMSE | bias | sign agree |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(set(ks.tolist())) + ["all"]:
        m = test & ((ks == k) if k != "all" else True)
        for name, p in preds.items():
            e = errors(p[m], y[m])
            print(f"| {k} | {name} | {int(m.sum())} | {e['mae']:.1f} | {e['rmse']:.1f} | "
                  f"{e['bias']:+.1f} | {100 * e['sign']:.1f}% |")
    e = errors(preds["static"][train], y[train])
    print(f"\nstatic on the training deals: MAE {e['mae']:.1f} RMSE {e['rmse']:.1f} "
          f"bias {e['bias']:+.1f} sign {100 * e['sign']:.1f}%")
    print("\ncoefficients (doubled points per unit):")
    for name, w in coefs.items():
        names = ["intercept"] + {"calib": ["se"], "fit": FEATURES, "fit-no-se": FEATURES[1:],
                                 "split-fit": SPLIT_FEATURES,
                                 "base-fit": FEATURES[2:]}[name]
        print(f"  {name}: " + ", ".join(f"{a}={b:+.3f}" for a, b in zip(names, w, strict=True)))
    if any("exact_t" in r for r in rows):
        tr = [r for r in rows if r.get("exact_t") is not None and r["deal"] % 3 == 2]
        print("\nT objective (held-out deals, static_eval as it is):")
        print("| tricks left | n | MAE | RMSE | bias | sign agree |")
        print("|---|---|---|---|---|---|")
        for k in sorted({r["k"] for r in tr}) + ["all"]:
            sel = [r for r in tr if k == "all" or r["k"] == k]
            e = errors(np.array([r["se_t"] for r in sel], float),
                       np.array([r["exact_t"] for r in sel], float))
            print(f"| {k} | {len(sel)} | {e['mae']:.1f} | {e['rmse']:.1f} | "
                  f"{e['bias']:+.1f} | {100 * e['sign']:.1f}% |")


def report_evaluations(rows: list[dict], skipped: dict, args) -> None:
    add_evaluations(rows, args)
    held_out = not args.all_deals
    held = [r for r in rows if not held_out or r["deal"] % 3 == 2]
    print(f"{args.players} players: {len(held)} positions"
          f"{' (held-out deals)' if held_out else ''}, skipped at the budget: "
          f"{sum(skipped.values())}")
    for key, exact, what in (("ev", "exact", "margin E (doubled points)"),
                             ("ev_t", "exact_t", "T (TAROT-SCORE-1)")):
        sel = [r for r in held if key in r and r.get(exact) is not None]
        if not sel:
            continue
        print(f"\n{what}:\n\n| tricks left | evaluation | n | MAE | RMSE | bias | sign agree |")
        print("|---|---|---|---|---|---|---|")
        for k in sorted({r["k"] for r in sel}) + ["all"]:
            part = [r for r in sel if k == "all" or r["k"] == k]
            y = np.array([r[exact] for r in part], float)
            for name in EVALUATIONS:
                if key == "ev" and EVALUATIONS[name][args.players][1]:
                    continue       # the spread changes T only
                e = errors(np.array([r[key][name] for r in part], float), y)
                print(f"| {k} | {name} | {len(part)} | {e['mae']:.1f} | {e['rmse']:.1f} | "
                      f"{e['bias']:+.1f} | {100 * e['sign']:.1f}% |")


if __name__ == "__main__":
    main()
