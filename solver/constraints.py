"""What a seat knows → hard constraints on the cards it cannot see, and worlds.

For one observing seat, every card it cannot locate gets the set of holders that may
hold it (the other seats, and an extra pile such as Tarot's écart/dog); every holder
gets the number of such cards it holds. ``solver.sampling.DealSampler`` then draws
complete deals uniformly among those consistent with the constraints, and
``world(state, seat, holdings)`` rebuilds a full game state for each draw, replacing
everything the seat cannot see.

Only the observation (``state.observation(seat)``) feeds the constraints: what was
played, shown and announced, and the legal-move rules that reveal voids.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import bit_list
from .errors import AtoutError
from .sampling import DealSampler


@dataclass
class Hidden:
    """Constraints for one observer. Holders are seats ``0..n-1`` then extra piles."""

    holders: list[str]
    fixed: dict[int, int] = field(default_factory=dict)  # card -> holder (known place)
    allowed: dict[int, int] = field(default_factory=dict)  # card -> holder bit mask
    capacities: list[int] = field(default_factory=list)  # unknown cards per holder

    def sampler(self) -> DealSampler:
        return DealSampler(self.allowed, self.capacities)


# --- French Tarot ---------------------------------------------------------------------
def tarot_hidden(obs: dict) -> Hidden:
    """Constraints for a Tarot seat during the card play (TAROT-PLAY-4 inferences,
    TAROT-DOG-2 écart restrictions, shown dog, forced écart trumps, poignées, misère)."""
    from .games import tarot as T

    if obs["phase"] not in ("play", "show"):
        raise AtoutError("tarot worlds are sampled during the card play only")
    n, me = obs["players"], obs["seat"]
    aside = n  # holder index of the écart (prise/garde) or the dog (garde sans/contre)
    contract, taker = obs["contract"], obs["taker"]
    tricks = [t for t, _ in obs["tricks"]] + ([obs["trick"]] if obs["trick"] else [])
    played = 0
    played_by = [0] * n
    for t in tricks:
        for s, c in t:
            played |= 1 << c
            played_by[s] += 1
    per_hand = {3: 24, 4: 18, 5: 15}[n]
    dog_size = {3: 6, 4: 6, 5: 3}[n]
    size = [per_hand - played_by[s] for s in range(n)] + [dog_size]

    fixed: dict[int, int] = {c: me for c in bit_list(obs["hand"])}
    if obs["ecart"] is not None:  # the taker knows his écart
        fixed.update({c: aside for c in bit_list(obs["ecart"])})
    fixed.update({c: aside for c in bit_list(obs["ecart_shown"])})
    for s, _level, shown in obs["poignees"]:
        fixed.update({c: s for c in bit_list(shown & ~played)})
    if obs["showing"]:
        s, _level, shown = obs["showing"]
        fixed.update({c: s for c in bit_list(shown & ~played)})
    for s, _kind, hand in obs["miseres"]:
        fixed.update({c: s for c in bit_list(hand & ~played)})

    everyone = (1 << (n + 1)) - 1
    forbid = [0] * (n + 1)  # cards each holder cannot have
    forbid[me] = T.FULL_DECK
    # inferences from the play (TAROT-PLAY-3/4; EX satisfies nothing so reveals nothing)
    for t in tricks:
        led, best = None, -1
        for s, c in t:
            if c == T.EXCUSE:
                continue
            suit = T.card_suit(c)
            if led is None:
                led = suit
            else:
                if suit != led:
                    forbid[s] |= T.SUIT_MASKS[led] if led != T.TRUMP else T.TRUMP_MASK
                    if suit != T.TRUMP:
                        forbid[s] |= T.TRUMP_MASK
                if suit == T.TRUMP and best >= 0 and c < best:
                    forbid[s] |= T.TRUMP_MASK & ~((1 << (best + 1)) - 1)
            if suit == T.TRUMP:
                best = max(best, c)
    for s, _level, shown in obs["poignees"]:
        if shown & T.EXCUSE_BIT:  # TAROT-ANN-5: EX shown ⇒ no other trump
            forbid[s] |= T.TRUMP_MASK & ~shown
    for s, kind, _hand in obs["miseres"]:
        forbid[s] |= (T.TRUMP_MASK | T.EXCUSE_BIT) if kind == "trump" else T.HEADS_MASK
    # the pile aside
    if contract in ("prise", "garde"):
        forbid[aside] |= T.KINGS_MASK | T.BOUTS_MASK  # TAROT-DOG-2
        if obs["ecart_shown"]:
            # trumps had to be discarded: the écart holds every low card the taker had
            forbid[aside] |= T.TRUMP_MASK & ~obs["ecart_shown"]
            low = T.FULL_DECK & ~(T.TRUMP_MASK | T.EXCUSE_BIT | T.KINGS_MASK)
            forbid[taker] |= low
        else:
            forbid[aside] |= T.TRUMP_MASK
    dog_cards = obs["dog"] or 0
    allowed: dict[int, int] = {}
    for c in bit_list(T.FULL_DECK & ~played):
        if c in fixed:
            continue
        mask = everyone & ~(1 << me)
        if dog_cards >> c & 1 and contract in ("prise", "garde"):
            mask &= (1 << taker) | (1 << aside)  # the shown dog went to the taker
        for h in range(n + 1):
            if forbid[h] >> c & 1:
                mask &= ~(1 << h)
        allowed[c] = mask
    caps = list(size)
    for h in fixed.values():
        caps[h] -= 1
    if min(caps) < 0:
        raise AtoutError("observation is inconsistent: more known cards than places")
    holders = [f"seat{s}" for s in range(n)] + ["aside"]
    return Hidden(holders, fixed, allowed, caps)


def tarot_world(state, seat: int, holdings: list[list[int]]):
    """A copy of ``state`` in which the cards ``seat`` cannot see are those drawn."""
    w = state.copy(undo=False)
    n = w.players
    masks = [sum(1 << c for c in h) for h in holdings]
    for s in range(n):
        w.hands[s] = masks[s]
    if w.contract in ("prise", "garde"):
        w.ecart = masks[n]
    else:
        w.dog = masks[n]
    if w.called_card is not None:
        # TAROT-CALL-4/5: the partner holds the called card (played already: public)
        holder = next((s for s in range(n) if masks[s] >> w.called_card & 1), None)
        for t in [t for t, _ in w.tricks] + [w.trick]:
            holder = next((s for s, c in t if c == w.called_card), holder)
        w.partner = None if holder == w.taker else holder  # None: in the pile aside
    return w


# Other games live in their own modules, each exposing ``hidden(obs) -> Hidden`` and
# ``world(state, seat, holdings) -> GameState``.
WORLD_MODULES = {
    "belote": "solver.worlds_belote",
    "coinche": "solver.worlds_belote",
    "tarocchini": "solver.worlds_tarocchini",
}


def game_functions(game: str):
    """The game's ``(hidden(observation), world(state, seat, holdings))`` pair."""
    if game == "tarot":
        return tarot_hidden, tarot_world
    if game not in WORLD_MODULES:
        raise AtoutError(f"no world sampling for {game}")
    import importlib

    try:
        module = importlib.import_module(WORLD_MODULES[game])
    except ImportError:
        raise AtoutError(f"no world sampling for {game} yet") from None
    return module.hidden, module.world


def hidden(state, seat: int) -> Hidden:
    """Constraints on what ``seat`` cannot see in ``state`` (from its observation only)."""
    return game_functions(state.game)[0](state.observation(seat))


def holdings_sampler(state, seat: int):
    """``draw(rng)``: one uniform draw of where the cards ``seat`` cannot see are (per
    place: current hands, then the game's other places). The counting behind it is
    done once here, so draw it as often as needed."""
    make_hidden, _ = game_functions(state.game)
    h = make_hidden(state.observation(seat))
    sampler = h.sampler()
    fixed = list(h.fixed.items())

    def draw(rng: random.Random) -> list[list[int]]:
        holdings = [list(x) for x in sampler.sample(rng)]
        for c, holder in fixed:
            holdings[holder].append(c)
        return holdings

    return draw


def all_holdings(state, seat: int, limit: int) -> list[list[list[int]]] | None:
    """Every world ``seat`` cannot tell from the true one (per place, as
    ``holdings_sampler`` draws them), in a fixed order, when there are at most ``limit``
    of them by the count of the per-card constraints; None when there are more."""
    make_hidden, _ = game_functions(state.game)
    h = make_hidden(state.observation(seat))
    sampler = h.sampler()
    if sampler.count() > limit:
        return None
    fixed = list(h.fixed.items())
    out = []
    for deal in sampler.deals():
        holdings = [list(x) for x in deal]
        for c, holder in fixed:
            holdings[holder].append(c)
        out.append(holdings)
    return out


def sample_holdings(state, seat: int, count: int, seed: int) -> list[list[list[int]]]:
    """``count`` uniform draws of where the cards ``seat`` cannot see are: per world,
    the cards of every place (current hands, then the game's other places)."""
    draw = holdings_sampler(state, seat)
    rng = random.Random(seed)
    return [draw(rng) for _ in range(count)]


def sample_worlds(state, seat: int, count: int, seed: int) -> list:
    """``count`` full states consistent with what ``seat`` knows, uniformly drawn."""
    _, make_world = game_functions(state.game)
    return [make_world(state, seat, holdings)
            for holdings in sample_holdings(state, seat, count, seed)]
