"""Typed Python face of the Belote/Coinche Cython core (``solver.belote_core``).

Converts the play phase of a Belote or Coinche state (``solver.games.belote_common``
``TrickPlayState``: ``hands``, ``trick``, ``tricks``, ``leader``, ``strain``, ``taker``,
``points``, ``tricks_won``) or plain masks into a core position, validating it first
so that the core never sees an inconsistent position (every problem raises
``DealError``/``OptionError`` with a message naming it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import belote_core as _core
from ..errors import DealError, OptionError

STRAIN_NAMES = ("S", "H", "D", "C", "TA", "SA")
TA, SA = 4, 5
FULL = (1 << 32) - 1

BeloteCore = _core.BeloteCore
DDSolver = _core.DDSolver


@dataclass(frozen=True)
class PlayRules:
    """Every option that changes card play or the card-point objective."""

    strain: int
    undertrump_required: bool = True   # BELOTE-PLAY-4
    ta_must_overtake: bool = True      # COINCHE-PLAY-3
    capot_points: int = 252            # BELOTE-SCORE-4

    def args(self) -> tuple[int, bool, bool, int]:
        return (self.strain, self.undertrump_required, self.ta_must_overtake,
                self.capot_points)


@dataclass(frozen=True)
class Position:
    """A validated play-phase position: deck masks, the trick in progress (deck cards in
    play order from ``leader``), the taker and what the completed tricks captured."""

    hands: tuple[int, int, int, int]
    trick: tuple[int, ...]
    leader: int
    taker: int
    attack_points: int = 0      # card points of completed tricks (dix de der included)
    defence_points: int = 0
    attack_all: bool = True     # the attack won every completed trick
    taker_all: bool = True      # the taker won every completed trick
    defence_all: bool = True    # the defence won every completed trick
    tricks_done: int = 0

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def args(self) -> tuple[Any, ...]:
        return (list(self.hands), list(self.trick), self.leader, self.taker,
                self.attack_points, self.defence_points, self.attack_all, self.taker_all,
                self.defence_all, self.tricks_done)


def parse_strain(strain: int | str) -> int:
    """Strain index 0..5 from an int or a token (``S H D C TA SA``)."""
    if isinstance(strain, str):
        if strain not in STRAIN_NAMES:
            raise OptionError(f"unknown strain {strain!r} (S H D C TA SA)")
        return STRAIN_NAMES.index(strain)
    if isinstance(strain, bool) or not isinstance(strain, int) or not 0 <= strain <= 5:
        raise OptionError(f"strain must be 0..5 (S H D C TA SA), got {strain!r}")
    return strain


def make_position(hands: list[int], trick: list[int] | tuple[int, ...] = (), *,
                  leader: int, taker: int, attack_points: int = 0, defence_points: int = 0,
                  attack_all: bool | None = None, taker_all: bool | None = None,
                  defence_all: bool | None = None, tricks_done: int | None = None) -> Position:
    """Validate and build a Position; raises DealError naming the problem."""
    if len(hands) != 4:
        raise DealError(f"a Belote position has 4 hands, got {len(hands)}")
    hands_t = tuple(int(h) for h in hands)
    for s, h in enumerate(hands_t):
        if h < 0 or h & ~FULL:
            raise DealError(f"hand of seat {s} holds cards outside the 32-card deck")
    if not (isinstance(leader, int) and 0 <= leader < 4):
        raise DealError(f"leader must be a seat 0..3, got {leader!r}")
    if not (isinstance(taker, int) and 0 <= taker < 4):
        raise DealError(f"taker must be a seat 0..3, got {taker!r}")
    trick_t = tuple(int(c) for c in trick)
    if len(trick_t) > 3:
        raise DealError("a trick in progress holds at most 3 cards")
    seen = 0
    for s, h in enumerate(hands_t):
        if seen & h:
            raise DealError(f"a card of seat {s} is also in another hand")
        seen |= h
    for c in trick_t:
        if not 0 <= c < 32:
            raise DealError(f"trick card index {c} out of range")
        if seen >> c & 1:
            raise DealError("a card of the trick is also in a hand")
        seen |= 1 << c
    # COMMON-TRICK-1: seats leader, leader+1, ... have played to the trick.
    n = hands_t[leader].bit_count() + (1 if trick_t else 0)
    for i in range(4):
        seat = (leader + i) % 4
        want = n - 1 if i < len(trick_t) else n
        if hands_t[seat].bit_count() != want:
            raise DealError(f"seat {seat} holds {hands_t[seat].bit_count()} cards, expected "
                            f"{want} with {len(trick_t)} card(s) in the trick led by {leader}")
    if n == 0:
        raise DealError("empty position: no card left to play")
    done = 8 - n if tricks_done is None else tricks_done
    if done != 8 - n:
        raise DealError(f"{done} tricks done but {n} cards left per hand")
    if attack_all is None:
        attack_all = done == 0
    if defence_all is None:
        defence_all = done == 0
    if taker_all is None:
        taker_all = done == 0
    if attack_points < 0 or defence_points < 0 or attack_points + defence_points > 162:
        raise DealError("points captured so far must be within 0..162")
    return Position(hands_t, trick_t, leader, taker, attack_points, defence_points,
                    bool(attack_all), bool(taker_all), bool(defence_all), done)


def rules_of_state(state: Any) -> PlayRules:
    """The play rules of a Belote/Coinche state (its strain and play options)."""
    if getattr(state, "strain", None) is None:
        raise DealError("no contract yet: the position is not in the play phase")
    opts = state.options
    return PlayRules(strain=parse_strain(state.strain),
                     undertrump_required=bool(opts.get("undertrump_required", True)),
                     ta_must_overtake=bool(opts.get("ta_must_overtake", True)),
                     capot_points=int(opts.get("capot_points", 252)))


def position_of_state(state: Any) -> Position:
    """The core position of a Belote/Coinche state in its play phase."""
    if state.phase != "play":
        raise DealError(f"the state is not in the play phase (phase {state.phase!r})")
    attack = state.taker % 2
    done = sum(state.tricks_won)
    winners = [w for _, w in state.tricks]
    # générale needs every earlier winner; a from_play position that starts mid-deal
    # does not record who of the attack won its earlier tricks (then: not possible)
    known = len(winners) == done
    pts = list(state.points)
    return make_position(
        state.hands, [c for _, c in state.trick], leader=state.leader, taker=state.taker,
        attack_points=pts[attack], defence_points=pts[1 - attack],
        attack_all=state.tricks_won[1 - attack] == 0,
        defence_all=state.tricks_won[attack] == 0,
        taker_all=(done == 0) or (known and all(w == state.taker for w in winners)),
        tricks_done=done)


def core_of(position: Position, rules: PlayRules) -> BeloteCore:
    """A BeloteCore loaded with ``position`` under ``rules``."""
    core = BeloteCore(*rules.args())
    core.set_position(*position.args())
    return core


def core_of_state(state: Any) -> BeloteCore:
    """A BeloteCore loaded with the play-phase position of ``state``."""
    return core_of(position_of_state(state), rules_of_state(state))


def legal_mask(position: Position, rules: PlayRules) -> int:
    """Deck mask of the legal cards of the seat to act (computed by the core)."""
    return core_of(position, rules).legal()


def playouts(position: Position, rules: PlayRules, n: int, seed: int) -> tuple[int, int]:
    """``n`` seeded random playouts inside the core: (sum of attack points, capots)."""
    if n < 0:
        raise OptionError("number of playouts must be >= 0")
    return core_of(position, rules).playouts(n, seed & (2 ** 64 - 1))
