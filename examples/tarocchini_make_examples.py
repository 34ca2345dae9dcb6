"""Regenerate the Tarocchini sample records (examples/tarocchini_*.txt and .json).

Seat choices: everybody plays on at the monte, declares his best combinations, the
dealer/declarer discards at random, cards are random legal cards (a signal now and
then). Seeded, so the output is reproducible: ``python examples/tarocchini_make_examples.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from solver.games import tarocchini as T
from solver.games.base import Move
from solver.games.tarocchini_melds import best_combinations

HERE = Path(__file__).resolve().parent


def play_out(st: T.TarocchiniState, rng: random.Random, bid: str | None) -> T.TarocchiniState:
    """Finish a deal with the simple seat policy described above."""
    while not st.is_over():
        if st.phase == "monte":
            st.play("play")
        elif st.phase == "bid" and bid is not None:
            st.play(bid if all(b == "pass" for b in st.bids) else "pass")
        elif st.phase == "declare":
            seat = st.to_act
            combos = best_combinations(st.hands[seat], st.options["contatore_multi_use"],
                                       st.options["max_contatori_per_suit_sequence"])[1]
            done = {f for f, _ in st.declared[seat]}
            todo = [cb for cb in combos if cb[0] not in done]
            st.play(Move("declare", todo[0]) if todo else "decl:done")
        elif st.phase == "play":
            moves = st.legal_moves()
            cards = [mv for mv in moves if mv.kind == "card"]
            st.play(rng.choice(moves if rng.random() < 0.1 else cards))
        else:
            st.play_random(rng)
    return st


def result_tag(st: T.TarocchiniState) -> str:
    t = st.side_totals()
    if st.variant == "ottocento":
        return f"A {t[0]:g} B {t[1]:g}"
    return (f"declarer {st.declarer} {st.contract} {t[0]:g} v {t[1]:g}; scores "
            + " ".join(f"{x:g}" for x in st.scores()))


def main() -> None:
    for name, opts, dealer, bid in [("ottocento", {}, 3, None),
                                    ("terziglio", {"game": "terziglio"}, 2, "gioco"),
                                    ("terziglio_solo", {"game": "terziglio"}, 0, "solo")]:
        for seed in range(100):
            st = play_out(T.new_state(opts, dealer=dealer, seed=seed), random.Random(seed), bid)
            if not st.abandoned and st.called_out is None and sum(st.decl_points) >= 40:
                break
        rec = st.to_record()
        rec.tags["Result"] = result_tag(st)
        (HERE / f"tarocchini_{name}.txt").write_text(rec.to_text() + "\n")
        (HERE / f"tarocchini_{name}.json").write_text(json.dumps(rec.to_json(), indent=1) + "\n")
        print(name, rec.tags["Result"])


if __name__ == "__main__":
    main()
