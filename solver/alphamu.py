"""αμ search over the last tricks of a Belote/Coinche deal (issue 28, item 2).

PIMC solves every sampled world double-dummy, so it assumes that later in the deal the
seat deciding (the *observer*) will know the hidden hands and play each world's best
card ("strategy fusion"). αμ (Cazenave & Ventos, "The αμ Search Algorithm for the Game
of Bridge", 2019) searches the sampled worlds together instead: a node holds the worlds
consistent with the cards played inside the search, and its value is a *front*, a set
of vectors with one value per world, each the outcome of one strategy of the observer
in that subtree. Here only the observer is imperfectly informed; the other seats play
as in PIMC, each world's partner maximising and opponents minimising, seeing all:

- observer node: one card for all the node's worlds; the front is the union of the
  children's fronts;
- partner / opponent node: each world may get its own card; a child keeps the worlds
  where the seat holds the card and may legally play it, and the front is the product
  of the children's fronts, each world taking the max (partner) / min (opponents) of
  the children that keep it;
- every front is reduced to its Pareto-maximal vectors (a vector no other one matches
  or beats in every world).

A vector's entries are PIMC's per-world values: the seat's side's deal score
(``seat_sign`` times ``attack_net_score``, or the attack's card points with
``objective=points``). At the observer's ``depth``-th card (and at its last card of
the deal) each world is solved double-dummy by the Belote/Coinche core for every
legal card (``solve_cards_position``, the search PIMC runs), so ``depth=1`` is PIMC.
The root plays the card whose front holds the vector with the best (weighted) mean.
Without a cap the value is exact: the best mean over the worlds of the observer's pure
strategies (a card per history it can tell apart) evaluated by per-world minimax
below; ``front_cap`` keeps the cap best vectors by mean in a front that grows beyond
it (then a lower bound).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .cards import mask_of
from .core.belote import BeloteCore, Position, core_of, position_of_state, rules_of_state
from .dd.belote import attack_net_score, solve_cards_position
from .errors import AtoutError, OptionError

GAMES = ("belote", "coinche")

# The work budget's unit (``work_limit``): ~20 µs in Coinche, i.e. a world solved at a
# leaf, a vector built by a product, DD_NODES_PER_UNIT nodes of a leaf's search or
# PARETO_PER_UNIT vector comparisons of a Pareto reduction
DD_NODES_PER_UNIT = 100
PARETO_PER_UNIT = 10


class Incomplete(AtoutError):
    """A world's double-dummy search hit its node budget."""


class OverBudget(AtoutError):
    """The search's work (``work_limit``) ran out."""


def pareto(front: list[tuple], count: list[int] | None = None,
           limit: int = 0) -> list[tuple]:
    """The vectors of ``front`` that no other vector matches or beats in every world
    (the observer maximises; duplicates kept once), best sum first. Partial vectors (an
    opponent node's product so far) hold +-inf in the same unset worlds: those compare
    equal and are left out of the sums. ``count[0]`` adds the comparisons made; past
    ``limit`` of them (0: none) the reduction stops (``OverBudget``)."""
    out: list[tuple] = []
    done = 0
    for v in sorted(set(front), key=lambda x: -_finite_sum(x)):
        done += len(out)
        if limit and done > limit:
            raise OverBudget(f"alphamu: over {limit} comparisons")
        if not any(all(a >= b for a, b in zip(k, v, strict=True)) for k in out):
            out.append(v)
    if count is not None:
        count[0] += done
    return out


def _finite_sum(v: Sequence[float]) -> float:
    return sum(x for x in v if x not in _INF)


def _mean(v: Sequence[float], w: Sequence[float]) -> float:
    """Weighted mean of a vector's set entries."""
    num = den = 0.0
    for a, b in zip(v, w, strict=True):
        if a not in _INF:
            num += a * b
            den += b
    return num / den if den else 0.0


_INF = (float("inf"), float("-inf"))


def _cap(front: list[tuple], weights: Sequence[float], cap: int) -> list[tuple]:
    """The ``cap`` vectors of the best weighted mean (all if fewer)."""
    if cap and len(front) > cap:
        front = sorted(front, key=lambda v: -_mean(v, weights))[:cap]
    return front


class AlphaMu:
    """One decision's αμ search: ``card_fronts()`` -> {deck card: front} at the root."""

    def __init__(self, state: Any, seat: int, worlds: list, depth: int,
                 weights: Sequence[float] | None = None, node_budget: int | None = None,
                 tt_bits: int = 16, objective: str = "mean", front_cap: int = 0,
                 work_limit: int = 0):
        if state.game not in GAMES:
            raise OptionError(f"alphamu searches Belote and Coinche only, not {state.game}")
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise OptionError(f"alphamu: depth must be a positive integer, got {depth!r}")
        self.seat, self.depth = seat, depth
        self.rules = rules_of_state(state)
        base = position_of_state(state)
        if base.to_act != seat:
            raise AtoutError(f"seat {seat} is not to act")
        self.base = base
        self.taker, self.attack = base.taker, base.taker % 2
        self.sign = 1 if seat % 2 == self.attack else -1
        self.node_budget, self.tt_bits, self.front_cap = node_budget, tt_bits, front_cap
        # work (units of ~20 µs: DD_NODES_PER_UNIT, PARETO_PER_UNIT); past
        # ``work_limit`` (0: none) the search stops (``OverBudget``)
        self.work_limit = work_limit
        self.work = 0
        net = attack_net_score(state) if objective != "points" else None
        self.cores: list[BeloteCore] = []
        self.net_of: list[Any] = []
        self.classes: list[bytes | None] = []
        for h in worlds:
            masks = [x if isinstance(x, int) else mask_of(x) for x in h[:4]]
            if masks[seat] != base.hands[seat]:
                raise AtoutError("a world must keep the hand of the seat to act")
            self.cores.append(core_of(replace(base, hands=tuple(masks)), self.rules))
            # belotes count from the hands at the decision (as PIMC's worlds do)
            self.net_of.append(net.at(masks) if net is not None else (lambda p: p))
            self.classes.append(net.classes(masks) if net is not None else None)
        self.weights = list(weights) if weights is not None else [1.0] * len(worlds)
        self.stats = {"worlds": len(worlds), "depth": depth, "leaves": 0, "nodes": 0,
                      "dd_nodes": 0, "max_front": 0, "capped": 0,
                      "products": 0}

    def _spend(self, work: int) -> None:
        self.work += work
        if self.work_limit and self.work > self.work_limit:
            raise OverBudget(f"alphamu: over {self.work_limit} units of work")

    # --- search ------------------------------------------------------------------------

    def card_fronts(self, depth: int | None = None) -> dict[int, list[tuple]]:
        """The root's front of each legal card (deck index), vectors over all worlds,
        searching ``depth`` of the observer's cards (default: the search's)."""
        t = time.monotonic()
        ws = tuple(range(len(self.cores)))
        flags = (self.base.attack_all, self.base.taker_all, self.base.defence_all)
        out = self._observer(ws, depth or self.depth, tuple(self.base.trick), flags)
        self.stats["time"] = time.monotonic() - t
        return out

    def card_values(self, depth: int | None = None) -> dict[int, float]:
        """Each root card's value: the best weighted mean of a vector of its front."""
        return {c: max(_mean(v, self.weights) for v in f)
                for c, f in self.card_fronts(depth).items()}

    def _weights_of(self, ws: tuple[int, ...]) -> list[float]:
        return [self.weights[w] for w in ws]

    def _observer(self, ws, depth, trick, flags) -> dict[int, list[tuple]]:
        """Front of each card of the observer (to act at this node, in every world)."""
        self.stats["nodes"] += 1
        core = self.cores[ws[0]]
        if depth == 1 or core.hand(self.seat).bit_count() == 1:
            return self._leaf(ws, trick, flags)
        legal = core.legal()   # the observer's hand and the trick are the same in all
        out = {}
        for c in _bits(legal):
            out[c] = self._after(ws, c, depth - 1, trick, flags)
        return out

    def _after(self, ws, card, depth, trick, flags) -> list[tuple]:
        """Front after ``card`` is played in every world of ``ws`` (legal in each)."""
        trick2, flags2 = self._play(ws, card, trick, flags)
        try:
            return self._node(ws, depth, trick2, flags2)
        finally:
            for w in ws:
                self.cores[w].undo()

    def _play(self, ws, card, trick, flags):
        for w in ws:
            self.cores[w].play(card)
        core = self.cores[ws[0]]
        if core.trick_count:
            return trick + (card,), flags
        winner = core.leader   # the trick is complete: its winner leads the next one
        a, t, d = flags
        return (), (a and winner % 2 == self.attack, t and winner == self.taker,
                    d and winner % 2 != self.attack)

    def _node(self, ws, depth, trick, flags) -> list[tuple]:
        to_act = self.cores[ws[0]].to_act
        if to_act == self.seat:
            fronts = self._observer(ws, depth, trick, flags)
            front = self._pareto([v for f in fronts.values() for v in f])
            return self._keep(ws, front)
        # another seat: each world plays its own card; a child keeps the worlds where
        # the card is in that seat's hand and legal
        groups: dict[int, list[int]] = {}
        for w in ws:
            for c in _bits(self.cores[w].legal()):
                groups.setdefault(c, []).append(w)
        self.stats["nodes"] += 1
        best = max if to_act % 2 == self.seat % 2 else min   # partner max, opponents min
        unset = float("-inf") if best is max else float("inf")
        pos = {w: i for i, w in enumerate(ws)}
        acc: list[tuple] = [tuple([unset] * len(ws))]
        for c in sorted(groups):
            sub = tuple(groups[c])
            child = self._after(sub, c, depth, trick, flags)
            idx = [pos[w] for w in sub]
            self.stats["products"] += len(acc) * len(child)
            self._spend(len(acc) * len(child))
            nxt = []
            for a in acc:
                for v in child:
                    x = list(a)
                    for i, val in zip(idx, v, strict=True):
                        if best(x[i], val) != x[i]:
                            x[i] = val
                    nxt.append(tuple(x))
            # partial vectors (unset worlds at the identity of max/min) compare as
            # finished ones do: max/min with what is still to come keeps the order
            acc = self._keep(ws, self._pareto(nxt))
        return acc

    def _pareto(self, front: list[tuple]) -> list[tuple]:
        count = [0]
        limit = 0
        if self.work_limit:
            limit = max(1, (self.work_limit - self.work) * PARETO_PER_UNIT)
        out = pareto(front, count, limit)
        self._spend(count[0] // PARETO_PER_UNIT)
        return out

    def _keep(self, ws, front: list[tuple]) -> list[tuple]:
        self.stats["max_front"] = max(self.stats["max_front"], len(front))
        if self.front_cap and len(front) > self.front_cap:
            self.stats["capped"] += 1
            return _cap(front, self._weights_of(ws), self.front_cap)
        return front

    def _leaf(self, ws, trick, flags) -> dict[int, list[tuple]]:
        """Each world solved double-dummy for every legal card of the observer: one
        single-vector front per card."""
        legal = list(_bits(self.cores[ws[0]].legal()))
        cols: dict[int, list[float]] = {c: [] for c in legal}
        for w in ws:
            core = self.cores[w]
            position = Position(tuple(core.hand(s) for s in range(4)), trick, core.leader,
                                self.taker, core.attack_points, core.defence_points,
                                flags[0], flags[1], flags[2], core.tricks_done)
            per_card, nodes = solve_cards_position(position, self.rules, self.node_budget,
                                                   None, self.tt_bits, 0, self.classes[w])
            self.stats["leaves"] += 1
            self._spend(1 + nodes // DD_NODES_PER_UNIT)
            self.stats["dd_nodes"] += nodes
            for c in legal:
                v = per_card[c].value
                if v is None:
                    raise Incomplete("a world's search hit the node budget")
                cols[c].append(self.sign * self.net_of[w](v))
        return {c: [tuple(col)] for c, col in cols.items()}


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
