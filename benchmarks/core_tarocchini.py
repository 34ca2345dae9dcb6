"""Tarocchini core speed: legal-move generations and complete random playouts per second
(single core), side by side with the pure-Python rules in the same run, for Ottocento
and Terziglio (solo: the stock goes to the side of the last trick).

Target (project brief): >= 100x the pure-Python rules.  Python baselines: the
``TarocchiniState`` played with ``play`` (the engine a Python agent would use) for
playouts, and the pure ``legal_cards`` function along random games for legal moves.
Core legal-move generations are counted inside the core's playout loop (one
generation per ply; the figure also pays for the random pick and the play, so it is a
lower bound).  Rates are per CPU second of this process (``time.process_time``),
median of repeats; the machine is shared.
"""

from __future__ import annotations

import random
from functools import partial

from _report import median_rate

from solver.core import tarocchini as ct
from solver.games import tarocchini as tg

REPEATS = 5


def _setup(variant: str, seed: int) -> tuple[ct.Game, ct.Position, list[int], dict, int]:
    perm = list(range(62))
    random.Random(seed).shuffle(perm)
    if variant == "ottocento":
        hands = [sum(1 << c for c in perm[15 * i:15 * i + 15]) for i in range(4)]
        game = ct.make_game(4, (0, 1, 0, 1), discard=sum(1 << c for c in perm[60:]),
                            discard_side=1)
        opts = {"game": "ottocento", "signals": "none"}
        return game, ct.make_position(game, hands, leader=0), hands, opts, 15 * 4
    hands = [sum(1 << c for c in perm[18 * i:18 * i + 18]) for i in range(3)]
    stock = sum(1 << c for c in perm[54:])
    game = ct.make_game(3, (0, 1, 1), stock=stock)
    opts = {"game": "terziglio", "signals": "none"}
    return game, ct.make_position(game, hands, leader=1), hands, opts | {"_stock": stock}, 54


def _python_playouts(variant: str, hands: list[int], opts: dict, n: int, seed: int) -> int:
    """n random playouts with the Python rules state (the baseline)."""
    rng = random.Random(seed)
    o = {k: v for k, v in opts.items() if not k.startswith("_")}
    for _ in range(n):
        if variant == "ottocento":
            st = tg.TarocchiniState.from_play(hands, 0, o, dealer=3)
        else:
            st = tg.TarocchiniState.from_play(hands, 1, o, declarer=0, contract="solo",
                                              stock=opts["_stock"])
        while not st.is_over():
            st.play(rng.choice(st.legal_moves()))
    return n


def _python_legal(n_players: int, hands: list[int], n: int, seed: int) -> int:
    """Legal-move generations by the pure rules function along random games."""
    rng = random.Random(seed)
    calls = 0
    for _ in range(n):
        h = list(hands)
        trick: list[tuple[int, int]] = []
        seat = 0
        while any(h):
            legal = tg.legal_cards(h[seat], trick)
            calls += 1
            card = rng.choice([c for c in range(62) if legal >> c & 1])
            h[seat] &= ~(1 << card)
            trick.append((seat, card))
            if len(trick) == n_players:
                seat = tg.trick_winner(trick)
                trick = []
            else:
                seat = (seat + 1) % n_players
    return calls


def run(quick: bool = False) -> list[dict]:
    """Measure and return the table rows."""
    rows = []
    n_core = 20_000 if quick else 200_000
    n_py = 10 if quick else 100
    for variant in ("ottocento", "terziglio"):
        game, pos, hands, opts, plies = _setup(variant, 7)
        core = ct.core_of(game, pos)
        core_po = median_rate(partial(core.playouts, n_core, 1), n_core, REPEATS)
        py_po = median_rate(partial(_python_playouts, variant, hands, opts, n_py, 1),
                             n_py, 3)
        core_legal = core_po * plies
        py_legal = median_rate(partial(_python_legal, game.n, hands, n_py, 1),
                                plies * n_py, 3)
        for metric, ours, py in (("playouts/s", core_po, py_po),
                                 ("legal generations/s", core_legal, py_legal)):
            ratio = ours / py
            rows.append({"game": f"tarocchini-{variant}", "metric": metric,
                         "core": round(ours, 1), "python": round(py, 1),
                         "ratio_python": round(ratio, 1), "target": ">=100x python",
                         "met": ratio >= 100})
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
