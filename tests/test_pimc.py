"""PIMC and oracle agents complete deals of every game with legal moves only, are
deterministic for a seed, and choose the DD-best card where the answer is certain."""

import pytest

from solver import constraints, dd
from solver.cards import BELOTE_DECK
from solver.games import coinche
from solver.match import MatchConfig, run_match
from solver.pimc import OracleAgent, PimcAgent

GAMES = [("coinche", {}), ("belote", {}), ("tarot", {"players": 4}),
         ("tarot", {"players": 3}), ("tarot", {"players": 5}),
         ("tarocchini", {"game": "ottocento"}), ("tarocchini", {"game": "terziglio"})]


@pytest.mark.parametrize("game,options", GAMES, ids=[f"{g}-{o}" for g, o in GAMES])
def test_pimc_and_oracle_complete_deals(game, options):
    # run_match validates every move through state.play
    for a in ("pimc:worlds=3", "oracle"):
        s = run_match(MatchConfig(game, a, "heuristic", 1, seed=5, options=options))
        assert s["deals"] == 1


def test_pimc_is_deterministic_for_a_seed():
    cfg = MatchConfig("coinche", "pimc:worlds=4", "heuristic", 2, seed=9)
    assert run_match(cfg)["results"] == run_match(cfg)["results"]


def test_oracle_plays_the_dd_best_card_and_pimc_its_worlds_best():
    # hearts trumps, seat 0 to lead with 9H and AS; seat 1 holds JH and 7S. Leading 9H
    # first lets the defence win the JH trick but gives seat 0 the last trick (dix de der)
    # with AS; leading AS first hands the last trick and its 10 points to seat 1.
    c = BELOTE_DECK.card
    hands = [(1 << c("9H")) | (1 << c("AS")), (1 << c("JH")) | (1 << c("7S")),
             (1 << c("7D")) | (1 << c("8D")), (1 << c("7C")) | (1 << c("8C"))]
    st = coinche.CoincheState.from_play(hands, 1, 0, leader=0, points=(60, 80),
                                        tricks_won=(3, 3))
    values = dd.solve_cards(st)
    by_token = {st.move_token(m): r.value for m, r in values.items()}
    assert by_token["9H"] > by_token["AS"]
    assert st.move_token(OracleAgent(seed=1).choose(st, 0)) == "9H"
    # PIMC does not see that seat 1 holds JH; it plays the best card of its own worlds
    pimc = PimcAgent(seed=1, worlds=6)
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    move = pimc.choose(st, 0)
    pimc_again = PimcAgent(seed=1, worlds=6)
    own = pimc_again.card_values(st, 0, cards)
    assert own[move] == max(own.values())


def _match_position(players, index, moves):
    """Tarot deal ``index`` of strength.py's matches (seed 2026) after ``moves``."""
    from solver.games import get_game
    st = get_game("tarot").new_state(options={"players": players}, dealer=index % players,
                                     seed=2026 * 1_000_003 + index)
    for t in moves.split():
        st.play(next(m for m in st.legal_moves() if st.move_token(m) == t))
    return st


def _values_by_token(agent, st):
    return {st.move_token(m): r.value
            for m, r in agent.solve_cards(st, agent.horizon_for(st)).items()}


def test_oracle_breaks_ties_with_the_heuristic_card():
    # Tarot 3p, match deal 55 of strength.py's oracle-pimc run: the defence leads T21
    # at trick 4; on the true deal T1 and EX are worth the same (the contract fails
    # against omniscient defence either way). The first legal card, T1, gave the Petit
    # away; pimc played EX and made the contract. Ties now go to the heuristic's card.
    from solver.heuristic import HeuristicAgent
    st = _match_position(3, 55, "prise pass pass discard:QD discard:NH discard:JC "
                         "discard:7C discard:4C discard:3C no_chelem KS 2S 4S KD 1D 3D "
                         "JS 6S QS T21")
    oracle = OracleAgent(seed=5, horizon=2)   # the horizon it searched at then
    by_token = _values_by_token(oracle, st)
    assert by_token["T1"] == by_token["EX"] == max(by_token.values())   # attack: max
    assert st.move_token(HeuristicAgent(seed=5).choose(st, st.to_act)) == "EX"
    assert st.move_token(oracle.choose(st, st.to_act)) == "EX"


def test_oracle_searches_a_trick_deeper_than_pimc():
    # Tarot 4p, match deal 7, trick 3, the taker to lead: at PIMC's horizon (1 trick)
    # leading T1 is strictly best on the true deal (the static evaluation counts the
    # Petit as lost to the hunt anyway), and the oracle led it. It now searches a trick
    # deeper with a larger node budget: there every trump is worth the same and the
    # heuristic's T2 breaks the tie.
    from solver.dd import tarot as ddt
    st = _match_position(4, 7, "prise pass pass pass discard:QC discard:6C discard:4C "
                         "discard:ND discard:9D discard:6D no_chelem T21 EX T3 T5 KS 5S "
                         "1S 3S")
    assert ddt.default_horizon(st) == 1
    one = _values_by_token(OracleAgent(seed=1, horizon=1), st)
    assert one["T1"] > max(v for k, v in one.items() if k != "T1")
    oracle = OracleAgent(seed=1)
    assert oracle.horizon_for(st) == 2
    assert oracle.solve_cards_at(st, 2)[1] == 2          # within the oracle's budget
    assert st.move_token(oracle.choose(st, st.to_act)) == "T2"


@pytest.mark.parametrize("spec", ["pimc:horizon=0", "pimc:horizon=-2", "pimc:horizon=soon",
                                  "oracle:horizon=1.5"])
def test_bad_horizon_is_a_clear_option_error(spec):
    from solver.agents import make_agent
    from solver.errors import OptionError
    with pytest.raises(OptionError, match="horizon"):
        make_agent(spec)


def test_tarot_fitted_evaluation_is_a_tarot_option():
    """``pimc:evaluation=fit``: the horizon's fitted static evaluation (issue 28), a
    Tarot option: refused elsewhere and for an unknown evaluation; at a first lead it
    gives other world values than the built one."""
    from solver.agents import make_agent
    from solver.errors import OptionError
    with pytest.raises(OptionError, match="evaluation"):
        make_agent("pimc:evaluation=fit", game="coinche")
    with pytest.raises(OptionError, match="evaluation"):
        make_agent("pimc:evaluation=learned", game="tarot")
    st = _first_lead("tarot", {"players": 4}, seed=3)
    seat = st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    built = PimcAgent(seed=1, worlds=3).card_values(st, seat, cards)
    fit = make_agent("pimc:worlds=3,evaluation=fit", seed=1, game="tarot")
    assert fit.card_values(st, seat, cards) != built


def test_fitted_evaluation_is_refused_outside_tarot_without_a_spec():
    """Agents built without a spec check (``PimcAgent(...)``/``OracleAgent(...)``
    directly) refuse ``evaluation=fit`` outside Tarot when their search would use it,
    by the same rule as the spec (GAME_SPECIFIC)."""
    from solver.errors import OptionError
    from solver.pimc import OracleAgent
    st = _first_lead("tarocchini", {"game": "terziglio"}, seed=3)
    seat = st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    with pytest.raises(OptionError, match="option 'evaluation' means nothing in tarocchini"):
        PimcAgent(seed=1, worlds=2, evaluation="fit").card_values(st, seat, cards)
    st = _first_lead("coinche", {}, seed=3)
    with pytest.raises(OptionError, match="option 'evaluation' means nothing in coinche"):
        OracleAgent(seed=1, evaluation="fit").choose(st, st.to_act)


def _tricks_before_the_end(st, left):
    """``st`` played on by the heuristic player until ``left`` tricks remain."""
    from solver.dd.tarot import tricks_left
    from solver.heuristic import HeuristicAgent
    st = st.copy()
    player = HeuristicAgent(seed=7)
    while tricks_left(st) > left or st.trick:
        st.play(player.choose(st, st.to_act))
    return st


def test_tarot_worlds_in_the_relaxed_game_where_asked():
    """``pimc:relaxed=K`` (Tarot): where a world would be searched with a horizon and
    at most K tricks are left, it is searched to the end in R_DD instead (RELAXED:
    ``dd.tarot.solve_cards(relaxed=True)``, each card's value a lower bound of its
    real T); where the exact search reaches (8 tricks left in 4p), or a horizon is
    given, that wins; a world over the node budget falls back to the game's horizon;
    the option means nothing outside Tarot."""
    from solver.agents import make_agent
    from solver.dd import tarot as ddt
    from solver.errors import OptionError
    from solver.pimc import RELAXED
    st = _tricks_before_the_end(_first_lead("tarot", {"players": 4}, seed=3), 9)
    seat = st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    assert len(cards) > 1
    assert PimcAgent(seed=1, relaxed=9).horizon_for(st) == RELAXED
    assert PimcAgent(seed=1, relaxed=8).horizon_for(st) == ddt.default_horizon(st) == 3
    assert PimcAgent(seed=1).horizon_for(st) == 3
    assert PimcAgent(seed=1, relaxed=12, horizon=2).horizon_for(st) == 2
    later = _tricks_before_the_end(st, 8)
    assert PimcAgent(seed=1, relaxed=12).horizon_for(later) is None   # exact reaches
    agent = PimcAgent(seed=1, worlds=3, relaxed=12)
    values = agent.card_values(st, seat, cards)
    assert values is not None and agent.last_stats["horizon"] == RELAXED
    assert agent.last_stats["worlds"] == 3 and "horizons" not in agent.last_stats
    # one world: the agent's values are R_DD's, at most the real game's
    world = st.copy()
    got = agent.solve_cards(world, RELAXED)
    real = ddt.solve_cards(world)
    assert {m: r.value for m, r in got.items()} == \
        {m: r.value for m, r in ddt.solve_cards(world, relaxed=True).items()}
    assert all(got[m].value <= real[m].value for m in real)
    # over the node budget: the game's own horizon (3 here), then shorter ones
    tight = PimcAgent(seed=1, worlds=3, relaxed=12, node_budget=3000)
    assert tight.card_values(st, seat, cards) is not None
    assert tight.last_stats["horizon"] == RELAXED and tight.last_stats["worlds"] == 3
    assert RELAXED not in tight.last_stats["horizons"]
    assert all(isinstance(h, int) for h in tight.last_stats["horizons"])
    for spec in ("pimc:relaxed=-1", "pimc:relaxed=yes", "oracle:relaxed=1.5"):
        with pytest.raises(OptionError, match="relaxed"):
            make_agent(spec, game="tarot")
    with pytest.raises(OptionError, match="option 'relaxed' means nothing in coinche"):
        make_agent("pimc:relaxed=10", game="coinche")
    terziglio = _first_lead("tarocchini", {"game": "terziglio"}, seed=3)
    with pytest.raises(OptionError, match="option 'relaxed' means nothing in tarocchini"):
        PimcAgent(seed=1, worlds=2, relaxed=10).card_values(
            terziglio, terziglio.to_act,
            [m for m in terziglio.legal_moves() if m.kind == "card"])


def test_belote_worlds_are_always_solved_to_the_end():
    # only games whose dd module has default_horizon truncate the search
    state = coinche.new_state(seed=5)
    for horizon in ("auto", "exact", 3):
        assert PimcAgent(seed=1, worlds=2, horizon=horizon).horizon_for(state) is None


def _first_lead(game, options, seed):
    """The state at the first card decision (with a choice) after heuristic bidding."""
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent
    for s in range(seed, seed + 50):   # skip deals that everybody passes
        st = get_game(game).new_state(options=options, dealer=0, seed=s)
        bidder = HeuristicAgent(seed=s)
        while not st.is_over():
            legal = st.legal_moves()
            if len(legal) > 1 and all(m.kind == "card" for m in legal):
                return st
            seat = st.to_act() if callable(st.to_act) else st.to_act
            st.play(bidder.choose(st, seat))
    raise AssertionError("no deal reached card play")


@pytest.mark.parametrize("game,options", [("tarot", {"players": 4}),
                                          ("tarocchini", {"game": "terziglio"})])
def test_early_tarot_and_tarocchini_decisions_use_the_horizon_search(game, options):
    # at the first lead the exact search is out of reach: every world is solved by the
    # horizon search instead of being dropped for the heuristic
    st = _first_lead(game, options, seed=3)
    seat = st.to_act() if callable(st.to_act) else st.to_act
    agent = PimcAgent(seed=1, worlds=4)
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    values = agent.card_values(st, seat, cards)
    assert values is not None and set(values) == set(cards)
    assert agent.last_stats["worlds"] == 4 and agent.last_stats["skipped"] == 0
    assert isinstance(agent.last_stats["horizon"], int) and agent.last_stats["horizon"] >= 1
    # 'exact' keeps the old behaviour: worlds over the node budget are dropped
    exact = PimcAgent(seed=1, worlds=4, horizon="exact", node_budget=1000)
    assert exact.card_values(st, seat, cards) is None
    assert exact.last_stats["skipped"] > 0 and exact.last_stats["horizon"] is None


def test_a_world_over_budget_is_searched_again_with_a_shorter_horizon():
    st = _first_lead("tarot", {"players": 4}, seed=4)
    seat = st.to_act() if callable(st.to_act) else st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    # at this first lead horizon 3 costs ~3M nodes, horizon 2 ~1M, horizon 1 ~40k
    agent = PimcAgent(seed=2, worlds=2, horizon=3, node_budget=100_000)
    values = agent.card_values(st, seat, cards)
    assert values is not None and agent.last_stats["worlds"] == 2


def test_the_start_horizon_follows_the_worlds_that_fell_back():
    from solver.pimc import _start_horizon
    assert _start_horizon(4, [4, 4, 3, 4]) == 4          # most solved at 4: keep it
    assert _start_horizon(4, [2, 3, 2, 2, 4]) == 2       # most fell back: their median
    assert _start_horizon(None, [3, 3, None, 2]) == 3    # from the exact search
    assert _start_horizon(3, [1, 1, 2]) == 1
    assert _start_horizon(None, []) is None


def test_worlds_start_at_the_horizon_most_worlds_fell_back_to():
    # at this first lead horizon 3 costs ~3M nodes, horizon 2 ~1M, horizon 1 ~40k: with
    # a 100k budget every world falls back to 1, and after the first batch of worlds
    # the others start there (a search over the budget costs as much as a solved one)
    from solver.pimc import PRUNE_BATCH
    st = _first_lead("tarot", {"players": 4}, seed=4)
    seat = st.to_act() if callable(st.to_act) else st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    runs = []
    for threads in (1, 2):
        agent = PimcAgent(seed=2, worlds=25, horizon=3, node_budget=100_000,
                          threads=threads)
        tried = []
        search = agent._solve_cards

        def record(state, horizon, only=None, search=search, tried=tried):
            tried.append(horizon)
            return search(state, horizon, only)

        agent._solve_cards = record
        values = agent.card_values(st, seat, cards)
        stats = {k: v for k, v in agent.last_stats.items() if k != "time"}
        runs.append((values, stats, sorted(tried)))
    assert runs[0] == runs[1]   # the same with two threads
    values, stats, tried = runs[0]
    assert values is not None and stats["horizon"] == 3
    searched = stats["worlds"] + stats["skipped"]
    assert stats["horizons"] == {1: searched} and searched > PRUNE_BATCH
    # the first batch tried 3, 2 and 1 in every world, the others 1 only
    assert tried == [1] * searched + [2] * PRUNE_BATCH + [3] * PRUNE_BATCH


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_worlds_solved_from_their_hands_equal_the_world_states(game):
    # PIMC solves Belote/Coinche worlds from the drawn hands (dd.belote.world_card_solver)
    # instead of building world states: the values must be those of the world states
    import random

    from solver import constraints
    from solver.dd import belote as ddb
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent

    rng = random.Random(7)
    checked = 0
    for deal in range(12):
        st = get_game(game).new_state(dealer=deal % 4, seed=100 + deal)
        agent = HeuristicAgent(seed=deal)
        stop = rng.randrange(1, 29)
        while not st.is_over() and checked < 200:
            legal = st.legal_moves()
            if st.phase == "play" and len(st.history) and stop <= 0 and len(legal) > 1:
                seat = st.to_act
                solve = ddb.world_card_solver(st)
                _, make_world = constraints.game_functions(game)
                for h in constraints.sample_holdings(st, seat, 3, seed=deal):
                    want = ddb.solve_cards(make_world(st, seat, h))
                    got = solve(h[:4])
                    assert {m: r.value for m, r in got.items()} == \
                        {m: r.value for m, r in want.items()}
                    checked += 1
                stop = rng.randrange(3, 9)
            if st.phase == "play":
                stop -= 1
            st.play(agent.choose(st, st.to_act))
    assert checked >= 60


def test_world_card_solver_keeps_the_hand_of_the_seat_to_act():
    from solver.dd import belote as ddb
    from solver.errors import DealError

    st = _first_lead("coinche", {}, seed=2)
    solve = ddb.world_card_solver(st)
    hands = list(st.hands)
    me = st.to_act
    other = (me + 1) % 4
    a = hands[me] & -hands[me]            # swap one card of ours with another seat's
    b = hands[other] & -hands[other]
    hands[me], hands[other] = hands[me] ^ a ^ b, hands[other] ^ b ^ a
    with pytest.raises(DealError, match="hand of the seat to act"):
        solve(hands)
    assert set(solve(list(st.hands))) == {m for m in st.legal_moves() if m.kind == "card"}


def test_prune_drops_only_cards_clearly_worse_than_the_best():
    from solver.games.base import Move
    from solver.pimc import PRUNE_Z, _prune

    best, close, worse, noisy, steady = (Move("card", c) for c in range(5))
    rows = []
    for i in range(30):
        rows.append({best: 10.0, close: 10.0 + (4 if i % 2 else -5),  # -0.5 on average
                     worse: 2.0 + (i % 3),                   # worse by ~7, steadily
                     noisy: 10.0 + (25 if i % 3 == 0 else -15),   # -1.7 on average
                     steady: 10.0 - 0.5})                 # -0.5 in every world
    totals = {m: sum(r[m] for r in rows) for m in rows[0]}
    keep = _prune([best, close, worse, noisy, steady], totals, rows)
    assert keep == [best, close, noisy]
    assert PRUNE_Z >= 3   # a card is dropped only on a gap of 3 standard errors


def test_pruned_pimc_solves_its_candidates_in_every_world():
    """Successive elimination: the cards kept are solved in every world, so their
    means are those of the full evaluation (until one card is left, which ends the
    decision), and the choice is among them; prune=0 is the full evaluation."""
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent

    pruned_any = 0
    for seed in range(4):
        st = get_game("coinche").new_state(dealer=seed, seed=20 + seed)
        h = HeuristicAgent(seed=seed)
        while st.phase != "play" or any(m.kind != "card" for m in st.legal_moves()):
            st.play(h.choose(st, st.to_act))
        seat = st.to_act
        cards = [m for m in st.legal_moves() if m.kind == "card"]
        full = PimcAgent(seed=seed, worlds=40, prune=0).card_values(st, seat, cards)
        agent = PimcAgent(seed=seed, worlds=40)
        some = agent.card_values(st, seat, cards)
        kept = agent.last_candidates
        assert len(kept) + agent.last_stats["pruned"] == len(cards)
        if len(kept) > 1:
            assert all(some[m] == pytest.approx(full[m]) for m in kept)
        else:   # one card left: the decision is made, the worlds left are not solved
            assert agent.last_stats["worlds"] < 40
        # the full evaluation's best card was never dropped on these deals
        assert max(cards, key=lambda m: full[m]) in kept
        pruned_any += agent.last_stats["pruned"]
    assert pruned_any > 0


@pytest.mark.parametrize("game,options", [("tarot", {"players": 4}), ("tarot", {"players": 3}),
                                          ("tarocchini", {"game": "terziglio"}),
                                          ("tarocchini", {"game": "ottocento"})])
def test_solve_cards_of_some_cards_equals_all_cards(game, options):
    """``only`` (PIMC's successive elimination) solves a subset of the legal cards:
    each card's value is the one the full search gives (to the end of the deal, or
    with the same horizon), and the other cards are left out."""
    import random

    from solver.games import get_game
    from solver.heuristic import HeuristicAgent

    rng = random.Random(3)
    checked = 0
    for deal in range(20):  # deals passed out are skipped (Tarot: all pass, TAROT-BID-3)
        if checked == 6:
            break
        st = get_game(game).new_state(options, dealer=deal % 3, seed=60 + deal)
        h = HeuristicAgent(seed=deal)
        while not st.is_over() and (st.phase != "play" or rng.random() < 0.9):
            st.play(h.choose(st, st.to_act))
        if st.is_over():
            continue
        horizon = None if st.hands[st.to_act].bit_count() <= 5 else 1
        full = dd.solve_cards(st, horizon=horizon)
        moves = sorted(full, key=repr)
        some = rng.sample(moves, max(1, len(moves) // 2))
        got = dd.solve_cards(st, horizon=horizon, only=some)
        cards = {m.value if m.kind == "card" else m.value[0] for m in some}
        assert {m for m in got} == {m for m in full if (m.value if m.kind == "card"
                                                        else m.value[0]) in cards}
        assert all(got[m].value == full[m].value for m in got)
        checked += 1
    assert checked >= 4


def test_terziglio_pimc_scores_the_settlement_where_worlds_are_exact():
    """TERZ-SCORE-2..5: late in a Terziglio deal (worlds searched to the end) a world's
    value is the settlement estimate (``dd.tarocchini.value_score``) with the margin
    breaking its ties; early (horizon search) and with ``objective=points`` it is the
    margin itself."""
    from solver import constraints
    from solver.dd import tarocchini as ddt
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent

    st = get_game("tarocchini").new_state({"game": "terziglio"}, dealer=0, seed=8)
    h = HeuristicAgent(seed=8)
    checked = set()
    while not st.is_over() and len(checked) < 2:
        cards = [m for m in st.legal_moves() if m.kind == "card"]
        if st.phase == "play" and len(cards) > 1:
            seat = st.to_act
            agent = PimcAgent(seed=0, worlds=4, prune=0)
            horizon = agent.horizon_for(st)
            stage = "exact" if horizon is None else "horizon"
            if stage not in checked:
                worlds = agent.draw_worlds(st, seat, 5)[0]
                _, make_world = constraints.game_functions("tarocchini")
                score = ddt.value_score(st)
                want = {"mean": {m: 0.0 for m in cards}, "points": {m: 0.0 for m in cards}}
                for w in worlds:
                    world = make_world(st, seat, w)
                    sign = 1 if world.side_of[seat] == 1 else -1
                    vals = agent.solve_cards(world, horizon)
                    for m in cards:
                        v = vals[m].value
                        settled = score(v) + v / 2000 if stage == "exact" else v
                        want["mean"][m] += sign * settled / 4
                        want["points"][m] += sign * v / 4
                for objective, expect in want.items():
                    a = PimcAgent(seed=0, worlds=4, prune=0, objective=objective)
                    a.draw_worlds = lambda state, s, seed, w=worlds: (w, None)
                    assert a.card_values(st, seat, cards) == pytest.approx(expect)
                checked.add(stage)
        st.play(h.choose(st, st.to_act))
    assert checked == {"exact", "horizon"}


def test_a_time_budget_bounds_the_drawing_of_worlds():
    """With ``seconds``, uniform worlds are drawn for at most half of it (checked every
    64 draws): a huge ``worlds`` no longer spends the budget in the sampler before a
    world is solved. The draws are those of ``sample_holdings``, in the same order."""
    st = coinche.new_state(seed=6, dealer=1)
    st = coinche.CoincheState.from_play(st.hands, 0, 0, dealer=1)
    seat = st.to_act
    free = PimcAgent(seed=0, worlds=200).draw_worlds(st, seat, 5)[0]
    assert free == constraints.sample_holdings(st, seat, 200, seed=5)
    rushed = PimcAgent(seed=0, worlds=10**6, seconds=1e-9).draw_worlds(st, seat, 5)[0]
    assert rushed == free[:63]   # the first check, after 63 draws, finds the time gone
    roomy = PimcAgent(seed=0, worlds=200, seconds=60).draw_worlds(st, seat, 5)[0]
    assert roomy == free


@pytest.mark.parametrize("game,options", [("coinche", {}), ("tarot", {"players": 4}),
                                          ("tarocchini", {"game": "terziglio"})])
def test_a_node_budget_stops_the_worlds_the_same_way_at_any_thread_count(game, options):
    """``nodes``: worlds are solved in sampling order until their searches have spent
    the budget (the crossing world counts); the result is that of the same agent with
    ``worlds`` cut to the worlds it used, and does not depend on the threads."""
    if game == "coinche":
        st = coinche.new_state(seed=6, dealer=1)
        st = coinche.CoincheState.from_play(st.hands, 0, 0, dealer=1)
    else:
        st = _first_lead(game, options, seed=3)
    seat = st.to_act() if callable(st.to_act) else st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    free = PimcAgent(seed=1, worlds=30, prune=False)
    free.card_values(st, seat, cards)
    per_world = free.last_stats["nodes"] / free.last_stats["worlds"]
    budget = int(4 * per_world)
    runs = []
    for threads in (1, 2):
        agent = PimcAgent(seed=1, worlds=30, prune=False, nodes=budget, threads=threads)
        values = agent.card_values(st, seat, cards)
        runs.append((values, {k: v for k, v in agent.last_stats.items() if k != "time"}))
    assert runs[0] == runs[1]
    values, stats = runs[0]
    assert 1 <= stats["worlds"] < 30 and stats["nodes"] >= budget
    # the values of an agent asked for just that many worlds (the same first draws)
    fewer = PimcAgent(seed=1, worlds=stats["worlds"], prune=False)
    assert fewer.card_values(st, seat, cards) == values
    # a budget never reached changes nothing
    roomy = PimcAgent(seed=1, worlds=30, prune=False, nodes=10**12)
    assert roomy.card_values(st, seat, cards) == PimcAgent(
        seed=1, worlds=30, prune=False).card_values(st, seat, cards)
    assert roomy.last_stats["worlds"] == free.last_stats["worlds"]


@pytest.mark.parametrize("bad", ["0", "-5", "1.5", "true", "x"])
def test_a_bad_node_budget_is_a_clear_option_error(bad):
    from solver.agents import make_agent
    from solver.errors import OptionError
    with pytest.raises(OptionError, match="nodes"):
        make_agent(f"pimc:nodes={bad}")
