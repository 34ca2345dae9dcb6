"""Belote / Coinche core speed: legal-move generations and complete random playouts per
second (single core), side by side with the pure-Python rules and colver's
``Env.rollout()`` in the same run.

Targets (project brief): Coinche playouts >= 2x colver's rate and >= 100x the Python
rules.  ``run(quick)`` returns one flat row per (game, metric).  Rates are per CPU
second of this process (``time.process_time``; the machine is shared and overloaded,
all three contenders run single-threaded in-process), median of repeats.
"""

from __future__ import annotations

import random
from functools import partial

from _report import median_rate

from solver.core import belote as cb
from solver.games import belote as belote_game
from solver.games import coinche as coinche_game
from solver.games.belote_common import legal_cards, trick_winner

REPEATS = 5


def _hands(seed: int) -> list[int]:
    perm = list(range(32))
    random.Random(seed).shuffle(perm)
    return [sum(1 << c for c in perm[8 * i:8 * i + 8]) for i in range(4)]


def _python_playouts(module, strain: int, hands: list[int], n: int, seed: int,
                     options: dict) -> int:
    """n random playouts with the pure-Python rules state (the baseline)."""
    rng = random.Random(seed)
    cls = module.BeloteState if module is belote_game else module.CoincheState
    moves = 0
    for _ in range(n):
        st = cls.from_play(hands, strain, 0, dealer=3, options=options)
        while not st.is_over():
            st.play(rng.choice([m for m in st.legal_moves() if m.kind == "card"]))
            moves += 1
    return moves


def _python_legal(strain: int, hands: list[int], n: int, seed: int,
                  undertrump: bool) -> int:
    """Legal-move generations by the pure rules function along random games."""
    rng = random.Random(seed)
    calls = 0
    for _ in range(n):
        h = list(hands)
        trick: list[tuple[int, int]] = []
        seat = 0
        for _k in range(32):
            legal = legal_cards(h[seat], trick, strain, undertrump)
            calls += 1
            cards = [c for c in range(32) if legal >> c & 1]
            card = rng.choice(cards)
            h[seat] &= ~(1 << card)
            trick.append((seat, card))
            if len(trick) == 4:
                seat = trick_winner(trick, strain)
                trick = []
            else:
                seat = (seat + 1) % 4
    return calls


def _colver_rollouts(hands: list[int], strain: int, n: int) -> float | None:
    try:
        import colver
    except ImportError:  # pragma: no cover - optional peer
        return None
    plain = [0, 1, 2, 6, 3, 4, 5, 7]
    env = colver.Env.deal_with_hands(
        3, [[8 * (c >> 3) + plain[c & 7] for c in range(32) if h >> c & 1] for h in hands])
    env.set_contract(strain, 80, 0, 0)
    env.set_phase_playing()
    return median_rate(partial(env.rollout, n), n, REPEATS)


def run(quick: bool = False) -> list[dict]:
    """Measure and return the table rows."""
    rows = []
    n_core = 20_000 if quick else 300_000
    n_py = 20 if quick else 200
    for name, module, options in (("belote", belote_game, {}),
                                  ("coinche", coinche_game, {"announces": False,
                                                             "undertrump_required": False})):
        hands = _hands(7)
        strain = 1
        undertrump = options.get("undertrump_required", True)
        rules = cb.PlayRules(strain, undertrump)
        core = cb.core_of(cb.make_position(hands, leader=0, taker=0), rules)
        # playouts (the core's own loop: legal mask, random pick, play, to the end)
        core_po = median_rate(partial(core.playouts, n_core, 1), n_core, REPEATS)
        py_po = median_rate(partial(_python_playouts, module, strain, hands, n_py, 1,
                                     options), n_py, 3)
        col_po = _colver_rollouts(hands, strain, n_core) if name == "coinche" else None
        # legal-move generations: 32 per playout in the core loop (lower bound: the
        # playout also picks and plays); Python: the rules function along random games
        core_legal = core_po * 32
        py_legal = median_rate(partial(_python_legal, strain, hands, n_py, 1, undertrump),
                                32 * n_py, 3)
        for metric, ours, py, col, target in (
                ("playouts/s", core_po, py_po, col_po,
                 ">=2x colver, >=100x python" if name == "coinche" else ">=100x python"),
                ("legal generations/s", core_legal, py_legal, None, ">=100x python")):
            r_py = ours / py
            r_col = ours / col if col else 0.0
            met = r_py >= 100 and (col is None or r_col >= 2)
            rows.append({"game": name, "metric": metric, "atout": round(ours),
                         "python": round(py), "ratio_vs_python": round(r_py, 1),
                         "colver": round(col) if col else 0,
                         "ratio_vs_colver": round(r_col, 2), "target": target,
                         "met": "yes" if met else "no"})
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
