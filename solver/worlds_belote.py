"""What a Belote/Coinche seat knows during the card play → constraints and worlds.

``hidden(obs)`` turns one seat's observation into hard constraints on the cards it
cannot see (``solver.constraints.Hidden``; holders are the four seats, nothing else is
hidden once the play starts); ``world(state, seat, holdings)`` rebuilds a full state in
which the other hands are the drawn ones. Inferences, all from the observation only:

* hand sizes: every seat holds 8 cards minus those it played;
* the play rules (BELOTE-PLAY-3/4, COINCHE-PLAY-3/4): a seat that did not follow is void
  in the led suit; in a suit contract, a seat that did not trump when it had to has no
  trump (no inference when its partner was master, BELOTE-PLAY-3.2), a seat that did not
  overtrump when it had to has no trump above the trick's best (a trump lead forces the
  overtrump even over the partner; over an opponent's trump, with
  ``undertrump_required=false``, a discard only proves no higher trump); in TA with
  ``ta_must_overtake`` a card of the led suit that does not beat the best one proves no
  higher card of that suit;
* what was shown or said: the announcing team's cards shown from trick 2
  (BELOTE-ANN-5), a carré announced (its rank is heard, so its four cards are known),
  a belote declared (BELOTE-BR-2: the holder has the other of K/Q), and — the belote
  being automatic by default — a K or Q of a belote suit played without a belote proves
  the other card is elsewhere; Belote: the taker received the turned card (BELOTE-BID-4);
* sequence announces heard but not shown (only "tierce", "quarte", "quinte" is heard):
  not expressible card by card, so the sampler redraws until each announcing seat can
  hold the announced sequences (rejection from the uniform draw keeps it uniform).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from .cards import bit_list, mask_of
from .constraints import Hidden
from .errors import AtoutError
from .games.base import Move
from .games.belote_common import (
    ABOVE,
    DECK,
    RK,
    RQ,
    SA,
    SEQ_NAMES,
    SUIT_MASK,
    TA,
    Announce,
    available_announces,
    belote_suits,
    sequence_runs,
    strain_of,
    trick_winner,
)
from .notation import Deal
from .sampling import DealSampler, InconsistentConstraintsError

FULL = (1 << 32) - 1
MAX_REDRAWS = 5_000  # rejection budget for heard-but-unseen sequence announces
MAX_RUN_PARTS = 256  # combinations of heard runs drawn from (_AnnounceSampler)


def _trick_cards(trick) -> list[tuple[int, int]]:
    return [(s, DECK.card(tok)) for s, tok in trick]


# --- announces heard ----------------------------------------------------------------
@dataclass(frozen=True)
class Beaten:
    """The announce comparison of trick 1 was lost by ``team`` (BELOTE-ANN-6/7, default
    ``best_single``): each of its announces ranks below the winner's best ``key``."""

    team: int
    key: tuple
    strain: int
    first_leader: int
    by_order: bool


def _announce_plan(start_hand: int, wanted: list[tuple[str, int | None]], exclusive: bool,
                   carre_value: int, seat: int = 0, beaten: Beaten | None = None
                   ) -> list[tuple[str, int]] | None:
    """Concrete announces ``(kind, ident)`` realising the heard ones, made in order from
    ``start_hand`` under the card-reuse rule (BELOTE-ANN-4), or None if impossible.

    ``wanted``: ``(kind, ident)`` with ``ident`` known (carré rank, or a shown sequence's
    top card) or None (a sequence only heard by its type). With ``beaten`` (``seat``'s
    team lost the comparison) every announce must rank below the winner's best."""
    limited = beaten is not None and beaten.team == seat % 2

    def search(i: int, seq_used: int, carre_used: int) -> list[tuple[str, int]] | None:
        if i == len(wanted):
            return []
        kind, ident = wanted[i]
        for k, idt, cards, pts in available_announces(start_hand, seq_used, carre_used,
                                                      exclusive, carre_value):
            if k != kind or (ident is not None and idt != ident):
                continue
            if limited and Announce(seat, k, idt, cards, pts).key(
                    beaten.strain, beaten.first_leader, beaten.by_order) >= beaten.key:
                continue
            if k == "carre":
                rest = search(i + 1, seq_used, carre_used | cards)
            else:
                rest = search(i + 1, seq_used | cards, carre_used)
            if rest is not None:
                return [(k, idt), *rest]
        return None

    return search(0, 0, 0)


# a run of n cards of one suit starts at bit i when bits i..i+n-1 are set and lie in
# one 8-card suit block (BELOTE-ANN-2's natural order is the bit order)
_RUN_STARTS = {n: sum(((1 << (9 - n)) - 1) << (8 * s) for s in range(4)) for n in (3, 4, 5)}
_SEQ_LENGTH = {name: n for n, name in SEQ_NAMES.items()}


def _has_runs(hand: int, wanted: list[tuple[str, int | None]]) -> bool:
    """A necessary condition of ``_announce_plan``, cheap enough to reject most drawn
    hands first (the rejection sampler's cost): every sequence heard needs a run of at
    least its length in the hand."""
    need = max((_SEQ_LENGTH[k] for k, _ in wanted if k in _SEQ_LENGTH), default=0)
    if not need:
        return True
    run = hand
    for i in range(1, need):
        run &= hand >> i
    return bool(run & _RUN_STARTS[need])


def _heard(obs: dict) -> dict[int, list[tuple[str, int | None]]]:
    """Per other seat, its announces in order as ``(kind, ident-or-None)``."""
    out: dict[int, list[tuple[str, int | None]]] = {}
    for a in obs["announces"]:
        s = a["seat"]
        if s == obs["seat"]:
            continue
        parts = a["announce"].split(":")
        if parts[0] == "carre":
            out.setdefault(s, []).append(("carre", "789TJQKA".index(parts[1][0])))
        else:
            out.setdefault(s, []).append((parts[0], None))
    return out


def _shown_runs(obs: dict, heard: dict[int, list[tuple[str, int | None]]]
                ) -> dict[int, list[tuple[str, int, int]]]:
    """Sequences of each seat whose cards are shown (BELOTE-ANN-5), as maximal runs
    ``(kind, top, bottom)``. With the default card reuse an announced sequence is a
    maximal run of the hand (BELOTE-ANN-2/4), hence of the shown cards; it is identified
    only when the shown cards hold exactly the announced number of runs (three carrés
    of adjacent ranks could form extra runs) and never with ``exclusive`` reuse."""
    out = {}
    if _option(obs, "announce_card_reuse", "carre_and_sequence") == "exclusive":
        return out
    for s, cards in obs["shown"].items():
        s = int(s)
        kinds = sorted(k for k, _ in heard.get(s, []) if k != "carre")
        runs = _runs(mask_of(DECK.parse_cards(cards)))
        if sorted(k for k, _, _ in runs) == kinds and kinds:
            out[s] = runs
    return out


def _runs(mask: int) -> list[tuple[str, int, int]]:
    """Maximal runs of 3+ consecutive cards of a suit in ``mask``: (kind, top, bottom)."""
    return [(SEQ_NAMES[min(top - bottom + 1, 5)], top, bottom)
            for top, bottom in sequence_runs(mask)]


# --- constraints ------------------------------------------------------------------------
@dataclass
class BeloteHidden(Hidden):
    """``Hidden`` plus what per-card sets cannot say: the sequences heard per seat."""

    played: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards played per seat
    heard: dict[int, list[tuple[str, int | None]]] = field(default_factory=dict)
    exclusive: bool = False
    carre_value: int = 100
    beaten: Beaten | None = None

    def must_check(self, s: int) -> bool:
        """Seat ``s``'s heard announces constrain its hand beyond single cards."""
        wanted = self.heard.get(s, [])
        return any(i is None for _, i in wanted) or (
            bool(wanted) and self.beaten is not None and self.beaten.team == s % 2)

    def start_hand(self, seat: int, holdings: list[list[int]]) -> int:
        """The 8-card hand ``seat`` began the play with, in a world drawn as ``holdings``
        (unknown cards of each holder)."""
        fixed = mask_of(c for c, h in self.fixed.items() if h == seat)
        return mask_of(holdings[seat]) | fixed | self.played[seat]

    def consistent(self, holdings: list[list[int]]) -> bool:
        """True when every seat can hold the announces it was heard to make."""
        for s, wanted in self.heard.items():
            if not self.must_check(s):
                continue
            hand = self.start_hand(s, holdings)
            if not _has_runs(hand, wanted) or _announce_plan(
                    hand, wanted, self.exclusive, self.carre_value, s, self.beaten) is None:
                return False
        return True

    def sampler(self) -> DealSampler | _AnnounceSampler:
        base = DealSampler(self.allowed, self.capacities)
        if not any(self.must_check(s) for s in self.heard):
            return base
        return _AnnounceSampler(base, self)


class _AnnounceSampler:
    """Uniform over the deals of ``base`` in which the heard announces are possible
    (rejection: redraw until consistent; after ``MAX_REDRAWS`` the last draw is kept and
    ``world`` drops the announces it cannot realise).

    A sequence heard by its type alone needs a run of its length in the seat's hand,
    which few uniform deals give (~40 draws a world at trick 1: most of a Coinche
    decision's time). So the draws come from the union, over one run per such seat, of
    the deals in which each of those seats holds its run (``_run_parts``), uniformly
    (Karp-Luby: a combination of runs drawn by its number of deals, a deal holding it,
    kept with probability 1 / the number of the union's combinations it holds), and
    only then checked by ``consistent``: still uniform over the consistent deals, which
    all lie in the union."""

    def __init__(self, base: DealSampler, hidden_: BeloteHidden):
        self.base, self.hidden = base, hidden_
        self.capacities = base.capacities
        self.runs, self.parts = self._run_parts()
        self.total = sum(n for _, n in self.parts)

    def _run_parts(self) -> tuple[dict[int, list[int]], list[tuple[DealSampler, int]]]:
        """Per seat whose heard sequences need a run (of the longest one's length), the
        runs it can have begun the play with; and per combination of one run a seat
        (at most MAX_RUN_PARTS of them: the later seats are left to ``consistent``),
        the sampler of the deals giving each seat its run and their number. No parts
        when no seat needs a run (plain rejection then)."""
        h = self.hidden
        runs: dict[int, list[int]] = {}
        known: dict[int, int] = {}          # per seat, its fixed and played cards
        size = 1
        for s, wanted in sorted(h.heard.items()):
            need = max((_SEQ_LENGTH[k] for k, _ in wanted if k in _SEQ_LENGTH), default=0)
            if not need or not h.must_check(s):
                continue
            known[s] = h.start_hand(s, [[] for _ in self.capacities])
            mine = [r for r in (((1 << need) - 1) << i for i in bit_list(_RUN_STARTS[need]))
                    if all((h.allowed.get(c, 0) >> s) & 1 for c in bit_list(r & ~known[s]))]
            if size * len(mine) > MAX_RUN_PARTS:
                break
            runs[s] = mine
            size *= len(mine)
        if not runs:
            return {}, []
        parts = []
        for combo in itertools.product(*runs.values()):
            allowed = dict(h.allowed)
            for s, r in zip(runs, combo, strict=True):
                for c in bit_list(r & ~known[s]):
                    allowed[c] = allowed.get(c, 0) & (1 << s)
            try:
                sampler = DealSampler(allowed, self.capacities)
            except InconsistentConstraintsError:
                continue                    # no deal gives every seat its run
            parts.append((sampler, sampler.count()))
        return runs, parts

    def count(self) -> int:
        """Number of deals satisfying the per-card constraints (an upper bound)."""
        return self.base.count()

    def _union_draw(self, rng: random.Random) -> list[list[int]] | None:
        """A deal uniform over the union of the parts, or None (rejected: draw again)."""
        target = rng.randrange(self.total)
        i = 0
        while target >= self.parts[i][1]:
            target -= self.parts[i][1]
            i += 1
        draw = self.parts[i][0].sample(rng)
        held = 1      # the combinations holding the deal (each one has it: none empty)
        for s, mine in self.runs.items():
            hand = self.hidden.start_hand(s, draw)
            held *= sum(1 for r in mine if r & ~hand == 0)
        return draw if held == 1 or rng.randrange(held) == 0 else None

    def sample(self, rng: random.Random) -> list[list[int]]:
        draw = None
        for _ in range(MAX_REDRAWS):
            d = self._union_draw(rng) if self.parts else self.base.sample(rng)
            if d is None:
                continue
            draw = d
            if self.hidden.consistent(draw):
                return draw
        return draw if draw is not None else self.base.sample(rng)

    def samples(self, n: int, seed: int) -> list[list[list[int]]]:
        rng = random.Random(seed)
        return [self.sample(rng) for _ in range(n)]

    def deals(self):
        """Every deal of ``base`` in which the heard announces are possible."""
        return (d for d in self.base.deals() if self.hidden.consistent(d))


def _option(obs: dict, name: str, default: Any) -> Any:
    return (obs.get("options") or {}).get(name, default)


def _public_facts(obs: dict):
    """What every seat knows in the card play of ``obs`` (nothing of the observer's own
    hand): the strain, the tricks (the current one last), the cards each seat played,
    every card out of play, the cards whose holder is public (shown, carré, belote,
    turned card), the cards each seat cannot hold (``forbid``) and the announces
    heard."""
    if obs.get("phase") != "play":
        raise AtoutError("belote/coinche worlds are sampled during the card play only")
    strain = strain_of(obs["strain"])
    taker = obs["taker"]
    undertrump = _option(obs, "undertrump_required", True)
    overtake = _option(obs, "ta_must_overtake", True)
    belote_optional = _option(obs, "belote_optional", False)
    ta_belote = _option(obs, "ta_belote", "each_suit")

    current = _trick_cards(obs["trick"])
    tricks = [_trick_cards(t) for t, _ in obs["tricks"]] + ([current] if current else [])
    played = [0, 0, 0, 0]
    for t in tricks:
        for s, c in t:
            played[s] |= 1 << c
    # cards played before the recorded tricks (from_play positions) are out of play
    all_played = played[0] | played[1] | played[2] | played[3] \
        | mask_of(DECK.parse_cards(obs.get("gone") or ""))

    fixed: dict[int, int] = {}
    for s, cards in obs["shown"].items():  # BELOTE-ANN-5: shown from trick 2
        for c in DECK.parse_cards(cards):
            if not all_played >> c & 1:
                fixed[c] = int(s)
    heard = _heard(obs)
    forbid = [0, 0, 0, 0]
    for s, runs in _shown_runs(obs, heard).items():
        # a shown sequence is a maximal run: the cards extending it were not held
        lst = heard[s]
        for kind, top, bottom in runs:
            i = next(i for i, (k, x) in enumerate(lst) if k == kind and x is None)
            lst[i] = (kind, top)
            if top & 7 < 7:
                forbid[s] |= 1 << (top + 1)
            if bottom & 7 > 0:
                forbid[s] |= 1 << (bottom - 1)
    for s, wanted in heard.items():  # a carré heard names its four cards
        for kind, ident in wanted:
            if kind == "carre":
                for suit in range(4):
                    c = 8 * suit + ident
                    if not all_played >> c & 1:
                        fixed[c] = s
    said = set()
    for b in obs["belotes"]:  # BELOTE-BR-2: the holder of the other of K/Q is known
        suit = "SHDC".index(b["suit"])
        said.add((b["seat"], suit))
        for c in DECK.parse_cards(b["cards"]):
            if not all_played >> c & 1:
                fixed[c] = b["seat"]
    turned = obs.get("turned")
    if turned:  # BELOTE-BID-4: the taker received the turned card
        c = DECK.card(turned)
        if not all_played >> c & 1:
            fixed[c] = taker

    for t in tricks:
        led = t[0][1] >> 3
        for i in range(1, len(t)):
            s, c = t[i]
            prefix = t[:i]
            win_seat = trick_winner(prefix, strain)
            win_card = next(x for y, x in prefix if y == win_seat)
            suit = c >> 3
            if strain == SA:  # COINCHE-PLAY-4
                if suit != led:
                    forbid[s] |= SUIT_MASK[led]
            elif strain == TA:  # COINCHE-PLAY-3
                if suit != led:
                    forbid[s] |= SUIT_MASK[led]
                elif overtake and not ABOVE[TA][win_card] >> c & 1:
                    forbid[s] |= ABOVE[TA][win_card]
            elif led == strain:  # BELOTE-PLAY-3.1: trump led, overtrump even over partner
                if suit != strain:
                    forbid[s] |= SUIT_MASK[strain]
                elif not ABOVE[strain][win_card] >> c & 1:
                    forbid[s] |= ABOVE[strain][win_card]
            elif suit != led:  # BELOTE-PLAY-3.2: void in the led plain suit
                forbid[s] |= SUIT_MASK[led]
                if win_seat % 2 == s % 2:
                    continue  # partner master: any card, nothing more to learn
                trumped = win_card >> 3 == strain
                if suit != strain:
                    if not trumped or undertrump:  # had to trump (BELOTE-PLAY-4)
                        forbid[s] |= SUIT_MASK[strain]
                    else:  # undertrump_required=false: only the overtrump was due
                        forbid[s] |= ABOVE[strain][win_card]
                elif trumped and not ABOVE[strain][win_card] >> c & 1:
                    forbid[s] |= ABOVE[strain][win_card]
    if not belote_optional:  # BELOTE-BR-2 default: a belote is always said
        for s in range(4):
            for suit in belote_suits(0xFFFFFFFF, strain, ta_belote):
                kq = (1 << (8 * suit + RK)) | (1 << (8 * suit + RQ))
                if played[s] & kq and (s, suit) not in said:
                    forbid[s] |= kq & ~played[s]

    return strain, current, played, all_played, fixed, forbid, heard


def public_allowed(obs: dict) -> dict[int, int]:
    """Per card still in play whose holder is not public, the mask of the seats that may
    hold it by public facts alone (the observer's own hand does not count): what any
    seat's ``hidden(obs).allowed`` says of the cards it cannot see, plus its own bit."""
    _, _, _, all_played, fixed, forbid, _ = _public_facts(obs)
    out = {}
    for c in bit_list(FULL & ~all_played):
        if c not in fixed:
            out[c] = sum(1 << s for s in range(4) if not forbid[s] >> c & 1)
    return out


def hidden(obs: dict) -> BeloteHidden:
    """Constraints for a Belote/Coinche seat during the card play (see the module
    docstring for every inference and its rule)."""
    strain, current, played, all_played, public, forbid, heard = _public_facts(obs)
    me = obs["seat"]
    hand = mask_of(DECK.parse_cards(obs["hand"]))
    # equal hands at the start of each trick (8 at the start of the play)
    base = hand.bit_count() + (1 if any(s == me for s, _ in current) else 0)
    size = [base - (1 if any(s == x for s, _ in current) else 0) for x in range(4)]
    fixed: dict[int, int] = {c: me for c in bit_list(hand)}
    fixed.update(public)
    forbid[me] = FULL
    allowed: dict[int, int] = {}
    for c in bit_list(FULL & ~all_played):
        if c in fixed:
            continue
        mask = 0
        for s in range(4):
            if not forbid[s] >> c & 1:
                mask |= 1 << s
        allowed[c] = mask
    caps = list(size)
    for h in fixed.values():
        caps[h] -= 1
    if min(caps) < 0:
        raise AtoutError("observation is inconsistent: more known cards than places")
    exclusive = _option(obs, "announce_card_reuse", "") == "exclusive"
    carre_value = _option(obs, "carre_100_ranks_value", 100)
    return BeloteHidden([f"seat{s}" for s in range(4)], fixed, allowed, caps, played, heard,
                        exclusive, carre_value,
                        _beaten(obs, heard, strain, exclusive, carre_value, played, fixed))


def _beaten(obs: dict, heard: dict[int, list[tuple[str, int | None]]], strain: int,
            exclusive: bool, carre_value: int, played: list[int], fixed: dict[int, int]
            ) -> Beaten | None:
    """The comparison of trick 1, once made (default ``best_single``): the winning
    team's announces are known exactly (shown or our own), so its best key bounds the
    losing team's announces (BELOTE-ANN-6/7). None when it says nothing usable."""
    team = obs.get("announce_team")
    if team is None or not obs["tricks"] or \
            _option(obs, "announce_compare", "best_single") != "best_single":
        return None
    me = obs["seat"]
    first_leader = obs["tricks"][0][0][0][0]
    by_order = _option(obs, "announce_tie", "trump_then_order") == "trump_then_order"
    keys = []
    for s in (team, team + 2):
        if s == me:
            own = [a["announce"].split(":") for a in obs["announces"] if a["seat"] == me]
            wanted = [(k, "789TJQKA".index(x) if k == "carre" else DECK.card(x))
                      for k, x in own]
        else:
            wanted = heard.get(s, [])
        if any(i is None for _, i in wanted):
            return None  # a winning announce we cannot identify: no bound
        hand = played[s] | mask_of(c for c, h in fixed.items() if h == s)
        plan = _announce_plan(hand, wanted, exclusive, carre_value) or []
        for k, idt in plan:
            for kk, ii, cards, pts in available_announces(hand, 0, 0, False, carre_value):
                if (kk, ii) == (k, idt):
                    keys.append(Announce(s, k, idt, cards, pts).key(strain, first_leader,
                                                                    by_order))
                    break
    if not keys:
        return None
    return Beaten(1 - team, max(keys), strain, first_leader, by_order)


# --- worlds -------------------------------------------------------------------------
def world(state, seat: int, holdings: list[list[int]]):
    """A full state equal to ``state`` for ``seat`` in which the other hands are
    ``holdings`` (complete current hands per seat, ``seat``'s own unchanged).

    A deal with a record is rebuilt (a deal consistent with the drawn hands; ``seat``'s
    own dealt cards kept) and its history replayed, so the world is a genuine state
    (legal history, undo, record); another seat's sequence announce that was heard but
    not seen is replayed as a combination of the same kind found in the drawn hand.
    A ``from_play`` position (no record) is copied with the hidden parts replaced."""
    obs = state.observation(seat)
    h = hidden(obs)
    masks = [mask_of(x) for x in holdings]
    if masks[seat] != state.hands[seat]:
        raise AtoutError("a world must keep the observer's own hand")
    start = [masks[s] | h.played[s] for s in range(4)]
    heard = dict(h.heard)
    if state.tricks and state.announce_team is not None:  # shown: public, exact
        for s in heard:
            if s % 2 == state.announce_team:
                heard[s] = [(a.kind, a.ident) for a in state.announces if a.seat == s]
    plans = {s: _announce_plan(start[s], wanted, h.exclusive, h.carre_value, s, h.beaten)
             for s, wanted in heard.items()}
    if getattr(state, "from_position", False) or state.deal is None:
        return _patched_copy(state, seat, masks, start, plans)
    deal = _world_deal(state, seat, start)
    w = type(state)(deal, state.options, state.dealer)
    counters = {s: 0 for s in range(4)}
    for mover, move in zip(state._seat_sequence(), state.history, strict=True):
        if move.kind == "announce" and mover != seat:
            i = counters[mover]
            counters[mover] += 1
            plan = plans.get(mover)
            if plan is None:
                continue  # cannot be realised in this drawn hand (rejection budget hit)
            move = Move("announce", plan[i])
        w.play(move)
    return w


def _world_deal(state, seat: int, start: list[int]) -> Deal:
    """A deal giving each seat its world start hand (Coinche: 8 cards; Belote: 5 dealt
    cards, the turned card and the stock in dealing order, BELOTE-DEAL-1/2)."""
    if state.game == "coinche":
        return Deal([sorted(bit_list(m)) for m in start])
    turned, dealer = state.turned, state.dealer
    first = []
    for s in range(4):
        if s == seat:
            first.append(list(state.deal.hands[s]))
        else:
            first.append(sorted(bit_list(start[s] & ~(1 << turned)))[:5])
    stock = []
    for i in range(1, 5):
        s = (dealer + i) % 4
        stock.extend(sorted(bit_list(start[s] & ~mask_of(first[s]) & ~(1 << turned))))
    return Deal(first, {"turned": [turned], "stock": stock})


def _patched_copy(state, seat: int, masks: list[int], start: list[int],
                  plans: dict[int, list[tuple[str, int]] | None]):
    """World of a position without a deal record: replace the hidden parts of the state
    and of its undo snapshots (hands, start hands, pending belotes, others' announces)."""
    w = state.copy()
    others = [s for s in range(4) if s != seat]
    ta_belote = w._ta_belote()

    def remap(announces: list[Announce]) -> list[Announce]:
        out, count = [], {s: 0 for s in range(4)}
        for a in announces:
            if a.seat == seat:
                out.append(a)
                continue
            plan = plans.get(a.seat)
            i = count[a.seat]
            count[a.seat] += 1
            if plan is None:
                continue
            kind, ident = plan[i]
            for k, idt, cards, pts in available_announces(start[a.seat], 0, 0, False,
                                                          w.options["carre_100_ranks_value"]):
                if (k, idt) == (kind, ident):
                    out.append(Announce(a.seat, k, idt, cards, pts))
                    break
        return out

    def fix(d: dict[str, Any], played_after: list[int]) -> None:
        d["hands"] = [d["hands"][s] if s == seat else masks[s] | played_after[s]
                      for s in range(4)]
        d["start_hands"] = [d["start_hands"][s] if s == seat else start[s] for s in range(4)]
        pend = [p for p in d["belote_pending"] if p[0] == seat]
        gone = [p for p in d["belote_forgone"] if p[0] == seat]
        for s in others:
            gone_cards = start[s] & ~d["hands"][s]
            for suit in belote_suits(start[s], w.strain, ta_belote):
                if (s, suit) in d["belote_said"]:
                    continue
                kq = (1 << (8 * suit + RK)) | (1 << (8 * suit + RQ))
                (gone if gone_cards & kq else pend).append((s, suit))
        d["belote_pending"] = pend
        d["belote_forgone"] = gone
        d["announces"] = remap(d["announces"])
        for s in others:
            seq = carre = 0
            for a in d["announces"]:
                if a.seat == s:
                    if a.kind == "carre":
                        carre |= a.cards
                    else:
                        seq |= a.cards
            d["seq_used"] = [*d["seq_used"][:s], seq, *d["seq_used"][s + 1:]]
            d["carre_used"] = [*d["carre_used"][:s], carre, *d["carre_used"][s + 1:]]

    # cards each seat played at or after each history index
    seats = w._seat_sequence()
    after = [0, 0, 0, 0]
    fix(w.__dict__, after)
    for k in range(len(w.history) - 1, -1, -1):
        move = w.history[k]
        if move.kind in ("card", "belote"):
            after = list(after)
            after[seats[k]] |= 1 << move.value
        fix(w._undo_stack[k], after)
    return w
