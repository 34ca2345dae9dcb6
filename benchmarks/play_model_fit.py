"""Fit the learned play model of Belote / Coinche (``solver.play_model``:
``BELOTE_WEIGHTS``, a conditional logit over the legal cards on ``belote_features``)
to the cards a player chose, and report its held-out log-loss (issue 28, item 1).

Plays ``--deals`` seeded deals with ``--players`` at every seat, collects every card
played with a choice (the true hand then, the public facts it was chosen on), fits
the weights by maximum likelihood (small L2) on the first two thirds of the deals and
scores the last third against the uniform model and the heuristic-eps model (eps
fitted on the same two thirds). Then refits on all deals and prints the weights to
paste into ``BELOTE_WEIGHTS``. Deterministic (seeded deals and players).

    python benchmarks/play_model_fit.py [--game coinche] [--deals 150]
        [--players pimc:worlds=100,auction=1] [--seed 7] [--no-append]
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from _report import report

from solver.agents import make_agent
from solver.games import get_game
from solver.play_model import BELOTE_FEATURES, belote_features, play_model


def deal_samples(game: str, spec: str, seed: int) -> list[tuple[np.ndarray, int, bool]]:
    """(features of each legal card, the index of the one played, the heuristic's
    pick) for every card of the deal played with a choice."""
    st = get_game(game).new_state(dealer=seed % 4, seed=seed)
    agents = [make_agent(spec, seed=seed * 10 + s, game=game) for s in range(4)]
    while not st.is_over():
        if st.phase == "play" and sum(h.bit_count() for h in st.hands) == 4:
            break  # the last trick: every earlier card is in the views below
        st.play(agents[st.to_act].choose(st, st.to_act))
    if st.is_over():
        return []  # passed out: no card play
    out = []
    # seat 0's view holds the cards of seats 1-3, seat 1's those of seat 0
    for view_seat, movers in ((0, (1, 2, 3)), (1, (0,))):
        model = play_model(st, view_seat, 0.5)
        for p in model.plays:
            if p.seat not in movers:
                continue
            hand = st.hands[p.seat] | p.later
            cards = p.legal(hand)
            if len(cards) < 2:
                continue
            heur = p.heuristic_card(hand, cards)
            x = np.array([belote_features(p, hand, c, heur) for c in cards])
            out.append((x, cards.index(p.card), heur == p.card))
    return out


def nll(w: np.ndarray, data, l2: float) -> tuple[float, np.ndarray]:
    total, grad = 0.0, np.zeros_like(w)
    for x, y, _ in data:
        z = x @ w
        z = z - z.max()
        e = np.exp(z)
        prob = e / e.sum()
        total -= math.log(prob[y])
        grad -= x[y] - prob @ x
    return total / len(data) + l2 * w @ w, grad / len(data) + 2 * l2 * w


def fit(data, l2: float = 1e-3) -> np.ndarray:
    """Gradient descent with backtracking (a dozen features: converges in ~100 steps)."""
    w = np.zeros(len(BELOTE_FEATURES))
    value, grad = nll(w, data, l2)
    for _ in range(500):
        step = 1.0
        while step > 1e-6:
            w2 = w - step * grad
            v2, g2 = nll(w2, data, l2)
            if v2 < value:
                break
            step /= 2
        else:
            break
        done = value - v2 < 1e-7
        w, value, grad = w2, v2, g2
        if done:
            break
    return w


def eps_loss(data, eps: float) -> float:
    return -float(np.mean([math.log(1 - eps) if hit else math.log(eps / (len(x) - 1))
                           for x, _, hit in data]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=["coinche", "belote"], default="coinche")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--players", default="pimc:worlds=100,auction=1")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    deals = [deal_samples(args.game, args.players, args.seed * 100_000 + i)
             for i in range(args.deals)]
    cut = 2 * len(deals) // 3
    train = [s for d in deals[:cut] for s in d]
    test = [s for d in deals[cut:] for s in d]
    w = fit(train)
    eps = min(np.arange(0.05, 0.96, 0.05), key=lambda e: eps_loss(train, e))
    uniform = float(np.mean([math.log(len(x)) for x, _, _ in test]))
    rows = [{"game": args.game, "players": args.players, "deals": args.deals,
             "cards fit / held out": f"{len(train)} / {len(test)}",
             "heuristic picks": float(np.mean([h for _, _, h in test])),
             "uniform": uniform, f"heuristic eps={eps:.2f}": eps_loss(test, eps),
             "learned": float(nll(w, test, 0.0)[0]),
             "learned below uniform": 1 - float(nll(w, test, 0.0)[0]) / uniform}]
    final = fit(train + test)
    print(rows[0])
    print("BELOTE_WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in final) + ")")
    for name, v in zip(BELOTE_FEATURES, final, strict=True):
        print(f"  {v:+.3f}  {name}")
    report("Learned play model (play_model_fit.py): held-out log-loss, nats a card",
           {"fit": rows}, append=not args.no_append)


if __name__ == "__main__":
    main()
