"""What the play says about the hidden hands: a model of the other seats' card play.

The sampler (``solver.constraints``) draws worlds uniformly among those consistent
with the hard facts (voids, cards seen). The cards the other seats *chose* say more: a
defender who discards a king rather than a seven, a partner who does not overtake. A
``PlayModel`` gives each sampled world the likelihood of every card the other seats
played so far, had their hands been those of the world:

    P(card | world) = 1 - eps                  if the model player picks that card
                    = eps / (legal - 1)        otherwise (any other legal card)
                    = 1                        when the seat had one legal card

The model player is the heuristic player (``solver.heuristics``), fed the seat's view
at that point (public facts then, and its hand in the world). ``eps`` softens it: the
share of decisions where a real player departs from the heuristic (fitted on recorded
decisions, ``benchmarks/decision_set.py model``). ``pimc:infer=EPS`` weights its worlds
by this likelihood (``solver.pimc``); the sampler itself stays exact and uniform.

Belote and Coinche only for now: the heuristic view of another seat is rebuilt from
public facts without replaying the world (``heuristics.belote._View.of``), ~50 µs a
past card. Tarot and Tarocchini have no model yet (``play_model`` returns None).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import bit_list, mask_of
from .errors import OptionError
from .games.base import GameState

MODEL_GAMES = ("belote", "coinche")


@dataclass(frozen=True)
class _Play:
    """One past card of another seat, with the public facts it was chosen on."""

    seat: int
    card: int
    later: int            # the cards the seat played from this one on (this included)
    strain: int
    taker: int
    trick: list           # the trick before the card: [(seat, card)]
    tricks: list          # the tricks completed before it
    played: int           # every card out of play then
    public: dict          # card -> seats that may hold it by public facts then
    undertrump: bool
    overtake: bool


class PlayModel:
    """Log-likelihood of the other seats' past cards in a world (``holdings``: the
    current hands per seat, as the sampler gives them)."""

    def __init__(self, plays: list[_Play], eps: float):
        if not 0 < eps < 1:
            raise OptionError(f"the play model's eps must be in (0, 1), got {eps!r}")
        self.plays = plays
        self.eps = eps
        self._log_hit = math.log(1 - eps)
        self._log_eps = math.log(eps)
        self._cache: dict[tuple[int, int], tuple[bool, int]] = {}

    def choice(self, i: int, hand: int) -> tuple[bool, int]:
        """(does the model player pick play ``i``'s card holding ``hand``, the number of
        legal cards then); a card that was not legal in that hand counts as (False, 0)."""
        key = (i, hand)
        got = self._cache.get(key)
        if got is not None:
            return got
        from .games.belote_common import legal_cards
        from .heuristics.belote import _View, choose_card_in

        p = self.plays[i]
        legal = legal_cards(hand, p.trick, p.strain, p.undertrump, p.overtake)
        if not legal >> p.card & 1:
            got = (False, 0)
        else:
            cards = bit_list(legal)
            if len(cards) == 1:
                got = (True, 1)
            else:
                allowed = {c: m & ~(1 << p.seat) for c, m in p.public.items()
                           if not hand >> c & 1}
                view = _View.of(p.seat, hand, p.strain, p.taker, p.trick, p.tricks,
                                p.played, allowed)
                got = (choose_card_in(view, cards) == p.card, len(cards))
        self._cache[key] = got
        return got

    def log_prob(self, i: int, hand: int) -> float:
        """log P(play ``i``'s card | its seat held ``hand`` then)."""
        hit, n = self.choice(i, hand)
        if n == 0:
            return 2 * self._log_eps - 10.0  # impossible under the rules: nearly never
        if n == 1:
            return 0.0
        return self._log_hit if hit else self._log_eps - math.log(n - 1)

    def log_weight(self, holdings: Sequence[Sequence[int]]) -> float:
        """Sum over the past cards of the others of log P(card | the world's hands)."""
        masks = [mask_of(h) for h in holdings]
        return sum(self.log_prob(i, masks[p.seat] | p.later)
                   for i, p in enumerate(self.plays))

    def agreement(self, hands: Sequence[int]) -> tuple[int, int, float]:
        """On the true hands (masks, current): (cards where the seat had a choice, of
        them the ones the model player picks, their log-likelihood)."""
        choices = hits = 0
        total = 0.0
        for i, p in enumerate(self.plays):
            hit, n = self.choice(i, hands[p.seat] | p.later)
            if n > 1:
                choices += 1
                hits += hit
                total += self.log_prob(i, hands[p.seat] | p.later)
        return choices, hits, total


def play_model(state: GameState, seat: int, eps: float) -> PlayModel | None:
    """The model of the cards the seats other than ``seat`` played in ``state``, from
    what ``seat`` saw at each of them (its own past observations: the state is stepped
    back with ``undo``), or None where the game has no model."""
    if state.game not in MODEL_GAMES:
        return None
    from .games.belote_common import DECK, strain_of
    from .heuristics.belote import _as_mask
    from .worlds_belote import public_allowed

    past = state.copy()
    later: dict[int, int] = {}
    plays: list[_Play] = []
    while past.history and past.phase == "play":
        mover = past._seat_sequence()[-1]
        move = past.undo()
        if move.kind not in ("card", "belote"):
            continue
        later[mover] = later.get(mover, 0) | 1 << move.value
        if mover == seat:
            continue
        obs = past.observation(seat)
        played = _as_mask(obs.get("gone") or "")
        trick = [(s, DECK.card(t)) for s, t in obs["trick"]]
        tricks = [[(s, DECK.card(t)) for s, t in tr] for tr, _ in obs["tricks"]]
        for tr in [*tricks, trick]:
            for _, c in tr:
                played |= 1 << c
        opts: dict[str, Any] = obs.get("options") or {}
        plays.append(_Play(mover, move.value, later[mover], strain_of(obs["strain"]),
                           obs["taker"], trick, tricks, played, public_allowed(obs),
                           opts.get("undertrump_required", True),
                           opts.get("ta_must_overtake", True)))
    plays.reverse()
    return PlayModel(plays, eps)
