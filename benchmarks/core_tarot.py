"""French Tarot core speed: legal-move generations per second and complete random
playouts per second, Cython core vs the pure-Python rules (solver.games.tarot).

* legal-move generations: along seeded random playouts from fixed deals; the core
  figure counts each generation inside a playout (generation + play + random pick, the
  conservative figure) and, separately, repeated generations at each position of the
  playout (generation only). The Python baseline is ``legal_cards`` on the same kind of
  positions.
* playouts: a whole play phase (garde sans, taker seat 0) played at random to the final
  T, from the opening lead; core loop entirely in C (``TarotCore.playouts``) vs
  ``TarotState.play`` of random legal cards.

Targets (project brief): 4p legal-move generations >= 50 million/s; playouts >= 100x
the pure-Python rules. ``run(quick)`` returns one flat row per (players, metric).
"""

from __future__ import annotations

import random
import time
from functools import partial

from _report import median_rate

from solver.core import tarot as face
from solver.games import tarot as rules


def _position(n: int, seed: int) -> rules.TarotState:
    deal = rules.deal_cards(n, seed)
    hands = [sum(1 << x for x in h) for h in deal.hands]
    dog = sum(1 << x for x in deal.extras["dog"])
    return rules.TarotState.for_play(hands, taker=0, contract="garde_sans", aside=dog,
                                     options={"players": n})


def _py_legal_rate(n: int, count: int, seed: int) -> float:
    """Python legal_cards calls per second on positions of random playouts."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        st = _position(n, rng.randrange(1 << 30))
        while st.phase == "play":
            positions.append((st.hands[st.to_act], list(st.trick), st.lead_forbidden()))
            st.play(rng.choice(st.legal_moves()))
    t = time.process_time()
    for hand, trick, forbid in positions[:count]:
        rules.legal_cards(hand, trick, forbid)
    return count / (time.process_time() - t)


def _py_playout_rate(n: int, count: int, seed: int) -> float:
    rng = random.Random(seed)
    start = _position(n, 1)
    t = time.process_time()
    for _ in range(count):
        st = start.copy()
        while st.phase == "play":
            st.play(rng.choice(st.legal_moves()))
        st.scores()
    return count / (time.process_time() - t)


def run(quick: bool = False) -> list[dict]:
    """Measure and return the table rows (medians over repeats)."""
    rows = []
    reps = 3 if quick else 5
    for n in (3, 4, 5):
        core = face.from_state(_position(n, 1), tt_bits=4)
        gens = 2_000_000 if quick else 10_000_000
        in_playout = median_rate(partial(core.legal_generations, gens, 1), gens, reps)
        repeated = median_rate(partial(core.legal_generations_repeat, gens, 16, 1), gens, reps)
        py_gen = _py_legal_rate(n, 20_000 if quick else 100_000, 7)
        target = n == 4
        rows.append({"game": "tarot", "players": n, "metric": "legal-move generations/s",
                     "core": round(repeated), "core_in_playout": round(in_playout),
                     "python": round(py_gen), "ratio": round(repeated / py_gen, 1),
                     "target": ">= 50e6/s (4p)" if target else "-",
                     "met": ("yes" if repeated >= 50e6 else "no") if target else "-"})
        plays = 50_000 if quick else 300_000
        core_po = median_rate(partial(core.playouts, plays, 1), plays, reps)
        py_po = _py_playout_rate(n, 100 if quick else 500, 3)
        ratio = core_po / py_po
        rows.append({"game": "tarot", "players": n, "metric": "random playouts/s",
                     "core": round(core_po), "core_in_playout": round(core_po),
                     "python": round(py_po, 1), "ratio": round(ratio, 1),
                     "target": ">= 100x python", "met": "yes" if ratio >= 100 else "no"})
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
