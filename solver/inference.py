"""What the auction says about the hidden hands, for card play (``pimc:auction=1``).

The sampler (``solver.constraints``) draws worlds uniformly among those consistent
with the hard facts (cards seen, voids, announces shown). The calls of the auction say
more: a seat that bid 110 in hearts holds hearts. ``AuctionModel`` keeps the worlds in
which every other seat's hand, as it was during the auction, makes that seat's calls
when the heuristic bidder holds it (the same model as the bid analysis,
``solver.bidding``): exact when the others bid like the heuristic, an approximation
otherwise.

Coinche only: there the whole hand is dealt before the auction. In Belote a seat's
calls were made on 5 of its 8 cards, which worlds do not tell apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import DECKS

# Draws per world wanted before the worlds that miss the auction fill the rest.
DRAWS_PER_WORLD = 20


def _heuristic_call(game: str) -> Callable[[dict[str, Any], list], Any] | None:
    if game == "coinche":
        from .heuristics.belote import choose_call

        return choose_call
    return None


class AuctionModel:
    """The other seats' calls, with what each saw, and a test of a world against them
    (results cached by seat and hand: a deal's decisions share them)."""

    def __init__(self, game: str, calls: dict[int, list[tuple[dict[str, Any], list, Any]]],
                 decide: Callable[[dict[str, Any], list], Any]):
        self.game = game
        self.calls = calls
        self.decide = decide
        self._fit: dict[tuple[int, int], bool] = {}

    def fits_hand(self, seat: int, hand: int) -> bool:
        """Would the heuristic bidder holding ``hand`` (a mask) have made ``seat``'s calls?"""
        key = (seat, hand)
        ok = self._fit.get(key)
        if ok is None:
            ok = all(self.decide(obs | {"hand": hand}, legal) == move
                     for obs, legal, move in self.calls[seat])
            self._fit[key] = ok
        return ok

    def fits(self, holdings: list[list[int]], played: dict[int, int]) -> bool:
        """Does a world (current holdings per seat) follow the auction? ``played``: the
        cards each seat has played so far (masks), which were in its hand then."""
        for seat in self.calls:
            hand = played.get(seat, 0)
            for c in holdings[seat]:
                hand |= 1 << c
            if not self.fits_hand(seat, hand):
                return False
        return True


def auction_model(state: Any, seat: int) -> AuctionModel | None:
    """The model of the other seats' calls in ``state`` (as ``seat`` heard them), or
    None when the game has none or nobody else called. Only public information is
    recorded: each caller's observation without its hand, its legal calls, its call."""
    from .bidding import public_view
    from .games import get_game

    decide = _heuristic_call(state.game)
    if decide is None:
        return None
    rec = state.to_record()
    st = get_game(state.game).new_state(options=rec.options, dealer=rec.dealer,
                                        deal=rec.deal)
    calls: dict[int, list[tuple[dict[str, Any], list, Any]]] = {}
    for tok in rec.moves:
        if st.phase != "bid":
            break
        caller = st.to_act
        view = public_view(st, caller) if caller != seat else None
        st.play(tok)
        if view is not None:
            calls.setdefault(caller, []).append((view[0], view[1], st.history[-1]))
    return AuctionModel(state.game, calls, decide) if calls else None


def played_by_seat(obs: dict[str, Any], game: str) -> dict[int, int]:
    """Masks of the cards each seat has played (completed tricks and the current one)."""
    deck = DECKS[game]
    out: dict[int, int] = {}
    for trick, _winner in obs.get("tricks", []):
        for s, tok in trick:
            out[s] = out.get(s, 0) | 1 << deck.card(tok)
    for s, tok in obs.get("trick", []):
        out[s] = out.get(s, 0) | 1 << deck.card(tok)
    return out
