"""Determinized card play (PIMC) and the cheating oracle.

``pimc``: sample worlds consistent with what the seat knows (``solver.constraints``,
uniform), solve each world double-dummy for every legal card (``solver.dd``), aggregate
the values per card and play the best. Budgets: ``worlds`` and/or ``seconds`` (which
also bounds simulated bids);
``threads`` solves worlds in parallel (same decisions as one thread); ``prune``
(default on) stops solving, after 20 worlds, the cards that are clearly worse than
the best one (successive elimination, see ``_prune``).
Objectives: ``mean`` (expected score of the seat's side) or ``make`` (per world, 1 if
the seat's side comes out ahead with the card, value > 0, plus 1 if the card is that
world's best; the card with the highest mean is played); in Belote and Coinche a world's value is the deal's
score, contract and all (``solver.dd.belote.attack_net_score``), in Terziglio an
estimate of the settlement (``solver.dd.tarocchini.value_score``), and ``points``
averages the DD value itself instead (the attack's card points, the Terziglio
margin). ``horizon``:
``auto`` (default) solves each world to the end of the deal where that is cheap and,
where it is not (Tarot, Tarocchini early in the deal), by the game's horizon search
(``solver.dd.<game>.default_horizon``: exact play for some tricks, then a static
evaluation; Tarot: ``evaluation=fit`` or ``soft`` for the fitted one,
``solver.dd.tarot.EVALUATIONS``); ``exact`` always searches to the end
(worlds over the node budget are left out); an integer fixes the horizon where the
exact search is out of reach; Tarot's ``relaxed=K`` searches the worlds with at most K
tricks left to the end in R_DD instead (the relaxed game most favourable to the
defence: a lower bound of each card's value, near it where a horizon errs, see
RELAXED). A world whose search hits the node budget is searched
again with a shorter horizon, and once most worlds of a batch have had to, the next
worlds start at the horizon they fell back to (``last_stats['horizons']`` counts the
worlds solved at each). Decisions other than card play (bids, discards, calls,
announcements, declarations): ``bidding='sim'`` takes them by simulation
(``solver.bidding``), ``bidding='heuristic'`` (default) leaves them to the heuristic;
``discard='sim'`` takes only the discard by simulation (Tarot's écart, Tarocchini's
discards; ``bid_samples`` worlds, seeded by the deal), the rest as ``bidding`` says.
Inference from the play (every game; ``solver.play_model``): ``infer=EPS``
resamples ``pool`` x ``worlds`` uniform draws by the likelihood of the other seats'
past cards (``ess=F`` tempers it); ``infer=EPS,mcmc=STEPS`` draws the worlds instead
by ``chains`` Metropolis chains (default 5) of STEPS card swaps each along that
likelihood (``solver.play_mcmc``), started from pool draws resampled by it (``pool=1``
is enough: the chains do the work); not with ``auction``.
Late-deal search (Belote, Coinche; ``solver.alphamu``): ``alphamu=M`` chooses the card
by an αμ search of M of the seat's cards over the same worlds once at most
``alphamu_tricks`` tricks are left (the other seats still see every card; M=1 is PIMC).

``oracle``: sees every hand and plays the double-dummy best card — an upper bound.
"""

from __future__ import annotations

import bisect
import heapq
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from . import constraints, dd, inference, parallel
from .agents import Agent, check_game_option
from .cards import mask_of
from .dd.result import nodes_spent
from .dd.tarot import EVALUATIONS, tricks_left
from .errors import AtoutError, OptionError
from .games.base import GameState, Move
from .heuristic import HeuristicAgent

# Node budget per world when the agent gives none (None: no limit). A world whose
# search hits the budget is left out, and when no world finishes the heuristic player
# chooses (stated in ``last_stats``).
DEFAULT_NODE_BUDGET = {"tarot": 300_000, "tarocchini": 300_000}

# Transposition table size (log2 entries) per world when the agent gives none: a
# Belote/Coinche world needs ~100k nodes, and a 2^16 table that stays in cache solves
# it ~10% faster than 2^18 (benchmarks/RESULTS.md); the horizon searches of Tarot and
# Tarocchini keep 2^18.
DEFAULT_TT_BITS = {"belote": 16, "coinche": 16}

# Where the exact search to the end of the deal is out of reach (Tarot, Tarocchini
# early in the deal), worlds are solved by a horizon search: exact play for a number of
# tricks, then the game's static evaluation (``solver.dd.<game>.default_horizon``).
HORIZON_CHOICES = ("auto", "exact")

# Tarot (``relaxed=K``, off by default): where a world would be searched with a
# horizon and at most K tricks are left, it is searched to the end in R_DD instead, the
# relaxed game most favourable to the defence (``solver.dd.tarot.solve_cards(relaxed=
# True)``): a lower bound of the real value, within about one point of T of it where
# the horizon's estimate errs by five (benchmarks/dd_tarot_estimates.py). ``horizon_for``
# then returns RELAXED, and a world over the node budget falls back to the game's own
# horizon. Measured (benchmarks/RESULTS.md, seventeenth session): 4p decisions at 9-13
# tricks left judged by the exact search lose 0.77 T points a decision against 1.34
# (K=12), but a duplicate match of 300 deals against the same agent without it gives
# -0.29 [-1.22, +0.63] a deal, and 3p / 5p decision sets gain nothing: not a default.
RELAXED = "relaxed"

OBJECTIVES = ("mean", "make", "points")

# Successive elimination (``prune``): once PRUNE_AFTER worlds are solved, a card whose
# deficit to the best card is positive with PRUNE_Z standard errors (paired over the
# same worlds) is no longer solved; candidates are reviewed every PRUNE_BATCH worlds,
# and the worlds left are not solved once one card remains.
# A Coinche world costs ~30k nodes for the best opening card alone against ~150k for
# all of them (benchmarks/RESULTS.md).
PRUNE_AFTER = 20
PRUNE_BATCH = 10
PRUNE_Z = 3.0

# αμ (``alphamu``): the work a decision's deeper searches may spend, in units of ~20 µs
# (``solver.alphamu``: a world solved at a leaf, a vector of a product, 100 DD nodes,
# 10 vector comparisons): ~0.5 s
ALPHAMU_WORK = 25_000


def seat_sign(world: GameState, seat: int) -> int:
    """+1 if the DD value (the attack's) is ``seat``'s own gain, -1 otherwise."""
    side = dd.side_of_seat(world, seat)
    if side is None:
        raise AtoutError(f"no side convention for {world.game}")
    return 1 if side == 1 else -1


def _start_horizon(start: int | None, used: list[int | None]) -> int | None:
    """The horizon the next batch of worlds starts at: ``start``, unless most worlds of
    the last batch (``used``: the horizon each one was solved at) hit the node budget
    there and fell back to shorter ones; then the median of theirs. A search that
    hits the budget costs as much as a solved one, so a deal where the first horizon
    is out of reach would pay for it in every world (measured: Terziglio decisions
    of 10 s, 99 of 100 worlds falling back from 4 tricks and 94 from 3)."""
    fell = sorted(h for h in used if h != start and h is not None)
    if 2 * len(fell) <= len(used):
        return start
    return fell[len(fell) // 2]


def _prune(candidates: list[Move], totals: dict[Move, float],
           per_world: list[dict[Move, float]],
           weights: list[float] | None = None) -> list[Move]:
    """The candidates still worth solving: the best so far (first in order on a tie)
    and every card whose paired deficit to it is not positive with PRUNE_Z standard
    errors over the worlds in ``per_world`` (each holds every current candidate).
    ``weights``: the worlds' weights (``infer``), the deficit's mean and variance
    weighted, over the effective number of worlds (sum w)^2 / sum w^2; all ones is the
    unweighted test."""
    best = max(candidates, key=lambda m: (totals[m], -candidates.index(m)))
    w = weights or [1.0] * len(per_world)
    sw = sum(w)
    n = sw * sw / sum(x * x for x in w)
    if n <= 1:
        return list(candidates)
    keep = []
    for m in candidates:
        if m != best:
            gaps = [row[best] - row[m] for row in per_world]
            mean = sum(x * g for x, g in zip(w, gaps, strict=True)) / sw
            var = sum(x * (g - mean) ** 2 for x, g in zip(w, gaps, strict=True)) / sw \
                * n / (n - 1)
            if mean - PRUNE_Z * math.sqrt(var / n) > 0:
                continue
        keep.append(m)
    return keep


def resample(log_weights: list[float], count: int, rng: random.Random
             ) -> list[tuple[int, int]]:
    """``count`` draws with replacement, each index ``i`` with probability proportional
    to ``exp(log_weights[i])`` (sampling-importance-resampling), merged: (index,
    times drawn), in index order."""
    top = max(log_weights)
    cum, run = [], 0.0
    for lw in log_weights:
        run += math.exp(lw - top)
        cum.append(run)
    hits: Counter[int] = Counter()
    for _ in range(count):
        hits[min(bisect.bisect_right(cum, rng.random() * run), len(cum) - 1)] += 1
    return sorted(hits.items())


def effective_size(log_weights: Sequence[float]) -> float:
    """Kish's effective sample size of weights ``exp(log_weights)``: (sum w)^2 / sum w^2
    (from 1, one world carries all the weight, to the count, equal weights)."""
    top = max(log_weights)
    w = [math.exp(x - top) for x in log_weights]
    return sum(w) ** 2 / sum(x * x for x in w)


def temper(log_weights: Sequence[float], floor: float) -> float:
    """The largest power ``b`` in (0, 1] of the weights (``b * log_weights``) whose
    effective sample size is at least ``floor`` (1 when the weights have it already; a
    bisection, to 1/1024, else). A likelihood of many past cards makes a few draws of the
    pool carry all the weight; tempering keeps enough distinct worlds to average over."""
    if floor <= 1 or effective_size(log_weights) >= floor:
        return 1.0
    lo, hi = 0.0, 1.0  # ESS(lo) >= floor > ESS(hi)
    while hi - lo > 1 / 1024:
        mid = (lo + hi) / 2
        if effective_size([mid * x for x in log_weights]) >= floor:
            lo = mid
        else:
            hi = mid
    return lo


DISCARD_PHASES = ("ecart", "discard")   # Tarot's écart; Tarocchini's discards


class _CardAgent(Agent):
    """Shared: DD for the card; other decisions (bids, discards, calls, announcements,
    declarations) by simulation (``bidding='sim'``: ``solver.bidding.<game>.decide``
    with ``bid_samples`` worlds) or by the heuristic player (``bidding='heuristic'``)."""

    def __init__(self, seed: int = 0, node_budget: int | None = None,
                 tt_bits: int | None = None,
                 bidding: str = "heuristic", bid_samples: int = 24,
                 horizon: int | str = "auto", search: str = "now",
                 evaluation: str = "static", discard: str = "heuristic",
                 relaxed: int = 0):
        super().__init__(seed)
        if search not in ("now", "before"):
            raise OptionError(f"search must be now or before, got {search!r}")
        # Tarot: the horizon search's static evaluation (solver.dd.tarot.EVALUATIONS)
        if evaluation not in EVALUATIONS:
            raise OptionError(f"evaluation must be one of {', '.join(EVALUATIONS)}, "
                              f"got {evaluation!r}")
        self.evaluation = evaluation
        # Tarot: "before" is the double-dummy search and horizon table as they were
        # before issue 23 (solver.dd.tarot.BEFORE_FEATURES), to measure against it
        self.search = search
        if bidding not in ("heuristic", "sim"):
            raise OptionError(f"bidding must be heuristic or sim, got {bidding!r}")
        if not (horizon in HORIZON_CHOICES
                or (isinstance(horizon, int) and not isinstance(horizon, bool)
                    and horizon >= 1)):
            raise OptionError("horizon must be auto, exact or a positive number of tricks, "
                              f"got {horizon!r}")
        self.horizon = horizon
        # Tarot: worlds with at most ``relaxed`` tricks left, beyond the exact search's
        # reach, searched to the end in R_DD (RELAXED; 0: off)
        if isinstance(relaxed, bool) or not isinstance(relaxed, int) or relaxed < 0:
            raise OptionError(f"relaxed must be a number of tricks >= 0, got {relaxed!r}")
        self.relaxed = relaxed
        self.helper = HeuristicAgent(seed)
        self.node_budget = node_budget
        self.tt_bits = tt_bits
        self.bidding = bidding
        self.bid_samples = bid_samples
        # Tarot, Tarocchini: the discard alone by simulation (``discard='sim'``: the
        # Tarot taker's écart, the Ottocento dealer's and the Terziglio declarer's
        # discard: the best candidate over ``bid_samples`` worlds, solver.bidding.<game>),
        # the bids and the other decisions left to ``bidding``
        if discard not in ("heuristic", "sim"):
            raise OptionError(f"discard must be heuristic or sim, got {discard!r}")
        self.discard = discard
        self.deal_seed = seed
        self.seconds: float | None = None  # a decision's time budget (pimc sets it)

    def budget(self, state: GameState) -> int | None:
        """Node budget per DD call: the agent's, or the game's default (full Tarot and
        Tarocchini deals are out of reach of an exact search early in the deal)."""
        if self.node_budget is not None:
            return self.node_budget
        return DEFAULT_NODE_BUDGET.get(state.game)

    def table_bits(self, state: GameState) -> int:
        """Transposition table size (log2 entries) of each world's search."""
        if self.tt_bits is not None:
            return self.tt_bits
        return DEFAULT_TT_BITS.get(state.game, 18)

    def horizon_for(self, state: GameState) -> int | str | None:
        """Tricks searched exactly before the static evaluation (None: to the end;
        RELAXED: to the end in R_DD, see ``relaxed``)."""
        if self.horizon == "exact" or not dd.supports_horizon(state.game):
            return None           # this game's search always runs to the end
        auto = self._auto_horizon(state)
        if auto is None:
            return None
        if self.horizon == "auto":
            if self.relaxed:
                check_game_option(self.name, "relaxed", state.game)
                if tricks_left(state) <= self.relaxed:
                    return RELAXED
            return auto
        return self.horizon

    def _auto_horizon(self, state: GameState) -> int | None:
        """The game's own horizon at ``state`` (``default_horizon``)."""
        if self.search != "now" and state.game == "tarot":
            return dd.module_for(state.game).default_horizon(state, search=self.search)
        return dd.module_for(state.game).default_horizon(state)

    def solve_cards(self, state: GameState, horizon: int | str | None, only: Any = None):
        """Values of every legal card in one world (of the moves ``only``, if given).
        Where horizons apply, a world whose search hits the node budget is searched
        again with a shorter horizon (3 after an exact search, then one trick less down
        to 1), so costly worlds are still counted rather than dropped."""
        return self.solve_cards_at(state, horizon, only)[0]

    def solve_cards_at(self, state: GameState, horizon: int | str | None,
                       only: Any = None):
        """``solve_cards``, the horizon that gave its values (None: exact, RELAXED: R_DD's
        exact values) and the nodes spent by all the searches tried."""
        values = self._solve_cards(state, horizon, only)
        spent = nodes_spent(values)
        if self.horizon == "exact" or not dd.supports_horizon(state.game):
            return values, horizon, spent
        while any(r.value is None for r in values.values()) and (
                horizon is None or horizon == RELAXED or horizon > 1):
            if horizon is None:
                horizon = 3
            elif horizon == RELAXED:
                horizon = self._auto_horizon(state)   # the horizon R_DD stood in for
            else:
                horizon -= 1
            values = self._solve_cards(state, horizon, only)
            spent += nodes_spent(values)
        return values, horizon, spent

    def _solve_cards(self, state: GameState, horizon: int | str | None,
                     only: Any = None):
        limits: dict[str, Any] = {"node_budget": self.budget(state),
                                  "tt_bits": self.table_bits(state)}
        if horizon == RELAXED:
            limits["relaxed"] = True
        elif horizon is not None:
            limits["horizon"] = horizon
        if only is not None:
            limits["only"] = only
        if self.search != "now":
            if state.game != "tarot":
                raise OptionError(f"search={self.search} applies to tarot only")
            limits["search"] = self.search
        if self.evaluation != "static":
            check_game_option(self.name, "evaluation", state.game)
            limits["evaluation"] = self.evaluation
        return dd.solve_cards(state, **limits)

    def fallback(self, state: GameState, seat: int, cards: list[Move]) -> Move:
        """The heuristic player's card, when no exact search finished in budget."""
        move = self.helper.choose(state, seat)
        return move if move in cards else cards[0]

    def _simulated_decision(self, state: GameState, seat: int,
                            seed: int | None = None) -> Move | None:
        """A non-card decision from the game's bid analysis (its worlds drawn from
        ``seed``, else from the agent's stream), or None to fall back."""
        import importlib

        from .bidding import BIDDING_MODULES

        try:
            module = importlib.import_module(BIDDING_MODULES[state.game])
        except (ImportError, KeyError):
            return None
        decide = getattr(module, "decide", None)
        if decide is None:
            return None
        if seed is None:
            seed = self.rng.randrange(1 << 30)
        return decide(state, seat, self.bid_samples, seed, seconds=self.seconds)

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self.helper.reset(seed)
        self.deal_seed = seed

    def choose(self, state: GameState, seat: int) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        cards = [m for m in legal if m.kind == "card"]
        if len(cards) != len(legal):
            move = None
            if self.bidding == "sim":
                move = self._simulated_decision(state, seat)
            elif self.discard == "sim" and state.phase in DISCARD_PHASES:
                # seeded by the deal, not drawn from the agent's stream: the card play
                # after it then draws the worlds it would draw after a heuristic discard
                move = self._simulated_decision(state, seat, self.deal_seed)
            if move is None:
                move = self.helper.choose(state, seat)
            if move.kind != "card" or not cards:
                return move
        if len(cards) == 1:
            return cards[0]
        return self.choose_card(state, seat, cards)

    def choose_card(self, state: GameState, seat: int, cards: list[Move]) -> Move:
        raise NotImplementedError


class PimcAgent(_CardAgent):
    """Perfect-information Monte Carlo over uniformly sampled worlds."""

    name = "pimc"

    def __init__(self, seed: int = 0, worlds: int = 100, seconds: float | None = None,
                 objective: str = "mean", node_budget: int | None = None,
                 tt_bits: int | None = None,
                 bidding: str = "heuristic", bid_samples: int = 24,
                 horizon: int | str = "auto", threads: int = 1, auction: bool = False,
                 prune: bool = True, search: str = "now", infer: float = 0.0,
                 pool: int = 4, ess: float = 0.0, exact: int = 0, mcmc: int = 0,
                 chains: int = 5, nodes: int | None = None, model: str = "heuristic",
                 alphamu: int = 0, alphamu_tricks: int = 3, alphamu_front: int = 64,
                 evaluation: str = "static", discard: str = "heuristic", relaxed: int = 0):
        super().__init__(seed, node_budget, tt_bits, bidding, bid_samples, horizon, search,
                         evaluation, discard, relaxed)
        # αμ over the last tricks (Belote, Coinche; solver.alphamu): when at most
        # ``alphamu_tricks`` tricks are left (the one in progress counted), the card is
        # chosen by an αμ search of ``alphamu`` of the seat's own cards over the same
        # worlds (1 is PIMC; 0: off), its fronts cut to ``alphamu_front`` vectors (0: no cut)
        for name, val, low, high in (("alphamu", alphamu, 0, 8),
                                     ("alphamu_tricks", alphamu_tricks, 1, 8),
                                     ("alphamu_front", alphamu_front, 0, 100_000)):
            if isinstance(val, bool) or not isinstance(val, int) or not low <= val <= high:
                raise OptionError(f"pimc: {name} must be an integer {low} to {high}, "
                                  f"got {val!r}")
        if alphamu and objective == "make":
            raise OptionError("pimc: alphamu searches the mean (or points) objective, "
                              "not make")
        self.alphamu, self.alphamu_tricks = alphamu, alphamu_tricks
        self.alphamu_front = alphamu_front
        # a decision's node budget: the worlds are solved in sampling order until their
        # searches have spent ``nodes`` in all (the world that crosses it still counts),
        # so a decision's cost is bounded and, unlike ``seconds``, its card does not
        # depend on the machine or its load
        if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int)
                                  or nodes < 1):
            raise OptionError(f"pimc: nodes must be a positive number of nodes, got {nodes!r}")
        self.nodes = nodes
        # worlds weighted by the others' play (solver.play_model; Belote, Coinche,
        # Tarot): ``infer`` is the model's eps (0: off); ``pool`` x ``worlds`` uniform
        # draws are resampled by their likelihood down to ``worlds`` (repeats solved
        # once); ``ess``: the likelihood is tempered (``temper``) so that the pool's
        # effective size stays at least ``ess`` x ``worlds`` (0: never tempered)
        if isinstance(infer, bool) or not isinstance(infer, (int, float)) \
                or not 0 <= infer < 1:
            raise OptionError(f"pimc: infer must be a number in [0, 1), got {infer!r}")
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
            raise OptionError(f"pimc: pool must be a positive integer, got {pool!r}")
        if isinstance(ess, bool) or not isinstance(ess, (int, float)) or not 0 <= ess <= 1:
            raise OptionError(f"pimc: ess must be a number in [0, 1], got {ess!r}")
        self.infer, self.pool, self.ess = float(infer), pool, float(ess)
        # the play model: the heuristic's card, or (Belote, Coinche) the model learned
        # from pimc's own cards (solver.play_model.BELOTE_WEIGHTS), eps of uniform mixed in
        if model not in ("heuristic", "learned"):
            raise OptionError(f"pimc: model must be heuristic or learned, got {model!r}")
        if model == "learned" and not infer:
            raise OptionError("pimc: model=learned weighs the worlds by the play: it needs "
                              "infer=EPS")
        self.model = model
        # with ``infer``: the worlds are drawn by ``chains`` Metropolis chains of
        # ``mcmc`` steps each along the play model's likelihood (solver.play_mcmc),
        # started from draws of the pool resampled by it (0: off)
        if isinstance(mcmc, bool) or not isinstance(mcmc, int) or mcmc < 0:
            raise OptionError(f"pimc: mcmc must be a number of steps >= 0, got {mcmc!r}")
        if mcmc and not infer:
            raise OptionError("pimc: mcmc moves the worlds along the play model: it needs "
                              "infer=EPS")
        if mcmc and auction:
            raise OptionError("pimc: mcmc keeps the hard facts only, not the auction: "
                              "mcmc and auction do not combine")
        if isinstance(chains, bool) or not isinstance(chains, int) or chains < 1:
            raise OptionError(f"pimc: chains must be a positive integer, got {chains!r}")
        self.mcmc, self.chains = mcmc, chains
        # single-dummy exact: when at most ``exact`` worlds are consistent with what the
        # seat knows, every one of them is solved (no sampling, no elimination)
        if isinstance(exact, bool) or not isinstance(exact, int) or exact < 0:
            raise OptionError(f"pimc: exact must be a count of worlds >= 0, got {exact!r}")
        self.exact = exact
        for name, flag in (("auction", auction), ("prune", prune)):
            if flag not in (True, False, 0, 1):
                raise OptionError(f"pimc: {name} must be true or false, got {flag!r}")
        self.prune = bool(prune)
        # worlds follow the auction (solver.inference; Coinche, Belote, Tarot,
        # Terziglio): others' hands make their calls when the heuristic bidder holds them
        self.auction = bool(auction)
        self._models: dict[Any, Any] = {}
        if not isinstance(worlds, int) or worlds < 1:
            raise OptionError(f"pimc: worlds must be a positive integer, got {worlds!r}")
        if objective not in OBJECTIVES:
            raise OptionError(f"pimc: objective must be one of {', '.join(OBJECTIVES)}, "
                              f"got {objective!r}")
        self.worlds, self.seconds, self.objective = worlds, seconds, objective
        self.threads = parallel.check_threads(threads)
        self.last_stats: dict[str, Any] = {}
        self.last_candidates: list[Move] = []

    def card_values(self, state: GameState, seat: int, cards: list[Move]
                    ) -> dict[Move, float] | None:
        """Aggregated value of each card over the sampled worlds (seat's point of view);
        None when no world could be solved within the node budget. With ``prune``, a
        card left out by ``_prune`` keeps its mean over the worlds it was solved in, and
        ``last_candidates`` lists the cards solved in every world (the choice is among
        them)."""
        start = time.monotonic()
        draws, weights, fit, inferred, every = self.decision_worlds(state, seat, start)
        prune = self.prune and every is None
        horizon = self.horizon_for(state)
        solve = self._world_solver(state, seat, horizon)
        # the horizon the worlds' searches start at: lowered when most worlds of a batch
        # had to fall back to a shorter one (``_start_horizon``)
        first_horizon = horizon
        used_horizons: Counter[int | None] = Counter()  # worlds solved at each horizon
        totals = {m: 0.0 for m in cards}
        candidates = list(cards)
        per_world: list[dict[Move, float]] = []  # the candidates' values, world by world
        row_weights: list[float] = []            # and the worlds' weights
        used = skipped = spent = 0
        out_of_time = False
        # Worlds go in batches whose candidates are fixed when the batch starts, and
        # are consumed in sampling order, so the decision does not depend on the
        # thread count.
        batch = PRUNE_BATCH if prune else len(draws)
        for first in range(0, len(draws), batch):
            only = None if len(candidates) == len(cards) else tuple(candidates)
            jobs = [(h, only, horizon) for h in draws[first:first + batch]]
            batch_used = []
            for k, (sign, values, used_horizon, world_nodes) in enumerate(
                    parallel.ordered_map(solve, jobs, self.threads)):
                weight = weights[first + k]
                batch_used.append(used_horizon)
                spent += world_nodes
                if any(values.get(m) is None for m in candidates):
                    skipped += 1  # budget hit in this world: skip it rather than guess
                else:
                    best = max(sign * values[m] for m in candidates)
                    row = {}
                    for m in candidates:
                        v = sign * values[m]
                        row[m] = v if self.objective != "make" else (v >= best) + (v > 0)
                        totals[m] += weight * row[m]
                    per_world.append(row)
                    row_weights.append(weight)
                    used += 1
                if self.seconds is not None and used and \
                        time.monotonic() - start > self.seconds:
                    out_of_time = True
                    break
                if self.nodes is not None and used and spent >= self.nodes:
                    out_of_time = True  # the decision's node budget is spent
                    break
                if skipped >= 3 and not used:
                    out_of_time = True
                    break  # the search is out of reach at this point of the deal
            used_horizons.update(batch_used)
            if out_of_time:
                break
            horizon = _start_horizon(horizon, batch_used)
            if prune and used >= PRUNE_AFTER and len(candidates) > 1:
                candidates = _prune(candidates, totals, per_world,
                                    row_weights if inferred else None)
                if len(candidates) == 1:
                    break  # the decision is made: more worlds cannot change it
        self.last_stats = {"worlds": used, "skipped": skipped, "horizon": first_horizon,
                           "time": time.monotonic() - start, "nodes": spent,
                           "pruned": len(cards) - len(candidates)}
        if set(used_horizons) != {first_horizon}:
            # worlds searched at each horizon (over the node budget at the first)
            self.last_stats["horizons"] = dict(used_horizons)
        self.last_candidates = candidates
        self._note_worlds(fit, inferred, every)
        if not used:
            return None
        # a card's mean is over the worlds it was solved in (all, unless pruned)
        return {m: totals[m] / sum(w for row, w in zip(per_world, row_weights, strict=True)
                                   if m in row) for m in cards}

    def decision_worlds(self, state: GameState, seat: int, start: float):
        """The worlds a card decision solves and their weights: (worlds, weights, how
        many follow the auction, what the inference did, every consistent world or
        None). ``start``: the decision's ``time.monotonic`` start (``seconds``)."""
        every = constraints.all_holdings(state, seat, self.exact) if self.exact else None
        if every is not None:
            # few worlds left: all of them, each once (weighted by the play, with infer)
            draws, fit = every, None
            draws, weights, inferred = self._play_weights(state, seat, draws, every=True)
        else:
            draws, fit = self.draw_worlds(state, seat, self.rng.randrange(1 << 62))
            stop = None if self.seconds is None else start + self.seconds / 2
            draws, weights, inferred = self._play_weights(state, seat, draws, stop=stop)
        return draws, weights, fit, inferred, every

    def _note_worlds(self, fit: Any, inferred: Any, every: list | None) -> None:
        # what decision_worlds did, in last_stats
        if fit is not None:
            self.last_stats["auction_fit"] = fit
        if inferred:
            self.last_stats["inferred"] = inferred
        if every is not None:
            self.last_stats["exact"] = len(every)  # every consistent world was solved

    def _play_weights(self, state: GameState, seat: int, draws: list, every: bool = False,
                      stop: float | None = None
                      ) -> tuple[list, list[float], dict[str, Any] | None]:
        """The worlds to solve and their weights: the draws, each of weight 1, unless
        ``infer`` is on and the game has a play model (``solver.play_model``); then the
        draws resampled by the likelihood of the others' past cards in them
        (``resample``, ``worlds`` picks), each distinct world once, weighted by its
        picks; ``every`` (all the consistent worlds): each weighted by its likelihood.
        Third: what the inference did (None: not applied). ``stop`` (a
        ``time.monotonic`` instant): the draws not weighed by then are left out."""
        if not self.infer or not draws:
            return draws, [1.0] * len(draws), None
        from .play_model import play_model

        model = play_model(state, seat, self.infer, learned=self.model == "learned")
        if model is None or not model.plays:
            # nothing to weigh by: as many uniform draws as without infer (the pool's
            # first ones: they are independent draws)
            if not every:
                draws = draws[:self.worlds]
            return draws, [1.0] * len(draws), None
        logs = []
        for h in draws:
            if stop is not None and len(logs) % 32 == 31 and time.monotonic() > stop:
                break
            logs.append(model.log_weight(h))
        draws = draws[:len(logs)]
        power = temper(logs, self.ess * self.worlds) if self.ess else 1.0
        if power < 1:
            logs = [power * x for x in logs]
        if every:
            top = max(logs)
            return draws, [math.exp(x - top) for x in logs], {
                "pool": len(draws), "distinct": len(draws), "power": power}
        rng = random.Random(self.rng.randrange(1 << 62))
        if self.mcmc:
            picks = resample(logs, min(self.chains, self.worlds), rng)
            return self._chain_worlds(state, seat, model, power,
                                      [draws[i] for i, k in picks for _ in range(k)],
                                      rng, len(draws))
        picks = resample(logs, min(self.worlds, len(draws)), rng)
        return ([draws[i] for i, _ in picks], [float(k) for _, k in picks],
                {"pool": len(draws), "distinct": len(picks), "power": power})

    def _chain_worlds(self, state: GameState, seat: int, model, power: float,
                      starts: list, rng: random.Random, pool: int
                      ) -> tuple[list, list[float], dict[str, Any]]:
        """``mcmc``: ``worlds`` worlds from one Metropolis chain (``solver.play_mcmc``)
        of ``mcmc`` steps a start (draws resampled by the likelihood), each keeping its
        share over its second half; each distinct world once, weighted by the times
        it was kept."""
        from .play_mcmc import chain_worlds, world_key

        make_hidden, _ = constraints.game_functions(state.game)
        ends, stats = chain_worlds(make_hidden(state.observation(seat)), model, starts,
                                   self.mcmc, self.worlds, rng, power)
        merged: dict[tuple[int, ...], list] = {}
        for h in ends:
            got = merged.setdefault(world_key(h), [h, 0])
            got[1] += 1
        worlds = list(merged.values())
        return ([h for h, _ in worlds], [float(k) for _, k in worlds],
                {"pool": pool, "distinct": len(worlds), "power": power, **stats})

    def _world_solver(self, state: GameState, seat: int, horizon: int | None):
        """``solve((holdings, only, start))`` -> (sign, {card: value}, horizon used,
        nodes spent) for one world: the value of each legal card (of the cards ``only`` at least,
        when the game's solver can leave the others out), as a score of the deal;
        ``sign`` turns it into the seat's own gain. ``start``: where the game's search
        takes a horizon, the first one tried (``solve_cards_at``); ``horizon``, the
        decision's own, sets how a world is scored."""
        module = dd.module_for(state.game)
        direct = getattr(module, "world_card_solver", None)
        if direct is not None:
            # Belote/Coinche: the searched value depends only on the hands and the public
            # play, so worlds are solved from their hands without building a world state
            # (which replays the whole history: most of the time of a mid-deal decision).
            own_sign = seat_sign(state, seat)  # the sides are public
            # the DD value is the attack's card points; a world scores the deal, and is
            # searched only as far as that score needs (flat where a contract fails)
            to_score = getattr(module, "attack_net_score", None)
            net = to_score(state) if to_score and self.objective != "points" else None
            solve_hands = direct(state, self.budget(state), self.table_bits(state), net)

            def solve(job):
                holdings, only, _ = job
                hands = holdings[:len(state.hands)]
                results = solve_hands(hands, only)
                values = {m: r.value for m, r in results.items()}
                if net is not None and None not in values.values():
                    net_of = net.at([mask_of(h) for h in hands])
                    values = {m: net_of(v) for m, v in values.items()}
                return own_sign, values, None, nodes_spent(results)

            return solve
        _, make_world = constraints.game_functions(state.game)
        # Terziglio: the DD value is the margin; where the worlds are searched to the
        # end of the deal, a world scores the settlement. A horizon search's margin is
        # an estimate, and a step function of an estimate is mostly noise: those
        # decisions keep the margin (per decision, so that scales are never mixed).
        to_score = getattr(module, "value_score", None)
        score = to_score(state) if to_score and self.objective != "points" \
            and horizon is None else None

        def solve_world(job):
            holdings, only, start = job
            world = make_world(state, seat, holdings)
            results, used, spent = self.solve_cards_at(world, start, only)
            values = {m: r.value for m, r in results.items()}
            if score is not None and None not in values.values():
                # the settlement is a staircase (G moves every ~200 half points of
                # margin): the margin breaks its ties, below one step (|v| < 2000),
                # or cards that win in every world would throw margin away
                values = {m: score(v) + v / 2000 for m, v in values.items()}
            return seat_sign(world, seat), values, used, spent

        return solve_world

    def draw_worlds(self, state: GameState, seat: int, seed: int
                    ) -> tuple[list[list[list[int]]], int | None]:
        """The worlds to solve: uniform draws (``solver.constraints``; with
        ``seconds``, as many as half of it allows); with ``auction``, draws until
        ``worlds`` of them follow the auction (at most ``DRAWS_PER_WORLD`` per world,
        and half of ``seconds``); a shortfall is filled with the draws in which the
        fewest calling seats miss their calls (earliest first). Returns the worlds and
        how many follow the auction (None: not asked, or no model for this game /
        auction)."""
        model = played = None
        if self.auction:
            obs = state.observation(seat)
            played = inference.played_by_seat(obs, state.game)
            model = self._auction_model(state, seat, obs, played)
        draw = constraints.holdings_sampler(state, seat)
        rng = random.Random(seed)
        # with a time budget, drawing may use half of it (the rest solves the worlds)
        stop = None if self.seconds is None else time.monotonic() + self.seconds / 2
        # with ``infer``, ``pool`` times more, to be resampled by the play (once another
        # seat has played a card)
        wanted = self.worlds
        if self.infer and any(s != seat for s in inference.played_by_seat(
                state.observation(seat), state.game)):
            wanted *= self.pool
        if model is None:
            # the draws of sample_holdings, as many as half the budget allows
            drawn: list[list[list[int]]] = []
            for i in range(wanted):
                if stop is not None and i % 64 == 63 and time.monotonic() > stop:
                    break
                drawn.append(draw(rng))
            return drawn, None
        good: list[list[list[int]]] = []
        # the best misfits so far, a max-heap on (misfits, order): (-misfits, -order, world)
        other: list[tuple[int, int, list[list[int]]]] = []
        for i in range(inference.DRAWS_PER_WORLD * wanted):
            if stop is not None and i % 64 == 63 and time.monotonic() > stop:
                break
            h = draw(rng)
            # a draw is kept as a filler only if it beats the worst one kept
            worst = -other[0][0] if len(other) == wanted else None
            bad = model.misfits(h, played, rng, stop_at=worst)
            if bad == 0:
                good.append(h)
                if len(good) == wanted:
                    break
            elif worst is None or bad < worst:
                heapq.heappush(other, (-bad, -i, h))
                if len(other) > wanted:
                    heapq.heappop(other)
        fit = len(good)
        fill = [h for _, _, h in sorted(other, key=lambda x: (-x[0], -x[1]))]
        return (good + fill)[:wanted], fit

    def _auction_model(self, state: GameState, seat: int, obs: dict[str, Any],
                       played: dict[int, int]):
        """The auction model of this deal for ``seat`` (built once per deal: the key
        is public: the seat, dealer, calls and the seat's own cards)."""
        calls = inference.calls_heard(obs)
        if not calls:
            return None
        own = state.hands[seat] | played.get(seat, 0)
        key = (state.game, seat, obs.get("dealer"), repr(calls), own)
        if key not in self._models:
            if len(self._models) > 64:
                self._models.clear()
            self._models[key] = inference.auction_model(state, seat)
        return self._models[key]

    def uses_alphamu(self, state: GameState) -> bool:
        """Whether this card decision is taken by the αμ search (``alphamu``)."""
        # the seat to act has not played to the trick in progress: its cards are the
        # tricks left, that one counted
        return bool(self.alphamu) and state.game in ("belote", "coinche") \
            and state.hands[state.to_act].bit_count() <= self.alphamu_tricks

    def alphamu_values(self, state: GameState, seat: int, cards: list[Move]
                       ) -> dict[Move, float] | None:
        """``card_values`` by the αμ search (``solver.alphamu``) over the decision's
        worlds (the same ones PIMC would solve: ``decision_worlds``), without
        elimination; None when a world's search hits the node budget (the heuristic then
        plays, as in ``card_values``)."""
        from .alphamu import AlphaMu, Incomplete, OverBudget

        start = time.monotonic()
        draws, weights, fit, inferred, every = self.decision_worlds(state, seat, start)
        self.last_candidates = list(cards)
        self.last_stats = {"worlds": len(draws), "skipped": 0, "horizon": None,
                           "pruned": 0}
        if not draws:
            return None
        search = AlphaMu(state, seat, draws, self.alphamu, weights,
                         self.budget(state), self.table_bits(state),
                         "points" if self.objective == "points" else "mean",
                         self.alphamu_front)
        # deepening: depth 1 (PIMC's values on these worlds), then one more of the
        # seat's cards at a time up to ``alphamu`` while the work budget lasts; a
        # search deeper than the seat's cards but its last adds nothing (the last is
        # forced). The budget counts work, not time, so the card stays seeded.
        deepest = min(self.alphamu, state.hands[seat].bit_count() - 1)
        try:
            by_card = search.card_values(1)
            depth = 1
            search.work, search.work_limit = 0, ALPHAMU_WORK
            for d in range(2, deepest + 1):
                try:
                    by_card = search.card_values(d)
                except OverBudget:
                    break
                depth = d
        except Incomplete:
            return None
        finally:
            self.last_stats["alphamu"] = dict(search.stats, work=search.work)
            self.last_stats["nodes"] = search.stats["dd_nodes"]
            self.last_stats["time"] = time.monotonic() - start
        self.last_stats["alphamu"]["depth"] = depth
        self._note_worlds(fit, inferred, every)
        return {m: by_card[m.value] for m in cards}

    def choose_card(self, state: GameState, seat: int, cards: list[Move]) -> Move:
        if self.uses_alphamu(state):
            values = self.alphamu_values(state, seat, cards)
        else:
            values = self.card_values(state, seat, cards)
        if values is None:
            self.last_stats["fallback"] = "heuristic"
            return self.fallback(state, seat, cards)
        return max(self.last_candidates, key=lambda m: (values[m], -cards.index(m)))


class OracleAgent(_CardAgent):
    """Plays the double-dummy best card on the true deal (cheats: sees every hand)."""

    name = "oracle"
    BUDGET_FACTOR = 4   # x the game's node budget (PIMC's, per world)

    def budget(self, state: GameState) -> int | None:
        """The oracle solves one deal a decision where PIMC solves a hundred: it may
        spend more nodes on it (the agent's ``node_budget`` still rules if given)."""
        base = super().budget(state)
        if self.node_budget is not None or base is None:
            return base
        return self.BUDGET_FACTOR * base

    def horizon_for(self, state: GameState) -> int | None:
        """``auto``: one trick deeper than PIMC's horizon (exact where PIMC is exact),
        falling back a trick at a time within the budget (``solve_cards_at``). At PIMC's
        horizon, 1 trick early in a Tarot deal, the oracle as taker led the Petit,
        which the static evaluation on the true deal counted as lost to the hunt
        anyway (benchmarks/RESULTS.md)."""
        auto = super().horizon_for(state)
        if self.horizon == "auto" and isinstance(auto, int):
            return auto + 1
        return auto

    def choose_card(self, state: GameState, seat: int, cards: list[Move]) -> Move:
        sign = seat_sign(state, seat)
        values = self.solve_cards(state, self.horizon_for(state))
        if any(values[m].value is None for m in cards):
            return self.fallback(state, seat, cards)
        best = max(sign * values[m].value for m in cards)
        tied = [m for m in cards if sign * values[m].value == best]
        if len(tied) == 1:
            return tied[0]
        # Equal against omniscient play (e.g. a deal lost whatever the card) is not equal
        # against real opponents: the heuristic player's card breaks the tie. The first
        # legal card did before, and in Tarot that is the Petit, which a taker then gave
        # away under the 21 in deals pimc made (benchmarks/RESULTS.md).
        pick = self.helper.choose(state, seat)
        return pick if pick in tied else tied[0]
