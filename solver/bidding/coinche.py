"""Coinche bid analysis: P(make) and expected score of every strain x level, and the
call to make given the auction so far (bid, raise, pass, coinche, surcoinche).

Per world the seat's side is solved double-dummy (or played out by PIMC agents) once
per strain with the seat as taker and the eldest hand leading; every level of that
strain is then scored from the same card points with Coinche's own ``score_deal``
(COINCHE-MADE-1..3, COINCHE-SCORE-1..7). Scores are the seat's team's points minus
the opponents' (net), so bids, a pass over the standing contract and doubles compare
on one scale. A pass is scored by letting the heuristic bidder finish the auction in
each world (every seat, ours included), then playing the final contract (0 when all
pass). Simplifications, stated in the output: announces are not counted; a bid is
assumed to end the auction, not coinched.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import bit_list, mask_of
from ..dd import belote as ddb
from ..errors import AtoutError
from ..games import coinche as co
from ..games.belote_common import STRAIN_NAMES
from ..heuristics.belote import choose_call, strain_strength
from ..options import resolve
from . import Context, Outcome, calls_note, check_inputs, draw_matching, replay_auction

CAPOT_PTS = 252
# Worlds that follow the auction (solver.bidding.draw_matching): draws per seat to
# match its calls by rejection, then card swaps towards them (a jump bid of 120 is too
# rare for rejection alone), then swaps that keep them.
MODEL_TRIES = 200
REPAIR_STEPS = 400
MIX_STEPS = 20


def _bid_value(level: str) -> int:
    """The value of a candidate's level word (80..160, capot, generale)."""
    return {"capot": co.CAPOT, "generale": co.GENERALE}.get(level) or int(level)


def _strength_band(value: int) -> tuple[int, int]:
    """The ``strain_strength`` counts whose ``bid_level`` is ``value`` (80..160: three
    counts a step; 160 from 44; capot from 56)."""
    if value >= co.CAPOT:
        return 56, 10**6
    if value >= 160:
        return 44, 55
    lo = 20 + 3 * ((value - 80) // 10)
    return lo, lo + 2


class CoincheEvaluator:
    base_notes = ["DD mode assumes every hand is visible (optimistic for the side to play "
                  "well); announces not counted; bids assumed final and not coinched; "
                  "a pass is scored by letting the heuristic bidder finish the auction"]

    def __init__(self, ctx: Context, read_partner: bool = True):
        check_inputs(ctx)
        self.ctx = ctx
        self.opts = resolve(co.OPTIONS, ctx.options, "coinche")
        if len(ctx.hand) != 8 or len(set(ctx.hand)) != 8:
            raise AtoutError(f"a Coinche hand has 8 different cards, got {len(ctx.hand)}")
        if not 0 <= ctx.seat < 4 or not 0 <= ctx.dealer < 4:
            raise AtoutError("seat and dealer must be 0..3")
        self.hand = mask_of(ctx.hand)
        self.side = ctx.seat % 2
        self.leader = (ctx.dealer + 1) % 4
        self.strains = [0, 1, 2, 3] + ([4] if self.opts["allow_ta"] else []) + \
            ([5] if self.opts["allow_sa"] else [])
        self.values = co.bid_values(self.opts)
        # other seats' calls so far, with what they saw: worlds give each of those
        # seats a hand with which the heuristic bidder makes the same calls
        self._calls: dict[int, list[tuple[dict[str, Any], list, Any]]] = {}
        self.misfits = 0
        self._candidates: list[str] | None = None
        # score classes per (attack, contracts, belotes): see _classes
        self._class_cache: dict[tuple, bytes] = {}
        self.standing = self._replay_auction()
        # ``read_partner=False`` (the simulated bidder): the partner's calls say nothing
        # about its hand, as that partner is not the heuristic bidder the worlds model
        if not read_partner:
            self._calls.pop((ctx.seat + 2) % 4, None)
        # numeric candidate levels' minimum per strain (for the failing-strain probes)
        self.probe_first = True
        self.lowest_level: dict[int, int] = {}
        self.levels: dict[int, list[int]] = {}  # candidate bid values per strain
        for name in self.candidates():
            level, _, strain_tok = name.partition(" ")
            if strain_tok in STRAIN_NAMES:
                st = STRAIN_NAMES.index(strain_tok)
                self.levels.setdefault(st, []).append(_bid_value(level))
                if level.isdigit():
                    self.lowest_level[st] = min(self.lowest_level.get(st, 10**6), int(level))

    def _replay_auction(self) -> dict[str, Any] | None:
        """Validate the auction on a state holding our hand; return the standing
        contract (value, strain, taker, multiplier) or None."""
        rng = random.Random(0)
        world = self.sample(rng)
        st = co.new_state(options=self.ctx.options, dealer=self.ctx.dealer,
                          deal=co.Deal([sorted(bit_list(h)) for h in world], {}))
        replay_auction(st, self.ctx.auction, self.ctx.seat, self._calls)
        self.legal_calls = {st.move_token(m) for m in st.legal_moves()}
        best = getattr(st, "best_bid", None)
        if best is None:
            return _standing_from_tokens(self.ctx.auction, self.ctx.dealer)
        return best

    # --- the evaluator API -------------------------------------------------------
    def candidates(self) -> list[str]:
        if self._candidates is None:
            out = ["pass"]
            for v in self.values:
                for s in self.strains:
                    name = {co.CAPOT: "capot", co.GENERALE: "generale"}.get(v, str(v))
                    if f"bid:{name}:{STRAIN_NAMES[s]}" in self.legal_calls:
                        out.append(f"{name} {STRAIN_NAMES[s]}")
            out += [c for c in ("coinche", "surcoinche") if c in self.legal_calls]
            self._candidates = out
        return list(self._candidates)

    def _gap(self, seat: int, cards: list[int]) -> int:
        """How far ``cards`` are from a hand with which the heuristic bidder at
        ``seat`` makes the calls ``seat`` made (COINCHE-BID-2..5: a bid, a pass, a
        coinche say something about the hand): 0 when it makes them all, else 1000 per
        call missed plus, as a guide for the repair swaps, how far the count of a
        missed bid's strain is from the band that bids its level (``bid_level``)."""
        hand = mask_of(cards)
        missed = dist = 0
        best = None  # the hand's best strain count, computed at the first missed call
        for obs, legal, move in self._calls[seat]:
            chosen = choose_call(obs | {"hand": hand}, legal)
            if chosen == move:
                continue
            missed += 1
            if best is None:
                best = max(strain_strength(hand, st) for st in self.strains)
            if move.kind == "bid":
                value, strain = move.value
                x = strain_strength(hand, strain)
                lo, hi = _strength_band(value)
                dist += max(0, lo - x) + max(0, x - hi)
                dist += max(0, best - x)  # the bid strain must be the best
            elif chosen.kind == "bid":  # a pass or a double: too strong a hand
                dist += max(0, best - 19)
        return 1000 * missed + dist

    def sample(self, rng: random.Random) -> list[int]:
        """One world: the 24 unseen cards dealt uniformly, except that each other seat
        that has called gets a hand with which the heuristic bidder makes the same
        calls (drawn seat by seat by ``draw_matching``; a seat that no draw fits keeps
        the closest hand found, counted in the notes)."""
        pool = [c for c in range(32) if not self.hand >> c & 1]
        rng.shuffle(pool)
        hands = [0, 0, 0, 0]
        hands[self.ctx.seat] = self.hand
        for seat in sorted(self._calls):
            part, pool, ok = draw_matching(pool, 8, lambda cards, s=seat: self._gap(s, cards),
                                           rng, MODEL_TRIES, REPAIR_STEPS, MIX_STEPS)
            self.misfits += not ok
            hands[seat] = mask_of(part)
        k = 0
        for seat in range(4):
            if not hands[seat]:
                hands[seat] = mask_of(pool[k:k + 8])
                k += 8
        return hands

    @property
    def notes(self) -> list[str]:
        out = list(self.base_notes)
        if self._calls:
            out.append(calls_note(self.misfits,
                                  f"{MODEL_TRIES} draws and {REPAIR_STEPS} swaps"))
        return out

    def _points(self, hands: list[int], strain: int, taker: int, mode: str,
                need: int | None = None, classes: bytes | None = None,
                memo: dict | None = None) -> dict[str, Any]:
        """Attack card points (252 capot) and générale for ``taker`` in ``strain``, known
        up to ``classes`` (``_classes``; None: exact): ``points`` is then the lowest
        count of its class, which scores the same for the contracts the classes were
        built for (a doubled contract needs one or two probes: made or not).

        ``need``: the fewest points that make any candidate of this strain. When one
        null-window probe shows the attack stays below it, every candidate fails and
        its score no longer depends on the exact points, only on whether they are 0
        (a defence capot): a second probe tells, and a representative value is returned
        (most strains of a hand are hopeless: a probe costs a few hundred nodes, the
        exact value tens of thousands).

        ``memo`` (one world's): a result found before for this strain and taker answers
        when what it knows is at least as fine as ``classes``."""
        entries = memo.setdefault((strain, taker), []) if memo is not None else []
        for known, result in entries:
            if _answers(known, result["points"], classes):
                return result
        known, result = self._search_points(hands, strain, taker, mode, need, classes)
        entries.append((known, result))
        return result

    def _search_points(self, hands: list[int], strain: int, taker: int, mode: str,
                       need: int | None, classes: bytes | None
                       ) -> tuple[bytes | None, dict[str, Any]]:
        """(what the result knows, as classes or None for exact; the result)."""
        if mode != "dd":
            return None, self._playout(hands, strain, taker)
        rules, _ = ddb._play_rules("coinche", self.ctx.options, strain)
        pos = ddb.make_position(hands, leader=self.leader, taker=taker)
        s = ddb._load(pos, rules, ddb.DEFAULT_TT_BITS)
        if need is not None and self.probe_first:
            g, _n, complete = s.probe(need)
            if complete and g < need:  # fail-soft: value <= g < need
                if g < 1:
                    return None, {"points": 0, "generale": False}
                g1, _n, complete = s.probe(1)
                if complete:
                    if g1 < 1:
                        return None, {"points": 0, "generale": False}
                    # known: 1..need-1, one class
                    below = bytes([0] + [1] * (need - 1)) + bytes(range(2, CAPOT_PTS + 3 - need))
                    return below, {"points": need - 1, "generale": False}
        pts = s.solve(-1, 0, 0.0, classes)[0]
        gen = False
        # générale (the taker alone wins all 8 tricks) implies a capot: only then search
        if self.opts["allow_generale"] and pts == CAPOT_PTS:
            ok, _n, complete = s.generale(0, 0.0)
            gen = bool(ok) if complete else False
        return classes, {"points": pts, "generale": gen}

    def _classes(self, hands: list[int], strain: int, attack: int,
                 contracts: tuple[tuple[int, int], ...]) -> bytes:
        """Score classes of the final points 0..252 (``DDSolver.solve``) for the
        contracts (value, multiplier) in ``strain`` by ``attack``: a class is a run of
        point counts that score the same in every one of them (a failed doubled
        contract is one class, a made one another). A capot (252) and a defence capot
        (0) are always classes of their own, so a générale, which the points alone do
        not score, is searched whenever the attack takes every trick."""
        bel = self._belotes(hands, strain)
        key = (attack, contracts, tuple(bel))   # the strain counts only through them
        out = self._class_cache.get(key)
        if out is None:
            def scores(points: int) -> tuple[float, ...]:
                e = {"points": points, "generale": False}
                return tuple(self._score_with(e, value, attack, mult, bel)[0]
                             for value, mult in contracts)

            out = self._class_cache[key] = ddb.score_classes(scores, CAPOT_PTS,
                                                             ends_apart=True)
        return out

    def _playout(self, hands: list[int], strain: int, taker: int) -> dict[str, Any]:
        from ..pimc import PimcAgent

        st = co.CoincheState.from_play(hands, strain, taker, dealer=self.ctx.dealer,
                                       options=self.ctx.options, leader=self.leader)
        agents = [PimcAgent(seed=seat, worlds=self.ctx.pimc_worlds) for seat in range(4)]
        tricks_by = [0, 0, 0, 0]
        while not st.is_over():
            seat = st.to_act
            before = len(st.tricks)
            st.play(agents[seat].choose(st, seat))
            if len(st.tricks) > before:
                tricks_by[st.tricks[-1][1]] += 1
        attack = taker % 2
        pts = st.points[attack]
        if st.tricks_won[attack] == 8:
            pts = CAPOT_PTS
        return {"points": pts, "generale": tricks_by[taker] == 8}

    def _score(self, e: dict[str, Any], value: int, strain: int, attack: int, mult: int,
               hands: list[int]) -> tuple[float, bool]:
        """Net score of OUR side and whether the contract is made."""
        return self._score_with(e, value, attack, mult, self._belotes(hands, strain))

    def _belotes(self, hands: list[int], strain: int) -> list[int]:
        """The belote points of each team in ``strain`` (COINCHE-SCORE-6)."""
        return ddb.belote_bonus(hands, strain, self.opts["ta_belote"])

    def _score_with(self, e: dict[str, Any], value: int, attack: int, mult: int,
                    bel: list[int]) -> tuple[float, bool]:
        pts = e["points"]
        capot_team = attack if pts == CAPOT_PTS else (1 - attack if pts == 0 else None)
        cards = [0, 0]
        if capot_team is None:
            cards[attack], cards[1 - attack] = pts, 162 - pts
        else:
            cards[capot_team] = 162
        res = co.score_deal(value, attack, mult, cards, capot_team, bool(e["generale"]),
                            bel, None, 0, self.opts)
        ex = res["exact"]
        return ex[self.side] - ex[1 - self.side], res["made"]

    def _need(self, hands: list[int], strain: int) -> int | None:
        """Fewest attack card points (1..162) that make the lowest candidate bid of
        ``strain`` in this world (belotes count per the options), or None when no
        shortcut applies: the standing contract in this strain is ours (it may be made
        below the candidates), there is no candidate, or only a capot would make it.
        ``score_deal`` decides, so every option is honoured; made rises with points."""
        st = self.standing
        if st is not None and st["strain"] == strain and st["taker"] == self.ctx.seat:
            return None
        level = self.lowest_level.get(strain)
        if level is None:
            return None

        def made(points: int) -> bool:
            return self._score({"points": points, "generale": False}, level, strain,
                               self.side, 1, hands)[1]

        if not made(162):
            return None
        lo, hi = 1, 162  # made(hi) holds; find the least such point count
        while lo < hi:
            mid = (lo + hi) // 2
            if made(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def outcomes(self, hands: list[int], mode: str) -> dict[str, Outcome]:
        out: dict[str, Outcome] = {}
        memo: dict = {}  # this world's searches
        # our side's points per strain, as far as the candidate bids' scores need
        ours = {s: self._points(hands, s, self.ctx.seat, mode, self._need(hands, s),
                                self._classes(hands, s, self.side,
                                              tuple((v, 1) for v in self.levels.get(s, ()))),
                                memo)
                for s in self.strains}
        candidates = self.candidates()
        for name in candidates:
            if name in ("pass", "coinche", "surcoinche"):
                continue
            level, strain_tok = name.split()
            strain = STRAIN_NAMES.index(strain_tok)
            net, made = self._score(ours[strain], _bid_value(level), strain, self.side, 1,
                                    hands)
            out[name] = Outcome(net, made)
        out["pass"] = self._after_pass(hands, mode, memo)
        st = self.standing
        doubles = [(c, m) for c, m in (("coinche", 2), ("surcoinche", 4)) if c in candidates]
        if st is not None and doubles:
            value, strain, taker = st["value"], st["strain"], st["taker"]
            classes = self._classes(hands, strain, taker % 2,
                                    tuple((value, m) for _, m in doubles))
            e = self._points(hands, strain, taker, mode, classes=classes, memo=memo)
            for call, mult in doubles:
                net, made = self._score(e, value, strain, taker % 2, mult, hands)
                # a coinche wins when their contract fails, a surcoinche when ours makes
                out[call] = Outcome(net, not made if call == "coinche" else made)
        return out

    def _after_pass(self, hands: list[int], mode: str, memo: dict) -> Outcome:
        """A pass, scored by letting the heuristic bidder finish the auction in this
        world at every seat (ours included: the worlds already give the others hands
        that fit their calls), then playing the final contract; all four passing
        annuls the deal (COINCHE-BID-4: 0). ``made``: the outcome is good for us (our
        contract made or theirs failed)."""
        st = co.new_state(options=self.ctx.options, dealer=self.ctx.dealer,
                          deal=co.Deal([sorted(bit_list(h)) for h in hands], {}))
        replay_auction(st, self.ctx.auction, self.ctx.seat)
        st.play(st.parse_move("pass"))
        while st.phase == "bid":
            seat = st.to_act
            st.play(choose_call(st.observation(seat), st.legal_moves()))
        if st.contract is None:
            return Outcome(0.0, None)
        value, strain, taker = st.contract
        # our side's points in a strain do not depend on which of us is the taker
        # (same leader); only a générale is the taker's own
        if taker % 2 == self.side and (taker == self.ctx.seat or value != co.GENERALE):
            taker = self.ctx.seat
        classes = self._classes(hands, strain, taker % 2, ((value, st.multiplier),))
        e = self._points(hands, strain, taker, mode, classes=classes, memo=memo)
        net, made = self._score(e, value, strain, taker % 2, st.multiplier, hands)
        return Outcome(net, made if taker % 2 == self.side else not made)


def _answers(known: bytes | None, points: int, wanted: bytes | None) -> bool:
    """Whether a value known up to the classes ``known`` (None: exact), represented by
    ``points``, is known up to ``wanted``: ``wanted`` is constant on its class."""
    if known is None:
        return True
    if wanted is None:
        return False
    lo = hi = points
    while lo > 0 and known[lo - 1] == known[points]:
        lo -= 1
    while hi + 1 < len(known) and known[hi + 1] == known[points]:
        hi += 1
    return wanted[lo] == wanted[hi]


def _standing_from_tokens(auction: list[str], dealer: int) -> dict[str, Any] | None:
    """Standing contract from the auction tokens (COINCHE-BID-3..6)."""
    best = None
    mult = 1
    for i, tok in enumerate(auction):
        seat = (dealer + 1 + i) % 4
        if tok.startswith("bid:"):
            _, level, strain = tok.split(":")
            value = {"capot": co.CAPOT, "generale": co.GENERALE}.get(level) or int(level)
            best = {"value": value, "strain": STRAIN_NAMES.index(strain), "taker": seat,
                    "mult": 1}
            mult = 1
        elif tok == "coinche":
            mult = 2
        elif tok == "surcoinche":
            mult = 4
        if best is not None:
            best["mult"] = mult
    return best


def make_evaluator(ctx: Context) -> CoincheEvaluator:
    return CoincheEvaluator(ctx)


def decide(state: Any, seat: int, samples: int, seed: int,
           seconds: float | None = None):
    """The simulated call for ``seat`` during the auction (None outside it). A bid, a
    coinche and a surcoinche each need the worlds' floor (``cautious_choice``): a
    coinche wins when the opponents' contract fails in at least 90% of the DD worlds,
    a surcoinche when ours makes; only a pass is free, as DD worlds defend better than
    play does. Against free doubles: +3.9 [-2.6, +10.3] points a deal (440 duplicate
    deals, paired; not yet significant, benchmarks/RESULTS.md).

    The worlds follow the opponents' calls only (``read_partner``): the partner is
    itself a simulated bidder, and reading its calls as the heuristic bidder's made
    the partnership escalate (90 D, 100 D, 160 D: each raise was read as the heuristic
    bidder's support). Reading the opponents only: +14.8 [+6.7, +22.9] points a deal
    (1,000 duplicate deals, paired; benchmarks/RESULTS.md)."""
    from . import cautious_choice, evaluate

    if state.phase != "bid":
        return None
    hand = [c for c in range(32) if state.hands[seat] >> c & 1]
    auction = [state.move_token(m) for m in state.history]
    ctx = Context("coinche", hand, seat, state.dealer, dict(state.options), auction)
    ev = CoincheEvaluator(ctx, read_partner=False)
    best = cautious_choice(evaluate(ctx, samples=samples, seed=seed, seconds=seconds,
                                    evaluator=ev).rows, free=("pass",))
    if best == "pass" or best in ("coinche", "surcoinche"):
        return state.parse_move(best)
    level, strain = best.split()
    return state.parse_move(f"bid:{level}:{strain}")
