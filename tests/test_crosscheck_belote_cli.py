"""Cross-check against belote-cli 4.9.6 (an independent Python implementation): legal moves
and trick winners at every position of random deals in suit, SA and TA contracts, and card
points in suit contracts.

belote-cli uses the same 32-card index (suits S H D C, ranks 7 8 9 T J Q K A), the same
seat order and the same partnerships, and our default play rules (undertrump required,
overtrump on a trump lead even over the partner, TA: follow and rise in the led suit),
so legal moves must agree everywhere. Card points are compared in suit contracts only:
belote-cli counts TA with the trump scale and SA with the plain scale unscaled (totals 248
and 120 + ...), whereas COINCHE-CARD-3 / COINCHE-CARD-4 scale both to 152; in TA and SA we
compare legal moves and trick winners (the rankings agree).
"""

import random

import pytest

pytest.importorskip("belote.game")

from belote import deck as bdeck  # noqa: E402
from belote import game as bgame  # noqa: E402

from solver.games import coinche  # noqa: E402
from solver.games.base import Move  # noqa: E402
from solver.games.belote_common import DECK, SA, TA, card_points  # noqa: E402

BCARDS = bdeck.make_deck()  # same index as ours: 8 * suit + rank, ranks 7..A
BSUITS = bdeck.CARD_SUITS
assert [str(c) for c in BCARDS[:4]] == ["7♠", "8♠", "9♠", "10♠"]


def _their_legal(state, seat):
    hands = tuple(tuple(BCARDS[c] for c in DECK.cards(h)) for h in state.hands)
    if state.strain == TA:
        trump, contract = bdeck.Suit.TOUT_ATOUT, bdeck.Contract.TOUT_ATOUT
    elif state.strain == SA:
        trump, contract = None, bdeck.Contract.SANS_ATOUT
    else:
        trump, contract = BSUITS[state.strain], bdeck.Contract.NORMAL
    trick = tuple(bgame.TrickCard(bgame.Seat(s), BCARDS[c]) for s, c in state.trick)
    g = bgame.GameState(hands=hands, trump=trump, contract=contract,
                        phase=bgame.Phase.PLAYING, current_trick=trick,
                        turn=bgame.Seat(seat))
    legal = {BCARDS.index(c) for c in bgame.legal_cards(g, bgame.Seat(seat))}
    return legal, trump, contract == bdeck.Contract.SANS_ATOUT


def _run(n_deals, seed0):
    stats = {"positions": 0, "legal_diff": [], "winner_diff": [], "points_diff": [],
             "strains": [0] * 6}
    for seed in range(seed0, seed0 + n_deals):
        rng = random.Random(seed)
        perm = list(range(32))
        rng.shuffle(perm)
        strain = seed % 6
        stats["strains"][strain] += 1
        st = coinche.CoincheState.from_play([DECK.mask(perm[8 * i:8 * i + 8]) for i in range(4)],
                                            strain, rng.randrange(4), dealer=rng.randrange(4),
                                            options={"announces": False})
        while not st.is_over():
            seat = st.to_act
            ours = {m.value for m in st.legal_moves() if m.kind == "card"}
            theirs, trump, is_sa = _their_legal(st, seat)
            stats["positions"] += 1
            if ours != theirs:
                stats["legal_diff"].append((seed, DECK.format_cards(st.hands[seat]),
                                            st.trick, strain))
            card = rng.choice(sorted(ours & theirs or ours))
            st.play(Move("card", card))
            if not st.trick:  # a trick was completed
                done, winner = st.tricks[-1]
                bt = tuple(bgame.TrickCard(bgame.Seat(s), BCARDS[c]) for s, c in done)
                their_winner = bgame.trick_winner_seat(bt, trump, False, is_sa).value
                if their_winner != winner:
                    stats["winner_diff"].append((seed, done, strain))
                if strain < 4:
                    ours_pts = sum(card_points(c, strain) for _, c in done)
                    theirs_pts = sum(bdeck.card_points(BCARDS[c], trump) for _, c in done)
                    if ours_pts != theirs_pts:
                        stats["points_diff"].append((seed, done))
    return stats


def test_belote_cli_legal_moves_winners_points():
    """BELOTE-PLAY-3, BELOTE-PLAY-4, BELOTE-PLAY-5, BELOTE-CARD-2, COINCHE-PLAY-3 and
    COINCHE-PLAY-4 against belote-cli on >= 10,000 positions (suit, TA and SA)."""
    stats = _run(330, 0)
    assert stats["positions"] >= 10_000
    assert min(stats["strains"]) >= 50
    assert stats["legal_diff"] == []
    assert stats["winner_diff"] == []
    assert stats["points_diff"] == []
