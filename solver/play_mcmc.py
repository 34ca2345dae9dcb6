"""Worlds drawn by the play: a Metropolis-Hastings chain over the consistent worlds.

``pimc:infer=EPS`` weighs uniform draws by the play model's likelihood
(``solver.play_model``). Late in a Tarot deal ~30 past cards make that likelihood so
sharp that 1-3 of 400 uniform draws carry the weight. ``pimc:infer=EPS,mcmc=STEPS``
instead moves each resampled draw along a Markov chain whose stationary law is the
likelihood-proportional one over the worlds consistent with the hard facts (voids,
cards seen, hand sizes; in Belote and Coinche the announces heard):

* state: the holder of every card the seat cannot locate (``constraints.Hidden``:
  ``allowed`` masks and ``capacities``; the fixed cards never move);
* move: with probability ``1 - CYCLE_SHARE`` two cards drawn uniformly (an unordered
  pair) trade holders; else three cards drawn uniformly (an ordered triple) rotate
  (the first goes to the second's holder, the second to the third's, the third to the
  first's). Both proposals are symmetric (the reverse move is drawn with the same
  probability), so the Hastings ratio is the likelihood ratio. A move that puts a card
  where it may not be, involves two cards of one holder or breaks the heard announces
  is rejected (the chain stays: still an exact Metropolis step). Swaps alone do not
  connect every pair of worlds (three cards each allowed to two of three seats, in a
  cycle); the rotations join such worlds, and the chains start from draws resampled
  by the likelihood, which reach every part of the space with about its weight;
* acceptance: min(1, (L(new) / L(old)) ** power), L the play model's likelihood and
  ``power`` the tempering of ``ess`` (1 without it).

The likelihood is a sum of log terms, one per past card of another seat, each a
function of that seat's hand only; a move changes two or three hands, so only their
seats' terms are evaluated again (the model caches a term per (card, hand)). Each term
is <= 0, so the acceptance test ``log u < power * (new - old)`` is decided as soon as
the partial sum of the new terms falls below ``log u / power + old``: most proposals
are rejected after their first card the heuristic would not have played.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from .cards import mask_of

# the share of proposals that rotate three cards rather than swap two
CYCLE_SHARE = 0.2


class PlayChain:
    """A Metropolis-Hastings chain over the holdings consistent with ``hidden`` (a
    ``constraints.Hidden``; a ``worlds_belote.BeloteHidden`` also checks the heard
    announces), targeting the play ``model``'s likelihood raised to ``power``."""

    def __init__(self, hidden: Any, model: Any, power: float = 1.0):
        self.hidden = hidden
        self.model = model
        self.power = power
        self.cards = sorted(hidden.allowed)
        self.allowed = dict(hidden.allowed)
        self.n_holders = len(hidden.capacities)
        self.fixed_masks = [0] * self.n_holders
        for c, h in hidden.fixed.items():
            self.fixed_masks[h] |= 1 << c
        # the play terms per seat: indices into model.plays
        self.by_seat: dict[int, list[int]] = {}
        # the holders each seat's terms read (its own hand; Tarocchini: the pile aside
        # for the seat that discarded it, PlayModel.deps)
        self.deps: dict[int, set[int]] = {}
        for i, p in enumerate(model.plays):
            self.by_seat.setdefault(p.seat, []).append(i)
            self.deps.setdefault(p.seat, set()).update(model.deps(i))
        check = getattr(hidden, "must_check", None)
        self.announces = check is not None and any(check(s) for s in hidden.heard)
        self.proposed = self.valid = self.accepted = 0
        self.seat_ll: dict[int, float] = {}

    # --- states --------------------------------------------------------------------
    def state_of(self, holdings: Sequence[Sequence[int]]) -> dict[int, int]:
        """The holder of every unknown card in ``holdings`` (per place, as drawn)."""
        where = {}
        for h, cards in enumerate(holdings):
            for c in cards:
                if c in self.allowed:
                    where[c] = h
        if len(where) != len(self.cards):
            raise ValueError("holdings do not place every unknown card")
        return where

    def holdings(self, where: dict[int, int]) -> list[list[int]]:
        """Per place, the sorted cards (unknown and fixed) of the state ``where``."""
        masks = list(self.fixed_masks)
        for c, h in where.items():
            masks[h] |= 1 << c
        return [[c for c in range(m.bit_length()) if m >> c & 1] for m in masks]

    def masks(self, where: dict[int, int]) -> list[int]:
        masks = list(self.fixed_masks)
        for c, h in where.items():
            masks[h] |= 1 << c
        return masks

    def consistent(self, where: dict[int, int]) -> bool:
        """Every hard constraint holds (allowed holders, capacities, announces)."""
        counts = [0] * self.n_holders
        for c, h in where.items():
            if not self.allowed[c] >> h & 1:
                return False
            counts[h] += 1
        if counts != list(self.hidden.capacities):
            return False
        return not self.announces or self.hidden.consistent(self.holdings(where))

    def seat_log(self, seat: int, masks: Sequence[int]) -> float:
        """The log-likelihood of ``seat``'s past cards in the holdings ``masks``."""
        model = self.model
        return sum(model.term(i, masks) for i in self.by_seat.get(seat, ()))

    def log_weight(self, where: dict[int, int]) -> float:
        masks = self.masks(where)
        return sum(self.seat_log(s, masks) for s in self.by_seat)

    # --- the chain -----------------------------------------------------------------
    def run(self, where: dict[int, int], steps: int, rng: random.Random,
            keep_every: int = 0) -> tuple[dict[int, int], list[dict[int, int]]]:
        """``steps`` Metropolis steps from ``where`` (changed in place). Returns the
        last state and, with ``keep_every`` k > 0, a copy of the state after every
        k-th step."""
        cards, allowed, n = self.cards, self.allowed, len(self.cards)
        model, by_seat, deps = self.model, self.by_seat, self.deps
        power = self.power
        masks = self.masks(where)
        # the current log terms per seat (only seats with past cards matter)
        seat_ll = {s: self.seat_log(s, masks) for s in by_seat}
        kept: list[dict[int, int]] = []
        if n < 2:
            return where, [dict(where) for _ in range(steps // keep_every)] \
                if keep_every else []
        for step in range(1, steps + 1):
            self.proposed += 1
            if n >= 3 and rng.random() < CYCLE_SHARE:
                a, b, c = rng.sample(cards, 3)
                ha, hb, hc = where[a], where[b], where[c]
                ok = ha != hb and hb != hc and ha != hc and allowed[a] >> hb & 1 \
                    and allowed[b] >> hc & 1 and allowed[c] >> ha & 1
                moves = ((a, ha, hb), (b, hb, hc), (c, hc, ha))
            else:
                a, b = rng.sample(cards, 2)
                ha, hb = where[a], where[b]
                ok = ha != hb and allowed[a] >> hb & 1 and allowed[b] >> ha & 1
                moves = ((a, ha, hb), (b, hb, ha))
            if ok:
                new_masks = {}
                for card, src, dst in moves:
                    new_masks[src] = new_masks.get(src, masks[src]) & ~(1 << card)
                    new_masks[dst] = new_masks.get(dst, masks[dst]) | 1 << card
                if self.announces:
                    for card, _, dst in moves:
                        where[card] = dst
                    ok = self.hidden.consistent(self.holdings(where))
                    for card, src, _ in moves:
                        where[card] = src
            if ok:
                self.valid += 1
                touched = [s for s in by_seat if not deps[s].isdisjoint(new_masks)]
                trial = list(masks)
                for h, m in new_masks.items():
                    trial[h] = m
                old = sum(seat_ll[s] for s in touched)
                # accept iff power * (new - old) >= log u; every term is <= 0, so the
                # sum of the new terms can be cut short once it falls below the bar
                u = rng.random()
                bar = old + (math.log(u) / power if u > 0 else -math.inf)
                total = 0.0
                new_ll = {}
                for s in touched:
                    part = 0.0
                    for i in by_seat[s]:
                        part += model.term(i, trial)
                        if total + part < bar:
                            break
                    else:
                        total += part
                        new_ll[s] = part
                        continue
                    total = -math.inf
                    break
                if total >= bar:
                    self.accepted += 1
                    for card, _, dst in moves:
                        where[card] = dst
                    for h, m in new_masks.items():
                        masks[h] = m
                    seat_ll.update(new_ll)
            if keep_every and step % keep_every == 0:
                kept.append(dict(where))
        self.seat_ll = seat_ll  # the running terms (tests check them against a recount)
        return where, kept


def chain_worlds(hidden: Any, model: Any, starts: Sequence[Sequence[Sequence[int]]],
                 steps: int, count: int, rng: random.Random, power: float = 1.0
                 ) -> tuple[list[list[list[int]]], dict[str, Any]]:
    """``count`` worlds from one chain a start (holdings, as drawn) of ``steps``
    Metropolis steps each: the first half is burn-in, and each chain keeps its share of
    ``count`` evenly spaced over the second half (its last state last; a chain runs at
    least one step a world it keeps). Returns the worlds (holdings, interleaved chain
    by chain) and the chains' statistics."""
    chain = PlayChain(hidden, model, power)
    runs = []
    for k, start in enumerate(starts):
        share = count // len(starts) + (k < count % len(starts))
        if not share:
            continue
        where = chain.state_of(start)
        gap = max(1, (steps // 2) // share)
        where, _ = chain.run(where, max(0, steps - gap * share), rng)
        where, kept = chain.run(where, gap * share, rng, keep_every=gap)
        runs.append([chain.holdings(w) for w in kept])
    # interleaved, chain by chain (the first kept world of each, then the second...):
    # the first worlds solved, on which pimc's elimination starts, come from every chain
    out = [run[j] for j in range(max(map(len, runs), default=0)) for run in runs
           if j < len(run)]
    stats = {"steps": steps, "chains": min(len(starts), count),
             "valid": round(chain.valid / max(1, chain.proposed), 3),
             "accepted": round(chain.accepted / max(1, chain.proposed), 3)}
    return out, stats


def world_key(holdings: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """A hashable key of a world (the mask of each place)."""
    return tuple(mask_of(h) for h in holdings)
