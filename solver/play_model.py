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
(``tests/test_play_model_tarot.py``). Tarocchini (Ottocento, Terziglio): the
heuristic's card play (``heuristics.tarocchini.play_card``) reads the trick, the cards
out of play, the voids and *volo* signals shown so far (TAROC-PLAY-3, OTTO-SIG-1), the
declarer and, for the seat that discarded (OTTO-DEAL-2, TERZ-BID-2), its discard:
that play's likelihood also reads the world's pile aside (``aside``, the holder after
the seats); 0.4 ms to weigh a world, median (``tests/test_play_model_tarocchini.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import bit_list, mask_of
from .errors import OptionError
from .games.base import GameState, Move

MODEL_GAMES = ("belote", "coinche", "tarot", "tarocchini")


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
        cards = self.legal(hand)
        if not cards:
            return False, 0
        if len(cards) == 1:
            return True, 1
        return self.heuristic_card(hand, cards) == self.card, len(cards)

    def legal(self, hand: int) -> list[int]:
        """The legal cards holding ``hand`` ([] if this card was not one of them)."""
        from .games.belote_common import legal_cards

        legal = legal_cards(hand, self.trick, self.strain, self.undertrump, self.overtake)
        return bit_list(legal) if legal >> self.card & 1 else []

    def heuristic_card(self, hand: int, cards: list[int]) -> int:
        from .heuristics.belote import _View, choose_card_in

        allowed = {c: m & ~(1 << self.seat) for c, m in self.public.items()
                   if not hand >> c & 1}
        view = _View.of(self.seat, hand, self.strain, self.taker, self.trick, self.tricks,
                        self.played, allowed)
        return choose_card_in(view, cards)

    def learned_log_prob(self, hand: int, weights: Sequence[float],
                         eps: float = 0.0) -> float | None:
        """log P(this card) under the learned model (``belote_features``, softmax over
        the legal cards, ``eps`` of uniform mixed in); None when it was not legal in
        ``hand``."""
        cards = self.legal(hand)
        if not cards:
            return None
        if len(cards) == 1:
            return 0.0
        heur = self.heuristic_card(hand, cards)
        scores = [sum(w * f for w, f in zip(weights, belote_features(self, hand, c, heur),
                                            strict=True)) for c in cards]
        top = max(scores)
        total = sum(math.exp(x - top) for x in scores)
        lp = scores[cards.index(self.card)] - top - math.log(total)
        return lp if not eps else math.log((1 - eps) * math.exp(lp) + eps / len(cards))


# A learned model of pimc's card play (Belote, Coinche; ``pimc:model=learned``): a
# conditional logit over the legal cards on ``belote_features``, fitted by
# ``benchmarks/play_model_fit.py`` on the cards pimc(100) players chose (the command
# and its held-out log-loss are in benchmarks/RESULTS.md).
BELOTE_FEATURES = ("heuristic's card", "wins the trick now", "points/10", "trump",
                   "highest of its suit in hand", "lowest of its suit in hand",
                   "points/10 onto the partner's trick", "points/10 onto a lost trick",
                   "leads its suit's highest", "leads a trump", "wins as the last seat",
                   "suit length/8")
BELOTE_WEIGHTS: tuple[float, ...] = (0.687, 0.800, 0.688, -0.521, 0.297, 0.789, -0.380,
                                     -1.859, -0.171, 0.292, -0.046, -0.729)


def belote_features(p: _BelotePlay, hand: int, c: int, heur: int) -> list[float]:
    """The features of playing ``c`` from ``hand`` at play ``p`` (``heur``: the
    heuristic's card there), in the order of BELOTE_FEATURES."""
    from .games.belote_common import POINTS, POWER, _winning_index, is_trump

    strain, trick = p.strain, p.trick
    pw = POWER[strain]
    pts = POINTS[strain][c] / 10.0
    wins = partner = False
    if trick:
        wins = _winning_index([*trick, (p.seat, c)], strain) == len(trick)
        partner = (trick[_winning_index(trick, strain)][0] - p.seat) % 2 == 0
    same = [x for x in bit_list(hand) if x >> 3 == c >> 3]
    highest = all(pw[c] >= pw[x] for x in same)
    lowest = all(pw[c] <= pw[x] for x in same)
    lead = not trick
    return [float(c == heur), float(wins), pts, float(is_trump(c, strain)), float(highest),
            float(lowest), pts * (partner and not wins),
            pts * (bool(trick) and not partner and not wins), float(lead and highest),
            float(lead and is_trump(c, strain)), float(len(trick) == 3 and wins),
            len(same) / 8.0]


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


@dataclass(frozen=True)
class _TarocchiniPlay:
    """One past card of another seat (Tarocchini). The heuristic reads the seat's
    observation then: the trick, the cards out of play, the voids shown and the true
    *volo* signals (TAROC-PLAY-3, OTTO-SIG-1), the declarer; and its own discard when
    it made one (``aside``: the world's pile aside is that discard)."""

    seat: int
    card: int
    later: int
    public: dict          # the seat's observation then, but its hand and discard
    aside: int | None = None   # the holder index of the pile aside, if it is the seat's

    def choice(self, hand: int, aside: int = 0) -> tuple[bool, int]:
        """(the heuristic holding ``hand`` (and ``aside``, its discard) plays this card,
        the legal cards' count)."""
        from .games import tarocchini as T
        from .heuristics.tarocchini import play_card

        obs = self.public
        legal = T.legal_cards(hand, obs["trick"])
        if not legal >> self.card & 1:
            return False, 0
        cards = bit_list(legal)
        if len(cards) == 1:
            return True, 1
        view = {**obs, "hand": hand, "discard": aside if self.aside is not None else None}
        pick = play_card(view, [Move("card", c) for c in cards])
        card = pick.value if pick.kind == "card" else pick.value[0]
        return card == self.card, len(cards)


class PlayModel:
    """Log-likelihood of the other seats' past cards in a world (``holdings``: the
    current hands per seat, as the sampler gives them)."""

    def __init__(self, plays: list[_BelotePlay | _TarotPlay | _TarocchiniPlay],
                 eps: float, weights: Sequence[float] | None = None):
        if not 0 < eps < 1:
            raise OptionError(f"the play model's eps must be in (0, 1), got {eps!r}")
        self.plays = plays
        self.eps = eps
        # the learned model (Belote, Coinche): P = (1 - eps) softmax + eps uniform
        self.weights = weights
        self._learned: dict[tuple[int, int], float] = {}
        self._log_hit = math.log(1 - eps)
        self._log_eps = math.log(eps)
        self._cache: dict[tuple[int, int], tuple[bool, int]] = {}

    def choice(self, i: int, hand: int, aside: int = 0) -> tuple[bool, int]:
        """(does the model player pick play ``i``'s card holding ``hand``, the number of
        legal cards then); a card that was not legal in that hand counts as (False, 0).
        ``aside``: the pile aside, read only by a play whose seat discarded it
        (``deps``)."""
        key = (i, hand, aside)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self.plays[i].choice(hand, aside) \
                if getattr(self.plays[i], "aside", None) is not None \
                else self.plays[i].choice(hand)
        return got

    def deps(self, i: int) -> tuple[int, ...]:
        """The holders whose cards play ``i``'s likelihood reads: its seat, and the pile
        aside for a seat that discarded it (Tarocchini)."""
        p = self.plays[i]
        aside = getattr(p, "aside", None)
        return (p.seat,) if aside is None else (p.seat, aside)

    def term(self, i: int, masks: Sequence[int]) -> float:
        """log P(play ``i``'s card) in the world of current holdings ``masks``."""
        p = self.plays[i]
        aside = getattr(p, "aside", None)
        return self.log_prob(i, masks[p.seat] | p.later, 0 if aside is None else masks[aside])

    def log_prob(self, i: int, hand: int, aside: int = 0) -> float:
        """log P(play ``i``'s card | its seat held ``hand`` then)."""
        if self.weights is not None:
            return self._learned_log_prob(i, hand)
        hit, n = self.choice(i, hand, aside)
        if n == 0:
            return 2 * self._log_eps - 10.0  # impossible under the rules: nearly never
        if n == 1:
            return 0.0
        return self._log_hit if hit else self._log_eps - math.log(n - 1)

    def _learned_log_prob(self, i: int, hand: int) -> float:
        got = self._learned.get((i, hand))
        if got is None:
            lp = self.plays[i].learned_log_prob(hand, self.weights, self.eps)
            got = 2 * self._log_eps - 10.0 if lp is None else lp   # None: impossible
            self._learned[(i, hand)] = got
        return got

    def log_weight(self, holdings: Sequence[Sequence[int]]) -> float:
        """Sum over the past cards of the others of log P(card | the world's hands)."""
        masks = [mask_of(h) for h in holdings]
        return sum(self.term(i, masks) for i in range(len(self.plays)))

    def agreement(self, hands: Sequence[int]) -> tuple[int, int, float]:
        """On the true holdings (masks, current; Tarocchini: the pile aside after the
        seats): (cards where the seat had a choice, of them the ones the model player
        picks, their log-likelihood)."""
        choices = hits = 0
        total = 0.0
        for i, p in enumerate(self.plays):
            aside = getattr(p, "aside", None)
            extra = 0 if aside is None else hands[aside]
            hit, n = self.choice(i, hands[p.seat] | p.later, extra)
            if n > 1:
                choices += 1
                hits += hit
                total += self.term(i, hands)
        return choices, hits, total


LEARNED_GAMES = ("belote", "coinche")


def play_model(state: GameState, seat: int, eps: float,
               learned: bool = False) -> PlayModel | None:
    """The model of the cards the seats other than ``seat`` played in ``state``, from
    what ``seat`` saw at each of them, or None where the game has no model.
    ``learned``: the learned model (``BELOTE_WEIGHTS``; Belote and Coinche) instead of
    the heuristic's card, ``eps`` of uniform mixed in."""
    if learned and state.game not in LEARNED_GAMES:
        raise OptionError(f"the learned play model is for {' and '.join(LEARNED_GAMES)}, "
                          f"not {state.game}")
    if state.game in ("belote", "coinche"):
        return PlayModel(_belote_plays(state, seat), eps,
                         BELOTE_WEIGHTS if learned else None)
    if state.game == "tarot":
        return PlayModel(_tarot_plays(state, seat), eps)
    if state.game == "tarocchini":
        return PlayModel(_tarocchini_plays(state, seat), eps)
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


def _tarocchini_plays(state: GameState, seat: int) -> list[_TarocchiniPlay]:
    """The others' past cards, read forward from the public tricks (no replay): each
    with the trick so far, the cards out of play, the voids shown before it
    (TAROC-PLAY-3) and the signals given before it (OTTO-SIG-1)."""
    from .games import tarocchini as T

    obs = state.observation(seat)
    n = len(state.hands)
    discarder = (obs["dealer"] if obs["variant"] == "ottocento"
                 else obs["declarer"] if obs["contract"] == "gioco" else None)
    done = [list(t) for t, _ in obs["tricks"]]
    tricks = done + [list(obs["trick"])]
    sequence = [(k, j) for k, t in enumerate(tricks) for j in range(len(t))]
    # out of play before the tricks listed (a position set up by ``from_play``)
    before = obs["played"]
    for t in tricks:
        for _, c in t:
            before &= ~(1 << c)
    later: dict[int, int] = {}
    out: list[_TarocchiniPlay] = []
    for k, j in reversed(sequence):
        mover, card = tricks[k][j]
        later[mover] = later.get(mover, 0) | 1 << card
        if mover == seat:
            continue
        trick = tricks[k][:j]
        played = before
        for t in [*done[:k], trick]:
            for _, c in t:
                played |= 1 << c
        voids: list[set[int]] = [set() for _ in range(n)]
        for t in [*done[:k], trick]:
            led = T.led_suit(t)
            if led is None:
                continue
            for s, c in t:
                if c == T.MAT or T.SUIT_OF[c] == led:
                    continue
                voids[s].add(led)
                if led != T.TRUMP and T.SUIT_OF[c] != T.TRUMP:
                    voids[s].add(T.TRUMP)
        trick_cards = {c for _, c in trick}
        signals = [x for x in obs["signals"]
                   if x[0] < k or (x[0] == k and x[2] in trick_cards)]
        public = {"seat": mover, "variant": obs["variant"], "declarer": obs["declarer"],
                  "contract": obs["contract"], "trick": trick, "played": played,
                  "voids": voids, "signals": signals, "options": obs["options"]}
        aside = n if mover == discarder else None
        out.append(_TarocchiniPlay(mover, card, later[mover], public, aside))
    out.reverse()
    return out
