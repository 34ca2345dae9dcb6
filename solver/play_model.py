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
by this likelihood (``solver.pimc``; ``ess`` tempers it where a few draws would carry
all the weight); the sampler itself stays exact and uniform. ``pimc:infer=EPS,mcmc=N``
draws the worlds by Metropolis chains along this likelihood instead
(``solver.play_mcmc``).

Belote and Coinche: the heuristic view of another seat is rebuilt from public facts
without replaying the world (``heuristics.belote._View.of``), ~50 µs a past card.
French Tarot (3-5 players): the heuristic's card play (``heuristics.tarot.play_card``)
reads only the trick, the tricks before it, the taker, the called card and whether
the seat knew its partner (public once the called card is out, TAROT-CALL-5, else only
to its holder: the world's hand decides), so each past card's view is read forward from
the public tricks, ~20 µs a past card. The model agrees with the heuristic on every
past card of heuristic-played deals, true hands and sampled worlds alike
(``tests/test_play_model_tarot.py``). Tarocchini has no model yet (``play_model``
returns None).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import bit_list, mask_of
from .errors import OptionError
from .games.base import GameState

MODEL_GAMES = ("belote", "coinche", "tarot")


@dataclass(frozen=True)
class _BelotePlay:
    """One past card of another seat (Belote, Coinche), with the public facts it was
    chosen on."""

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

    def choice(self, hand: int) -> tuple[bool, int]:
        """(the heuristic holding ``hand`` plays this card, the legal cards' count)."""
        from .games.belote_common import legal_cards
        from .heuristics.belote import _View, choose_card_in

        legal = legal_cards(hand, self.trick, self.strain, self.undertrump, self.overtake)
        if not legal >> self.card & 1:
            return False, 0
        cards = bit_list(legal)
        if len(cards) == 1:
            return True, 1
        allowed = {c: m & ~(1 << self.seat) for c, m in self.public.items()
                   if not hand >> c & 1}
        view = _View.of(self.seat, hand, self.strain, self.taker, self.trick, self.tricks,
                        self.played, allowed)
        return choose_card_in(view, cards) == self.card, len(cards)


@dataclass(frozen=True)
class _TarotPlay:
    """One past card of another seat (French Tarot). The heuristic's card play
    (``heuristics.tarot.play_card``) reads only public facts and the hand: the trick,
    the tricks before, the taker, the called card and whether the seat knew its
    partner (public once the called card is out, TAROT-CALL-5; else only to its
    holder)."""

    seat: int
    card: int
    later: int            # the cards the seat played from this one on (this included)
    public: dict          # the seat's observation then, but its hand and the partner
    lead_forbidden: int   # cards it could not lead (the 5p first lead, TAROT-CALL-6)
    partner: tuple        # (known by public facts, the partner seat or None)

    def choice(self, hand: int) -> tuple[bool, int]:
        """(the heuristic holding ``hand`` plays this card, the legal cards' count)."""
        from .games import tarot as T
        from .heuristics.tarot import play_card

        obs = self.public
        legal = T.legal_cards(hand, obs["trick"], self.lead_forbidden)
        if not legal >> self.card & 1:
            return False, 0
        cards = bit_list(legal)
        if len(cards) == 1:
            return True, 1
        known, partner = self.partner
        called = obs["called_card"]
        if not known and hand >> called & 1:  # the holder of the called card knows
            known, partner = True, None if self.seat == obs["taker"] else self.seat
        view = {**obs, "hand": hand, "partner_known": known, "partner": partner}
        pick = play_card(view, [T.CARD_MOVES[c] for c in cards])
        return pick.value == self.card, len(cards)


class PlayModel:
    """Log-likelihood of the other seats' past cards in a world (``holdings``: the
    current hands per seat, as the sampler gives them)."""

    def __init__(self, plays: list[_BelotePlay | _TarotPlay], eps: float):
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
        if got is None:
            got = self._cache[key] = self.plays[i].choice(hand)
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
    what ``seat`` saw at each of them, or None where the game has no model."""
    if state.game in ("belote", "coinche"):
        return PlayModel(_belote_plays(state, seat), eps)
    if state.game == "tarot":
        return PlayModel(_tarot_plays(state, seat), eps)
    return None


def _belote_plays(state: GameState, seat: int) -> list[_BelotePlay]:
    """The others' past cards, each with what ``seat`` observed then (the state is
    stepped back with ``undo``: the public facts it needs are in the observation)."""
    from .games.belote_common import DECK, strain_of
    from .heuristics.belote import _as_mask
    from .worlds_belote import public_allowed

    past = state.copy()
    later: dict[int, int] = {}
    plays: list[_BelotePlay] = []
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
        plays.append(_BelotePlay(mover, move.value, later[mover], strain_of(obs["strain"]),
                                 obs["taker"], trick, tricks, played, public_allowed(obs),
                                 opts.get("undertrump_required", True),
                                 opts.get("ta_must_overtake", True)))
    plays.reverse()
    return plays


def _tarot_plays(state: GameState, seat: int) -> list[_TarotPlay]:
    """The others' past cards, read forward from the public tricks (no replay): each
    with the trick and tricks before it, the public partner then and the first-lead
    restriction."""
    from .games import tarot as T

    obs = state.observation(seat)
    n, taker, called = obs["players"], obs["taker"], obs["called_card"]
    done = [(list(t), w) for t, w in obs["tricks"]]
    sequence = [(k, j) for k, (t, _) in enumerate(done) for j in range(len(t))]
    sequence += [(len(done), j) for j in range(len(obs["trick"]))]
    tricks = [t for t, _ in done] + [list(obs["trick"])]
    restrict = n == 5 and state.options["five_player_first_lead_restriction"]
    dog_shown = obs["dog"] if obs["dog"] is not None and obs["phase"] != "over" else 0
    later: dict[int, int] = {}
    out: list[_TarotPlay] = []
    for k, j in reversed(sequence):
        mover, card = tricks[k][j]
        later[mover] = later.get(mover, 0) | 1 << card
        if mover == seat:
            continue
        if called is None or dog_shown >> called & 1:
            partner = (True, None)  # 3-4 players, or the called card in the shown dog
        else:
            holder = next((s for t in tricks[:k] for s, c in t if c == called), None)
            holder = next((s for s, c in tricks[k][:j] if c == called), holder)
            partner = (False, None) if holder is None else \
                (True, None if holder == taker else holder)
        public = {"players": n, "seat": mover, "taker": taker, "called_card": called,
                  "trick": tricks[k][:j], "tricks": done[:k]}
        forbidden = T.first_lead_forbidden(called) if restrict and k == 0 and j == 0 else 0
        out.append(_TarotPlay(mover, card, later[mover], public, forbidden, partner))
    out.reverse()
    return out
