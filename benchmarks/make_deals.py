"""Fixed deal sets for the DD benchmarks (benchmarks/deals/<game>*.txt), generated from
seeds so that every run solves the same deals.

One function per game writes its files; ``python benchmarks/make_deals.py [GAME ...]``
regenerates them.  Each line is one deal in the notation's deal text
(``solver.notation.Deal.to_text``); lines starting with ``#`` are comments.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

DEALS_DIR = Path(__file__).resolve().parent / "deals"


def _belote_like(name: str, count: int, seed: int) -> Path:
    """Four random 8-card hands per line (the play phase of Belote / Coinche): a
    uniformly random permutation of the 32 cards (COMMON-RNG-1) split in seat order."""
    from solver.cards import BELOTE_DECK
    from solver.notation import Deal

    rng = random.Random(seed)
    lines = [f"# {name}: {count} deals, seed {seed}; deal i: dealer i % 4, "
             "contract strain i % 6 (S H D C TA SA), taker seat (i // 6) % 4"]
    for _ in range(count):
        perm = list(range(32))
        rng.shuffle(perm)
        deal = Deal([perm[8 * s:8 * s + 8] for s in range(4)])
        lines.append(deal.to_text(BELOTE_DECK))
    path = DEALS_DIR / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def belote(count: int = 240) -> list[Path]:
    """benchmarks/deals/belote.txt: Belote play-phase deals."""
    return [_belote_like("belote", count, seed=20260101)]


def coinche(count: int = 240) -> list[Path]:
    """benchmarks/deals/coinche.txt: Coinche deals."""
    return [_belote_like("coinche", count, seed=20260102)]


def tarot(count: int = 200) -> list[Path]:
    """benchmarks/deals/tarot3.txt, tarot4.txt, tarot5.txt: random French Tarot deals
    (hands in seat order, then the dog) for 3, 4 and 5 players."""
    from solver.games import tarot as rules

    paths = []
    for n in (3, 4, 5):
        seed = 20260200 + n
        lines = [f"# tarot{n}: {count} deals, seeds {seed}*1000+i; dealer seat 0, "
                 "taker seat i % n"]
        for i in range(count):
            deal = rules.deal_cards(n, seed * 1000 + i)
            lines.append(deal.to_text(rules.DECK))
        path = DEALS_DIR / f"tarot{n}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def tarocchini(count: int = 200) -> list[Path]:
    """benchmarks/deals/tarocchini_ottocento.txt (4 hands of 15 + the dealer's 2-card
    talon) and tarocchini_terziglio.txt (3 hands of 18 + the 8-card stock): random
    Tarocchini deals (solver.games.tarocchini._random_deal, seeds 20260300+i)."""
    from solver.games import tarocchini as rules
    from solver.options import resolve

    paths = []
    for variant, note in (("ottocento", "dealer seat i % 4 discards the talon"),
                          ("terziglio", "solo, declarer seat i % 3, dealer seat 0")):
        opts = resolve(rules.OPTIONS, {"game": variant, "monte": "off"}, rules.NAME)
        lines = [f"# tarocchini_{variant}: {count} deals, seeds 20260300+i; {note}"]
        for i in range(count):
            dealer = i % 4 if variant == "ottocento" else 0
            lines.append(rules._random_deal(variant, opts, dealer, 20260300 + i)
                         .to_text(rules.DECK))
        path = DEALS_DIR / f"tarocchini_{variant}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def tarot_play(count: int = 50) -> list[Path]:
    """benchmarks/deals/tarot<n>_play.txt (n = 3, 4, 5): French Tarot deals brought to
    the first lead by the heuristic player at every seat (auction, 5p call, dog, écart,
    declarations), one record a line (the notation of docs/NOTATION.md). Deal i is
    dealt from seed 20261200 + 1000 n + j with dealer j % n, for the j-th seed whose
    auction is not passed out: the fixed set of dd_tarot.py (issue 23)."""
    from solver.agents import make_agent
    from solver.games import tarot as rules

    paths = []
    for n in (3, 4, 5):
        lines = [f"# tarot{n}_play: {count} deals at the first lead, seeds 20261200+1000*{n}+j "
                 "(dealer j % n; passed-out seeds skipped), heuristic auction, dog and écart"]
        j = 0
        while len(lines) <= count:
            seed = 20261200 + 1000 * n + j
            st = rules.new_state(options={"players": n}, dealer=j % n, seed=seed)
            agents = [make_agent("heuristic", seed=seed * 10 + s) for s in range(n)]
            while not st.is_over() and st.phase != "play":
                st.play(agents[st.to_act].choose(st, st.to_act))
            j += 1
            if st.phase == "play":
                lines.append(st.to_record().to_text())
        path = DEALS_DIR / f"tarot{n}_play.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


GAMES = {"belote": belote, "coinche": coinche, "tarot": tarot, "tarocchini": tarocchini,
         "tarot_play": tarot_play}


def main(argv: list[str]) -> None:
    DEALS_DIR.mkdir(parents=True, exist_ok=True)
    for name in argv or list(GAMES):
        for path in GAMES[name]():
            print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
