"""A fixed set of recorded card decisions, judged once, to compare agents fast.

``record_decisions`` plays seeded deals (the players of a spec, the heuristic by
default) and keeps a seeded share of the card decisions where the seat had a choice:
the deal (by its seed), the moves before the decision, the seat, and the judge's value
of every legal card. ``evaluate`` asks an agent for its card at each decision and
scores its *loss*: the best card's value minus its card's value (0 when it picks a
best card), in the seat's own points of the deal.

The judge is the double-dummy value of each card on the **true** deal (the deal's
score for the seat's side, ``solver.pimc`` objective ``mean``): the hands are a draw
from the true posterior given what the seat saw (the deals are random, the other
seats played by their own rules), so a card's judged value is an unbiased sample of its
value under perfect inference with a double-dummy continuation — the limit of PIMC
with infinitely many worlds drawn from the true posterior. An agent's mean loss is thus
unbiased for how far its cards fall short of that ideal, inference included (a
uniform-worlds PIMC judge would instead reward agreeing with uniform PIMC). It is
noisy per decision; comparing two agents on the same decisions (``paired``) removes
most of the noise.

French Tarot and Tarocchini: a full deal is out of reach of the exact search early in the deal, so
the judge is the oracle's search on the true deal (``pimc.OracleAgent``: exact from 8
tricks left in 4p, else one trick deeper than pimc's own horizon, 4x its node budget),
scored as ``T``, the per-defender amount of TAROT-SCORE-1 (the taker's gain is
(players - 1) T, a defender's -T). Before the exact range a card's value is the
horizon search's estimate, so the judge there is strong but not perfect. Tarocchini
is scored in the DD search's own unit, the side's margin in half points (exact from
about 8 tricks left in Ottocento).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from . import dd
from .agents import make_agent
from .cards import bit_list
from .errors import AtoutError
from .games import get_game
from .games.base import GameState

JUDGE_GAMES = ("belote", "coinche", "tarot", "tarocchini")


# the moves that play a card (with a Belote announce, or an Ottocento signal)
CARD_KINDS = ("card", "belote", "signal")


def _card_of(move: Any) -> int:
    return move.value[0] if move.kind == "signal" else move.value


@dataclass
class Decision:
    """One recorded decision: replay ``moves`` on deal ``deal_seed`` (dealer
    ``dealer``, ``options``); ``seat`` is to play; ``values``: the judge's value of each
    legal card (its token), in ``seat``'s points."""

    game: str
    options: dict[str, Any]
    dealer: int
    deal_seed: int
    moves: list[str]
    seat: int
    values: dict[str, float]
    players: str = "heuristic"

    def state(self) -> GameState:
        st = get_game(self.game).new_state(options=self.options, dealer=self.dealer,
                                           seed=self.deal_seed)
        for token in self.moves:
            st.play(token)
        return st


def judge_values(state: GameState, seat: int) -> dict[str, float] | None:
    """Each legal card's double-dummy value on the true deal, as ``seat``'s gain (the
    deal's score, contract and all: ``PimcAgent``'s objective ``mean``; Tarot: the
    oracle's search, see the module's docstring). None when the search could not value
    every card within its node budget (the decision is then left out)."""
    from .pimc import OracleAgent, PimcAgent

    if state.game not in JUDGE_GAMES:
        raise AtoutError(f"no decision judge for {state.game}")
    if state.game in ("tarot", "tarocchini"):
        oracle = OracleAgent()
        results = oracle.solve_cards(state, oracle.horizon_for(state))
        if any(r.value is None for r in results.values()):
            return None
        return _seat_values(state, seat, results)
    solve = PimcAgent(worlds=1)._world_solver(state, seat, None)
    holdings = [bit_list(h) for h in state.hands]
    sign, values, _, _ = solve((holdings, None, None))
    return {state.move_token(m): sign * v for m, v in values.items()}


def exact_values(state: GameState, seat: int, node_budget: int) -> dict[str, float] | None:
    """Each legal card's exact double-dummy value (Tarot, Tarocchini), as ``seat``'s
    gain, or None when the exact search could not value every card within
    ``node_budget`` nodes: the judge of ``decision_set.py exact``, for decisions before
    the oracle's exact range (where it is a horizon estimate that reads the static
    evaluation under test)."""
    if state.game not in ("tarot", "tarocchini"):
        raise AtoutError(f"exact_values judges Tarot and Tarocchini, not {state.game}")
    results = dd.solve_cards(state, node_budget=node_budget, tt_bits=22)
    if any(r.value is None or not r.exact for r in results.values()):
        return None
    return _seat_values(state, seat, results)


def _seat_values(state: GameState, seat: int, results: dict) -> dict[str, float]:
    """The searched values of the cards (the attack's T or margin) as ``seat``'s gain,
    by card token (a card with a signal, OTTO-SIG-1, is the same card to the search)."""
    from .pimc import seat_sign

    sign = seat_sign(state, seat)
    return {state.move_token(m): sign * float(r.value) for m, r in results.items()
            if m.kind == "card"}


def record_decisions(game: str, deals: int, seed: int = 0, rate: float = 0.2,
                     players: str = "heuristic",
                     options: dict[str, Any] | None = None) -> list[Decision]:
    """Card decisions from ``deals`` seeded deals played by ``players`` in every seat,
    each kept with probability ``rate`` (seeded) when the seat has two legal cards or
    more (and the judge valued every card). Deal ``i`` has seed ``seed * 1_000_003 +
    i`` and dealer ``i % seats``."""
    module = get_game(game)
    options = dict(options or {})
    tag = "".join(f"-{k}={v}" for k, v in sorted(options.items()))
    pick = random.Random(f"decisions-{game}-{seed}{tag}")
    seats = len(module.new_state(options=options, seed=0).hands)
    out: list[Decision] = []
    for i in range(deals):
        deal_seed = seed * 1_000_003 + i
        dealer = i % seats
        st = module.new_state(options=options, dealer=dealer, seed=deal_seed)
        agents = []
        for s in range(seats):
            agent = make_agent(players, game=game)
            agent.reset(deal_seed * 16 + s)
            agents.append(agent)
        while not st.is_over():
            seat = st.to_act
            legal = st.legal_moves()
            # a card may come with a Belote announce or an Ottocento signal (OTTO-SIG-1)
            cards = {_card_of(m) for m in legal if m.kind in CARD_KINDS}
            only_cards = all(m.kind in CARD_KINDS for m in legal)
            if st.phase == "play" and only_cards and len(cards) > 1 \
                    and pick.random() < rate:
                values = judge_values(st, seat)
                if values is not None:
                    out.append(Decision(game, options, dealer, deal_seed,
                                        list(st.to_record().moves), seat, values,
                                        players))
            st.play(agents[seat].choose(st, seat))
    return out


def save(decisions: Sequence[Decision], path: str) -> None:
    with open(path, "w") as f:
        json.dump([asdict(d) for d in decisions], f, indent=0)
        f.write("\n")


def load(path: str) -> list[Decision]:
    with open(path) as f:
        return [Decision(**d) for d in json.load(f)]


@dataclass
class Scored:
    """An agent on a decision set: per decision its loss and its time (seconds)."""

    spec: str
    losses: list[float]
    times: list[float]


def evaluate(decisions: Sequence[Decision], spec: str, seed: int = 0) -> Scored:
    """The agent ``spec``'s card at every decision (a fresh agent, seeded by the
    decision's index), its loss against the judge and its decision time."""
    return evaluate_all(decisions, [spec], seed)[0]


def evaluate_all(decisions: Sequence[Decision], specs: Sequence[str], seed: int = 0,
                 progress=None, first: int = 0) -> list[Scored]:
    """``evaluate`` for several agents, interleaved decision by decision (so that a
    machine shared with other work slows them alike: their times compare).
    ``first``: the index in its set of the first decision (agents are seeded by it,
    so a part of a set gives the same cards as the whole)."""
    out = [Scored(spec, [], []) for spec in specs]
    for i, d in enumerate(decisions, first):
        for scored in out:
            st = d.state()
            agent = make_agent(scored.spec, game=d.game)
            agent.reset(seed * 1_000_003 + i)
            start = time.perf_counter()
            move = agent.choose(st, d.seat)
            scored.times.append(time.perf_counter() - start)
            token = st.move_token(type(move)("card", _card_of(move)))
            scored.losses.append(max(d.values.values()) - d.values[token])
        if progress is not None:
            progress(i + 1 - first, out)
    return out


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def paired(a: Scored, b: Scored) -> tuple[float, float, float]:
    """B's loss minus A's per decision (> 0: A is better), mean and 95% interval."""
    return mean_ci([y - x for x, y in zip(a.losses, b.losses, strict=True)])
