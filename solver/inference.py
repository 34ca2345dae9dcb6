"""What the auction says about the hidden hands, for card play (``pimc:auction=1``).

The sampler (``solver.constraints``) draws worlds uniformly among those consistent
with the hard facts (cards seen, voids, announces shown). The calls of the auction say
more: a seat that bid 110 in hearts holds hearts. ``AuctionModel`` keeps the worlds in
which every other seat's hand, as it was during the auction, makes that seat's calls
when the heuristic bidder holds it (the same model as the bid analysis,
``solver.bidding``): exact when the others bid like the heuristic, an approximation
otherwise.

Coinche and French Tarot: there the whole hand is dealt before the auction (a Tarot
taker's hand at the auction is its hand now, plus the cards it played and its écart,
minus the dog it took). Belote: a seat called on the first 5 of its 8 cards (the
taker's 8 include the turned card), which a world does not tell apart: all 5-card
subsets were equally likely, so a world is kept when a random subset per caller makes
its calls (exact rejection sampling of the same posterior). Terziglio: every seat
bid on its 18 (19) dealt cards; a gioco declarer then took the stock and discarded as
many cards, unseen by the others, so his dealt hand is a random subset of his cards
now, played and discarded (the same argument as Belote); a solo declarer and the
defenders hold what they were dealt. Ottocento's monte votes (OTTO-DEAL-4, made on 5
of 15 cards, and only "all monte" ends a deal) are not modelled.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .cards import DECKS, bit_list, mask_of

# Draws per world wanted before the worlds that miss the auction fill the rest.
DRAWS_PER_WORLD = 20


def _heuristic_call(game: str) -> Callable[[dict[str, Any], list], Any] | None:
    if game == "coinche":
        from .heuristics.belote import choose_call

        return choose_call
    if game == "belote":
        from .heuristics.belote import choose_take

        return choose_take
    if game == "tarot":
        from .heuristics.tarot import choose_bid

        return choose_bid
    if game == "tarocchini":
        from .heuristics.tarocchini import choose_bid

        return choose_bid
    return None


def _auction_hand(state: Any, seat: int) -> Callable[[int, list[list[int]], int], int]:
    """``f(caller, holdings, played)``: the caller's hand during the auction in a world
    (``holdings``: the sampler's places; ``played``: the caller's played cards)."""
    obs = state.observation(seat)
    if state.game == "tarot" and obs.get("dog") and obs.get("taker") is not None:
        # prise / garde: the taker took the shown dog and put an écart aside
        taker, dog, aside = obs["taker"], obs["dog"], obs["players"]

        def tarot_hand(caller: int, holdings: list[list[int]], played: int) -> int:
            hand = played | mask_of(holdings[caller])
            if caller == taker:
                hand = (hand | mask_of(holdings[aside])) & ~dog
            return hand

        return tarot_hand
    if state.game == "tarocchini" and obs.get("contract") == "gioco":
        # TERZ-BID-2: the declarer took the stock in and discarded as many (aside)
        declarer, aside = obs["declarer"], state.n

        def gioco_hand(caller: int, holdings: list[list[int]], played: int) -> int:
            hand = played | mask_of(holdings[caller])
            if caller == declarer:
                hand |= mask_of(holdings[aside])
            return hand

        return gioco_hand
    return lambda caller, holdings, played: played | mask_of(holdings[caller])


class AuctionModel:
    """The other seats' calls, with what each saw, and a test of a world against them
    (results cached by seat and hand: a deal's decisions share them)."""

    def __init__(self, calls: dict[int, list[tuple[dict[str, Any], list, Any]]],
                 decide: Callable[[dict[str, Any], list], Any],
                 auction_hand: Callable[[int, list[list[int]], int], int],
                 dealt_before: dict[int, int] | None = None, not_dealt: int = 0):
        self.calls = calls
        self.decide = decide
        self.auction_hand = auction_hand
        # Belote, Terziglio gioco: seat s held a random ``dealt_before[s]`` of its
        # auction-hand cards (never ``not_dealt``) when it called
        self.dealt_before = dealt_before or {}
        self.not_dealt = not_dealt
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

    def fits(self, holdings: list[list[int]], played: dict[int, int],
             rng: random.Random | None = None) -> bool:
        """Does a world (current holdings per seat) follow the auction? ``played``: the
        cards each seat has played so far (masks), which were in its hand then.
        Belote, Terziglio gioco: ``rng`` picks the subset of a caller's cards it held
        at the auction."""
        return self.misfits(holdings, played, rng, stop_at=1) == 0

    def misfits(self, holdings: list[list[int]], played: dict[int, int],
                rng: random.Random | None = None, stop_at: int | None = None) -> int:
        """How many calling seats' hands in this world do not make their calls (counting
        stops at ``stop_at``). If each seat strays from the heuristic bidder with a
        small probability, a world with fewer strays is the likelier: ``pimc`` fills a
        shortfall of fitting worlds with the draws that have the fewest."""
        bad = 0
        for seat in self.calls:
            hand = self.auction_hand(seat, holdings, played.get(seat, 0))
            if seat in self.dealt_before:
                cards = bit_list(hand & ~self.not_dealt)
                hand = mask_of((rng or random).sample(cards, self.dealt_before[seat]))
            if not self.fits_hand(seat, hand):
                bad += 1
                if stop_at is not None and bad >= stop_at:
                    break
        return bad


def calls_heard(obs: dict[str, Any]) -> list:
    """The auction in an observation: Coinche ``calls``, Belote/Tarot ``auction``,
    Terziglio ``bids`` (empty if none)."""
    return obs.get("calls") or obs.get("auction") or obs.get("bids") or []


def auction_model(state: Any, seat: int) -> AuctionModel | None:
    """The model of the other seats' calls in ``state`` (as ``seat`` heard them), or
    None when the game has none or nobody else called. Only public information is
    recorded: each caller's observation without its hand, its legal calls, its call."""
    from .bidding import replay_auction
    from .games import get_game

    decide = _heuristic_call(state.game)
    obs = state.observation(seat)
    heard_calls = calls_heard(obs)
    if decide is None or not heard_calls:
        return None
    rec = state.to_record()
    st = get_game(state.game).new_state(options=rec.options, dealer=rec.dealer,
                                        deal=rec.deal)
    calls: dict[int, list[tuple[dict[str, Any], list, Any]]] = {}
    replay_auction(st, rec.moves[:len(heard_calls)], seat, calls, turn=False)
    if not calls:
        return None
    if state.game == "belote":  # BELOTE-DEAL-1/2/3: the calls were made on 5 random cards
        turned = DECKS["belote"].card(obs["turned"])
        return AuctionModel(calls, decide, _auction_hand(state, seat),
                            dealt_before=dict.fromkeys(calls, 5), not_dealt=1 << turned)
    if state.game == "tarocchini" and obs.get("contract") == "gioco" \
            and obs["declarer"] in calls:
        # he bid on as many cards as every seat was dealt (TERZ-DEAL-1)
        return AuctionModel(calls, decide, _auction_hand(state, seat),
                            dealt_before={obs["declarer"]: len(rec.deal.hands[seat])})
    return AuctionModel(calls, decide, _auction_hand(state, seat))


def played_by_seat(obs: dict[str, Any], game: str) -> dict[int, int]:
    """Masks of the cards each seat has played (completed tricks and the current one)."""
    deck = DECKS[game]
    out: dict[int, int] = {}
    for trick in [t for t, _winner in obs.get("tricks", [])] + [obs.get("trick", [])]:
        for s, card in trick:
            out[s] = out.get(s, 0) | 1 << (card if isinstance(card, int) else deck.card(card))
    return out
