"""What a decision other than a card cost, for the review of a played deal
(``solver.review``, issue 27): the auction (Coinche and Belote bids, Tarot bids and the
5-player call, Tarocchini monte votes and bids), the discards (the Tarot écart,
Tarocchini's talon or stock discards) and the declarations (Belote and Coinche
announces and an optional belote, the Tarot chelem, poignée and misère, Tarocchini
combinations).

Every such decision is priced like a bid: each candidate of the game's bid analysis
(``solver.bidding``; the choice made is added when it is not among them) is scored on
worlds consistent with what the seat knew (its view: the mean over ``worlds`` worlds)
and on the actual deal (DD), in the seat's own deal score (``UNITS``), with the same
play-out model in both, so a cost on the view and a cost on the cards compare:

* Coinche, Belote: the evaluators' DD play (exact) after the auction they model;
  announces and belote: the exact DD value of the card play (announces change no card,
  so every candidate shares it) scored with each candidate's announce settlement
  (BELOTE-ANN-5..8; the seats still to announce in the first trick announce as they
  did on the actual deal, every combination they hold in a world, as the heuristic
  player does);
* Tarot: the evaluator's play-out (heuristic opening, DD ending: an estimate, never
  exact) for bids, the call, the écart (TAROT-DOG-2), the chelem (TAROT-ANN-1/2) and
  the first-trick poignée / misère (TAROT-ANN-4..9, which change no card play);
* Tarocchini: the evaluator's play-out (heuristic decisions and opening, DD endgame).

A decision made of several moves (an écart, a discard, a declaration) is one row at
its first move (``tokens``: the record's moves it is made of; none when a seat that
could announce played its card instead).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .cards import bit_list, mask_of
from .errors import AtoutError
from .games.base import GameState, Move
from .notation import Record

# The unit of a non-card decision's cost (the bid analysis's score), per game/variant.
UNITS = {
    "coinche": "the seat's team's deal points minus the opponents'",
    "belote": "the seat's team's deal points minus the opponents'",
    "tarot": "the seat's own score for the deal (TAROT-SCORE-6: the 4-player taker "
             "3T, a defender -T)",
    "ottocento": "the seat's side's hand total minus the other side's (OTTO-SCORE-1)",
    "terziglio": "the seat's game points (TERZ-SCORE-3..6)",
}


@dataclass
class Call:
    """One decision that is not a card's: at position ``k``, by ``seat``; ``what``
    names its pricer, ``kind`` its review row kind (``bid``, ``discard``,
    ``declaration``); ``tokens``: the record's moves it is made of."""

    k: int
    seat: int
    what: str
    kind: str
    tokens: list[str]


def _run(record: Record, states: list[GameState], k: int, same) -> list[str]:
    """The record's moves from ``k`` on while ``same(state, move)`` holds."""
    j = k
    while j < len(record.moves) and same(states[j], states[j].parse_move(record.moves[j])):
        j += 1
    return list(record.moves[k:j])


def find_calls(record: Record, states: list[GameState], k: int,
               opened: set) -> list[Call]:
    """The non-card decisions that start at position ``k`` of the record (``states[k]``
    the state before move k). ``opened``: the announcement windows already reviewed,
    (seat, what), so that each seat's first-trick announcements make one row."""
    st = states[k]
    seat, phase, legal = st.to_act, st.phase, st.legal_moves()
    token = record.moves[k]
    game = record.game
    if len(legal) < 2:
        return []
    if phase in ("bid", "call", "monte"):
        return [Call(k, seat, "tarocchini" if game == "tarocchini" else "bid", "bid",
                     [token])]
    if phase == "callout":
        return [Call(k, seat, "callout", "bid", [token])]
    if game == "tarot":
        if phase == "ecart" and not st.ecart:  # TAROT-DOG-2: the whole écart, one row
            return [Call(k, seat, "ecart", "discard",
                         _run(record, states, k, lambda s, m: s.phase == "ecart"))]
        if phase == "chelem":
            return [Call(k, seat, "chelem", "declaration", [token])]
        if phase == "play" and (seat, "announce") not in opened and any(
                m.kind in ("poignee", "misere") for m in legal):
            opened.add((seat, "announce"))  # TAROT-ANN-5/9: at the seat's first turn
            return [Call(k, seat, "poignee", "declaration", _run(
                record, states, k, lambda s, m: s.to_act == seat
                and m.kind in ("poignee", "show", "misere")))]
        return []
    if game in ("belote", "coinche") and phase == "play":
        out = []
        if (seat, "announce") not in opened and any(m.kind == "announce" for m in legal):
            opened.add((seat, "announce"))  # BELOTE-ANN-5: before its first card
            out.append(Call(k, seat, "announce", "declaration", _run(
                record, states, k, lambda s, m: s.to_act == seat and m.kind == "announce")))
        move = st.parse_move(token)
        if move.kind in ("card", "belote") and Move("belote", move.value) in legal:
            out.append(Call(k, seat, "belote", "declaration", [token]))  # BELOTE-BR-2
        return out
    if game == "tarocchini":
        prev = states[k - 1] if k else None
        if phase == "discard" and (prev is None or prev.phase != "discard"):
            return [Call(k, seat, "tarocchini", "discard",
                         _run(record, states, k, lambda s, m: s.phase == "discard"))]
        if phase == "declare" and (prev is None or prev.phase != "declare"
                                   or prev.to_act != seat):
            return [Call(k, seat, "tarocchini", "declaration", _run(
                record, states, k, lambda s, m: s.phase == "declare" and s.to_act == seat))]
    return []


def costs(names: list[str], mine: str, view: dict[str, float] | None,
          actual: dict[str, float] | None, *, view_exact: bool, dd_exact: bool,
          worlds: int) -> dict[str, Any]:
    """A row's fields from each candidate's mean score on the seat's view and its
    score on the actual deal (the seat's gain, both): the best of each (on a tie the
    choice made, then the first candidate) and what the choice made cost against it."""
    def best(score: dict[str, float]) -> str:
        return max(names, key=lambda n: (score[n], n == mine, -names.index(n)))

    out: dict[str, Any] = {}
    if view is not None:
        top = best(view)
        out.update(view_best=top, view_cost=round(view[top] - view[mine], 2),
                   view_exact=view_exact)
    if actual is not None:
        top = best(actual)
        out.update(dd_best=top, dd_value=round(actual[mine], 2),
                   dd_best_value=round(actual[top], 2),
                   dd_cost=round(actual[top] - actual[mine], 2), dd_exact=dd_exact)
    out["worlds"] = worlds
    if len(names) == 1:
        out["note"] = "the only candidate: nothing to compare it with"
    return out


def _mean(rows: list[dict[str, float]], names: list[str]) -> dict[str, float]:
    return {n: sum(r[n] for r in rows) / len(rows) for n in names}


def price_call(call: Call, record: Record, states: list[GameState], worlds: int,
               seed: int) -> dict[str, Any]:
    """The row fields of one decision (``costs``, and ``move``: the name of the choice
    made); a decision that cannot be priced gets a ``note`` saying why."""
    try:
        return PRICERS[call.what](call, record, states, worlds, seed)
    except AtoutError as e:  # an evaluator refusing this position: say why
        return {"move": " ".join(call.tokens) or "no announcement",
                "note": f"not priced: {e}"}


# --- the auction (Coinche, Belote, Tarot) ---------------------------------------------

def _bid_evaluator(record: Record, state: GameState):
    """The bid analysis of the seat to act at this point of the auction, from its own
    view, as ``solver.bidding.<game>.decide`` builds it: (evaluator, context)."""
    from .bidding import Context

    seat = state.to_act
    if record.game == "coinche":
        from .bidding.coinche import CoincheEvaluator

        ctx = Context("coinche", bit_list(state.hands[seat]), seat, state.dealer,
                      dict(state.options), [state.move_token(m) for m in state.history])
        return CoincheEvaluator(ctx, read_partner=False), ctx
    if record.game == "belote":
        from .bidding.belote import BeloteEvaluator

        ctx = Context("belote", bit_list(state.hands[seat]), seat, state.dealer,
                      dict(state.options), [state.move_token(m) for m in state.history],
                      {"turned": state.turned})
        return BeloteEvaluator(ctx), ctx
    from .bidding.tarot import TarotEvaluator, _turn_of
    from .games import tarot as T

    obs = state.observation(seat)
    auction, only = [b for _, b in obs["auction"]], None
    if state.phase == "call":  # TAROT-CALL-1: evaluated as at the bid, contract fixed
        auction, only = auction[:_turn_of(obs)], obs["contract"]
    ctx = Context("tarot", bit_list(obs["hand"]), seat, obs["dealer"],
                  T.non_default_options(state.options), auction)
    ev = TarotEvaluator(ctx, chelem=False, only_contract=only)
    # the poignée and chelem are priced at their own decisions, later in the deal
    ev.drop_rows(lambda contract, called, extra: not extra)
    return ev, ctx


def _true_world(record: Record) -> Any:
    """The actual deal as a world of the game's bid evaluator."""
    if record.game == "belote":
        return record.deal
    hands = [mask_of(h) for h in record.deal.hands]
    if record.game == "tarot":
        return {"hands": hands, "dog": mask_of(record.deal.extras.get("dog", []))}
    return hands


def _price_bid(call: Call, record: Record, states: list[GameState], worlds: int,
               seed: int) -> dict[str, Any]:
    """A call of the auction: the bid analysis's mean of every candidate over
    ``worlds`` worlds consistent with what the seat heard, and its outcome on the
    actual deal. A 5-player Tarot bid is worth its best call (TAROT-CALL-1: chosen
    next), the call is worth its own row."""
    from .bidding import evaluate

    state = states[call.k]
    token = call.tokens[0]
    ev, ctx = _bid_evaluator(record, state)
    table = evaluate(ctx, samples=worlds, seed=seed, evaluator=ev)
    means = {r.option: r.mean for r in table.rows}
    actual = {n: o.score for n, o in ev.outcomes(_true_world(record), "dd").items()}
    mine, group, cands = _candidate(token), str, ev.candidates()
    if record.game == "tarot" and state.phase == "call":  # "garde KH": the card called
        mine = f"{state.contract} {state.deck.token(state.parse_move(token).value)}"
        cands = [n for n in cands if n.startswith(state.contract + " ")]
    elif record.game == "tarot":
        group = lambda name: name.split()[0]  # noqa: E731 - "garde KH" is a garde
    names: list[str] = []
    for n in cands:
        if group(n) not in names:
            names.append(group(n))
    if mine not in names:
        return {"move": token, "note": f"{token} is not among the bid analysis's "
                                       "candidates"}

    def by_group(score: dict[str, float]) -> dict[str, float]:
        return {g: max(v for n, v in score.items() if n in cands and group(n) == g)
                for g in names}

    return {"move": token} | costs(
        names, mine, by_group(means), by_group(actual), view_exact=False,
        # Tarot's play-out opens with the heuristic player: an estimate
        dd_exact=record.game != "tarot", worlds=table.samples)


def _candidate(token: str) -> str:
    """The evaluator's name of a call token (Coinche ``bid:110:H`` is ``110 H``)."""
    if token.startswith("bid:"):
        return " ".join(token.split(":")[1:])
    return token


# --- Tarot: the écart, the chelem, the poignée and misère ------------------------------

def _tarot_play(state: GameState):
    from .bidding.tarot import PlayOnly

    return PlayOnly(state.players, state.dealer, state.options)


def _partner(counts: dict[str, int]) -> int | None:
    return None if counts["partner"] < 0 else counts["partner"]


def _price_ecart(call: Call, record: Record, states: list[GameState], worlds: int,
                 seed: int) -> dict[str, Any]:
    """The écart (TAROT-DOG-1/2): the bid analysis's candidate écarts, and the one
    made, each played out (no chelem) on worlds of what the taker saw (his hand and
    the dog, TAROT-DOG-1) and on the actual deal; the taker's score."""
    from .bidding.tarot import ecart_candidates, ecart_plays, ecart_worlds, seat_score
    from .games import tarot as T

    st = states[call.k]
    taker, n = st.taker, st.players
    enlarged = st.hands[taker] | st.ecart
    cands = ecart_candidates(enlarged, T.DOG_SIZE[n])
    made = mask_of([st.parse_move(t).value for t in call.tokens])
    if made not in cands:
        cands.append(made)
    names = ["écart " + T.TAROT_DECK.format_cards(e) for e in cands]
    ev = _tarot_play(st)

    def scores(hands: list[int]) -> dict[str, float]:
        plays = ecart_plays(ev, enlarged, cands, hands, taker, st.called_card)
        return {name: seat_score(k, st.contract, taker, _partner(k), taker, st.options)
                for name, k in zip(names, plays, strict=True)}

    unknown = [c for c in range(78) if not enlarged >> c & 1]
    view = [scores(h) for h in ecart_worlds(unknown, n, taker, worlds, random.Random(seed))]
    mine = names[cands.index(made)]
    return {"move": mine} | costs(names, mine, _mean(view, names), scores(list(st.hands)),
                                  view_exact=False, dd_exact=False, worlds=worlds)


def _price_chelem(call: Call, record: Record, states: list[GameState], worlds: int,
                  seed: int) -> dict[str, Any]:
    """The chelem call (TAROT-ANN-1/2): the deal played out with and without it on
    worlds of what the taker saw (his hand and écart) and on the actual deal."""
    from .bidding.tarot import chelem_plays, chelem_worlds, seat_score

    st = states[call.k]
    taker, contract = st.taker, st.contract
    ev = _tarot_play(st)
    names = ["no_chelem", "chelem"]

    def scores(hands: list[int], pile: int) -> dict[str, float]:
        plain, chel = chelem_plays(ev, hands, pile, contract, taker, st.called_card)
        return {"no_chelem": seat_score(plain, contract, taker, _partner(plain), taker,
                                        st.options),
                "chelem": seat_score(chel, contract, taker, _partner(chel), taker,
                                     st.options, chelem=True)}

    view = [scores(h, p) for h, p in chelem_worlds(st.observation(taker), worlds,
                                                    random.Random(seed))]
    pile = st.ecart if contract in ("prise", "garde") else st.dog
    return {"move": call.tokens[0]} | costs(
        names, call.tokens[0], _mean(view, names), scores(list(st.hands), pile),
        view_exact=False, dd_exact=False, worlds=worlds)


def _price_poignee(call: Call, record: Record, states: list[GameState], worlds: int,
                   seed: int) -> dict[str, Any]:
    """A seat's first-trick announcements (TAROT-ANN-4..9): none, each poignée level
    it may show, each misère it may announce, and what it did. They change no card
    play here, so one play-out per world serves them all; the poignée bonus goes to the
    side that wins (TAROT-ANN-6), a misère earns its value from each other player."""
    from .bidding.tarot import play_position, seat_score
    from .constraints import sample_worlds
    from .games import tarot as T

    st = states[call.k]
    seat = call.seat
    legal = [st.move_token(m) for m in st.legal_moves() if m.kind in ("poignee", "misere")]
    mine = tuple(t for t in call.tokens if not t.startswith("show:"))
    sets = [(), *((t,) for t in legal)]
    if mine not in sets:
        sets.append(mine)
    names = [" ".join(s) or "no announcement" for s in sets]
    bonuses = st.options["poignee_bonuses"]
    before = sum(bonuses[T.POIGNEE_LEVELS.index(lv)] for _, lv, _ in st.poignees)
    ev = _tarot_play(st)

    def scores(w: GameState) -> dict[str, float]:
        counts = ev.play_state(play_position(w), "dd")
        out = {}
        for name, s in zip(names, sets, strict=True):
            h = sum(bonuses[T.POIGNEE_LEVELS.index(t.split(":")[1])]
                    for t in s if t.startswith("poignee:"))
            miseres = tuple(x for x, _, _ in w.miseres) + tuple(
                seat for t in s if t.startswith("misere:"))
            out[name] = seat_score(counts, w.contract, w.taker, w.partner, seat, w.options,
                                   poignee=before + h, chelem=w.chelem_announced,
                                   miseres=miseres)
        return out

    view = [scores(w) for w in sample_worlds(st, seat, worlds, seed)]
    name = names[sets.index(mine)]
    return {"move": name} | costs(names, name, _mean(view, names), scores(st),
                                  view_exact=False, dd_exact=False, worlds=worlds)


# --- Belote and Coinche: announces and the optional belote -----------------------------

def _all_announces(w: GameState, seat: int) -> list:
    """The announces of ``seat`` in ``w`` when it announces every combination it holds,
    as the heuristic player does (BELOTE-ANN-5, ``solver.heuristics.belote``)."""
    from .games.belote_common import Announce, available_announces

    exclusive = w.options["announce_card_reuse"] == "exclusive"
    seq_used = carre_used = 0
    out = []
    while True:
        avail = available_announces(w.start_hands[seat], seq_used, carre_used, exclusive,
                                    w.options["carre_100_ranks_value"])
        if not avail:
            return out
        kind, ident, cards, points = avail[0]
        out.append(Announce(seat, kind, ident, cards, points))
        if kind == "carre":
            carre_used |= cards
        else:
            seq_used |= cards


def _net(st: GameState, seat: int, later: list) -> float:
    """The seat's team's deal score minus the other team's when ``st`` is played out
    double-dummy (exact), the first trick's announces settled with those of ``later``
    seats added when the trick is still going on (BELOTE-ANN-6..8)."""
    from .dd import belote as ddb
    from .games.belote_common import announce_winner

    points = ddb.solve(st).value  # announces change no card: the score rises with it
    settle = None
    if st.options["announces"] and not st.tricks:
        settle = announce_winner(list(st.announces) + later, st.strain, st.first_leader,
                                 st.options["announce_compare"], st.options["announce_tie"])
    ex = ddb.deal_scorer(st, settle)(points, st.hands)["exact"]
    team = seat % 2
    return ex[team] - ex[1 - team]


def _later_seats(st: GameState, seat: int) -> list[int]:
    """The seats still to play in the first trick after ``seat``."""
    played = {s for s, _ in st.trick}
    return [s for s in range(4) if s != seat and s not in played]


def _price_table(call: Call, record: Record, states: list[GameState], worlds: int,
                 seed: int, plays: dict[str, list[str]], mine: str) -> dict[str, Any]:
    """Belote/Coinche: each candidate (``plays``: name -> the moves it makes) scored by
    ``_net`` on ``worlds`` worlds of the seat's view and on the actual deal (the later
    seats announcing as they did, ``_all_announces`` in a world)."""
    from .constraints import sample_worlds

    st, seat = states[call.k], call.seat
    names = list(plays)
    later = _later_seats(st, seat)
    # the actual later announces: those made by the end of the first trick
    end = next((s for s in states[call.k:] if s.tricks), states[-1])
    actual_later = [a for a in end.announces if a.seat in later]

    def scores(w: GameState, later_ann: list) -> dict[str, float]:
        out = {}
        for name in names:
            s = w.copy()
            for t in plays[name]:
                s.play(t)
            out[name] = _net(s, seat, later_ann)
        return out

    view = [scores(w, [a for s in later for a in _all_announces(w, s)])
            for w in sample_worlds(st, seat, worlds, seed)]
    return {"move": mine} | costs(names, mine, _mean(view, names), scores(st, actual_later),
                                  view_exact=True, dd_exact=True, worlds=worlds)


def _price_announce(call: Call, record: Record, states: list[GameState], worlds: int,
                    seed: int) -> dict[str, Any]:
    """The announces of a seat in the first trick (BELOTE-ANN-5: any subset of its
    combinations, or none): every subset, scored with the settlement it leads to
    (BELOTE-ANN-6..8: in a failed contract the attack's announces go to the
    defence, so announcing can cost)."""
    st = states[call.k]
    sets: list[tuple[str, ...]] = []

    def walk(s: GameState, chosen: tuple[str, ...]) -> None:
        sets.append(chosen)
        for m in s.legal_moves():
            tok = s.move_token(m)
            if m.kind == "announce" and (not chosen or tok > chosen[-1]):
                nxt = s.copy()
                nxt.play(m)
                walk(nxt, (*chosen, tok))

    walk(st, ())
    mine = tuple(call.tokens)
    if tuple(sorted(mine)) in sets:
        mine = tuple(sorted(mine))
    else:
        sets.append(mine)
    plays = {" ".join(s) or "no announce": list(s) for s in sets}
    return _price_table(call, record, states, worlds, seed, plays,
                        " ".join(mine) or "no announce")


def _price_belote(call: Call, record: Record, states: list[GameState], worlds: int,
                  seed: int) -> dict[str, Any]:
    """Saying belote or not with the first of the trump King and Queen (option
    ``belote_optional``, BELOTE-BR-2/3)."""
    st = states[call.k]
    card = st.deck.token(st.parse_move(call.tokens[0]).value)
    plays = {f"belote:{card}": [f"belote:{card}"], card: [card]}
    return _price_table(call, record, states, worlds, seed, plays, call.tokens[0])


# --- Tarocchini -------------------------------------------------------------------------

def _price_tarocchini(call: Call, record: Record, states: list[GameState], worlds: int,
                      seed: int) -> dict[str, Any]:
    """A monte vote, a bid, a discard or a declaration (TarocchiniEvaluator: its
    candidates, the choice made added, over worlds of the seat's view and on the
    actual deal's own state)."""
    from .bidding import Context, evaluate
    from .bidding.tarocchini import TarocchiniEvaluator, _auction_of
    from .games import tarocchini as T

    st, seat = states[call.k], call.seat
    obs = st.observation(seat)
    ctx = Context(T.NAME, bit_list(obs["hand"]), seat, st.dealer, dict(st.options),
                  _auction_of(st, seat))
    ev = TarocchiniEvaluator(ctx)
    moves = [st.parse_move(t) for t in call.tokens]
    if st.phase == "discard":
        mine = "discard " + T.DECK.format_cards(mask_of([m.value for m in moves]))
        if mine not in ev.candidates():
            ev.add_candidate(mine, moves)
    elif st.phase == "declare":
        made = {m for m in moves if m.kind != "declare_end"}
        mine = next((n for n in ev.candidates()
                     if set(ev.candidate_moves(n)) - {Move("declare_end")} == made), None)
        if mine is None:
            mine = " ".join(call.tokens)
            ev.add_candidate(mine, moves)
    else:
        mine = call.tokens[0]
    names = ev.candidates()
    table = evaluate(ctx, samples=worlds, seed=seed, evaluator=ev)
    actual = ev.outcomes_from(st.copy(), "dd", seed)
    return {"move": mine} | costs(
        names, mine, {r.option: r.mean for r in table.rows},
        {n: o.score for n, o in actual.items()}, view_exact=False, dd_exact=False,
        worlds=table.samples)


def _price_callout(call: Call, record: Record, states: list[GameState], worlds: int,
                   seed: int) -> dict[str, Any]:
    return {"move": call.tokens[0],
            "note": "a call-out ends the game at once (OTTO-SCORE-3): a decision of the "
                    "match, not of this deal's score"}


PRICERS = {"bid": _price_bid, "ecart": _price_ecart, "chelem": _price_chelem,
           "poignee": _price_poignee, "announce": _price_announce, "belote": _price_belote,
           "tarocchini": _price_tarocchini, "callout": _price_callout}
