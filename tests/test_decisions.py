"""The recorded decision set and its judge (solver/decisions.py): the double-dummy
value of each legal card on the true deal (BELOTE-PLAY-*, COINCHE-SCORE-* through the
deal's net score; Tarot: the oracle's search scored as T, TAROT-SCORE-1; Tarocchini:
the oracle's search, its cards also played with an OTTO-SIG-1 signal)."""

import pytest

from solver import decisions as D
from solver.games.base import Move


@pytest.mark.parametrize("game, options", [("coinche", {}), ("belote", {}),
                                           ("tarot", {"players": 4}),
                                           ("tarocchini", {"game": "ottocento"})])
def test_record_is_seeded_and_the_oracle_loses_nothing(game, options, tmp_path):
    ds = D.record_decisions(game, 3, seed=4, rate=0.3, options=options)
    assert ds and all(len(d.values) > 1 for d in ds)
    path = tmp_path / "set.json"
    D.save(ds, str(path))
    again = D.load(str(path))
    assert again == D.record_decisions(game, 3, seed=4, rate=0.3, options=options)
    for d in again:
        st = d.state()
        assert st.to_act == d.seat
        cards = {D._card_of(m) for m in st.legal_moves() if m.kind in D.CARD_KINDS}
        assert sorted(d.values) == sorted(st.move_token(Move("card", c)) for c in cards)
    # the oracle plays a double-dummy best card of the true deal: no loss; the
    # heuristic loses somewhere (or the judge could not fail)
    oracle = D.evaluate(again, "oracle")
    assert oracle.losses == [0] * len(again)
    heuristic = D.evaluate(again, "heuristic")
    assert min(heuristic.losses) >= 0 and max(heuristic.losses) > 0
    m, lo, hi = D.mean_ci(heuristic.losses)
    assert lo <= m <= hi
    d, dlo, dhi = D.paired(oracle, heuristic)
    assert d == pytest.approx(m)


def test_mean_ci():
    m, lo, hi = D.mean_ci([1.0, 3.0])
    assert m == 2.0 and hi - m == pytest.approx(1.96 * 2 ** 0.5 / 2 ** 0.5)


def test_exact_values_is_the_exact_search_in_the_seats_points():
    """``exact_values`` (the judge of ``decision_set.py exact``): every legal card's
    exact T (TAROT-SCORE-1) in the seat's own points, the oracle's values where those
    are exact (8 tricks left or fewer in 4p); None when the budget cannot value every
    card; a game without it is refused."""
    from solver.errors import AtoutError
    ds = [d for d in D.record_decisions("tarot", 4, seed=4, rate=0.3,
                                        options={"players": 4})
          if d.state().hands[d.seat].bit_count() <= 8]
    assert ds
    for d in ds:
        st = d.state()
        assert D.exact_values(st, d.seat, 10**7) == d.values
    st = ds[0].state()
    assert D.exact_values(st, ds[0].seat, 1) is None
    belote = D.record_decisions("belote", 1, seed=4, rate=0.3)[0]
    with pytest.raises(AtoutError, match="judges Tarot"):
        D.exact_values(belote.state(), belote.seat, 10**6)
