"""Tarocchini bid analysis: the Terziglio bid (pass / gioco / solo, the gioco with its
stock exchange), the discard of the stock or of the Ottocento dealer's talon, the
Ottocento *monte* vote and which combinations to declare.

What the seat knows is its hand at the moment of the decision and the public moves so
far (``ctx.auction``: the deal's move tokens — monte votes ``monte``/``play``, bids,
``discard:<card>`` for the seat's own discards or ``discard:?`` for another player's
unseen ones, ``decl:...`` tokens; under ``declarations=none_or_max`` another player's
``decl:max`` follows the ``decl:<family>:<cards>`` it showed). The moves are scanned
to find the decision (TERZ-BID-1, TERZ-BID-2, OTTO-DEAL-2, OTTO-DEAL-4, TAROC-DECL-1);
each world deals the unseen cards (declared cards stay with their declarer,
TAROC-DECL-1; a seat who bid or voted gets cards on which the heuristic player makes
the same call), replays the moves on that deal (a hidden discard is chosen by the
heuristic player), applies the candidate and finishes the deal:

* the other decisions (later bids, discards, declarations) are the heuristic player's;
* card play, ``mode='dd'``: the heuristic player for the first tricks, then the exact
  double-dummy value of the last ``ENDGAME_CARDS`` tricks (full-deal DD of 15 or 18
  tricks is far beyond the solver: > 50 M nodes without a result), so "dd" is
  optimistic only in the endgame; ``mode='pimc'``: the same opening, then PIMC agents
  (``solver.pimc.PimcAgent``, ``ctx.pimc_worlds`` worlds) who see only their own
  observation — declared cards are public to them, so the information a declaration
  gives away is priced in this mode only.

Scores are for the seat: Terziglio game points after settlement (TERZ-SCORE-3..6:
declarer ±2G, opponents ∓G); Ottocento the seat's side total minus the other side's
(OTTO-SCORE-1). A thrown-in deal (all pass, all monte) scores 0. ``made``: the
declarer won (TERZ-SCORE-2) for the seat's own contract, else "the seat's side came
out ahead"; None for a thrown-in deal.

DD bias (``benchmarks/bidding_tarocchini.py``, same worlds in both modes, the opening
being the same heuristic play): Terziglio bids, 12 hands x 10 worlds: dd - pimc =
-0.8 game points on average (solo -2.5, gioco -0.2, pass +0.3; mean |difference| 1.8;
P(make) -0.4 %), the same recommendation on 12/12 hands — perfect information in the
endgame helps the two defenders more than the declarer, so the dd mode is slightly
*pessimistic* for a contract. Ottocento declarations, 4 hands x 4 worlds: +7 net
points (mean |difference| 20, noisy), the same recommendation on 3/4 hands.

``decide(state, seat, budget)`` lets the PIMC agent take these decisions with a small
sample budget (``PimcAgent(bidding='sim')``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..cards import bit_list, mask_of
from ..dd import tarocchini as ddt
from ..errors import AtoutError
from ..games import tarocchini as T
from ..games.base import Move
from ..games.tarocchini_melds import (
    CONT_MASK,
    SEQUENCES,
    best_combinations,
    format_combination,
    unit_points,
)
from ..heuristics import tarocchini as H
from ..notation import Deal
from ..options import resolve
from . import Context, Outcome, check_inputs, evaluate

ENDGAME_CARDS = 6  # cards per hand from which the play is solved exactly (dd mode)
NODE_BUDGET = 3_000_000  # per endgame search; an unfinished search falls back to play
MAX_DISCARDS = 6  # candidate discard sets compared
MODEL_TRIES = 300  # draws per seat and world to match its bids and votes


def _fmt(mask: int) -> str:
    return T.DECK.format_cards(mask)


# --- scanning the moves so far -----------------------------------------------------------
@dataclass
class Scan:
    """Where the public moves leave the deal (computed without the cards)."""

    phase: str
    to_act: int
    round: int = 0  # monte round (OTTO-DEAL-4)
    declarer: int | None = None
    contract: str | None = None
    discarder: int | None = None
    own_discards: list[int] = field(default_factory=list)
    hidden_discards: int = 0
    declared: dict[int, int] = field(default_factory=dict)  # seat -> declared cards
    max_declared: dict[int, int] = field(default_factory=dict)  # seat -> its points
    my_decl: list[tuple[str, int]] = field(default_factory=list)


def scan(tokens: list[str], opts: dict[str, Any], dealer: int, seat: int) -> Scan:
    """Follow the deal's flow (TAROC-GEN-1, OTTO-DEAL-4, OTTO-SCORE-3, TERZ-BID-1/2,
    TAROC-DECL-1) through the tokens; raise AtoutError naming the first bad one."""
    otto = opts["game"] == "ottocento"
    n = 4 if otto else 3
    eldest = (dealer + 1) % n
    probe = T.TarocchiniState.__new__(T.TarocchiniState)  # only for parse_move
    out = Scan("", eldest)
    i = 0

    def bad(msg: str) -> AtoutError:
        if i >= len(tokens):
            return AtoutError(f"auction: after its {len(tokens)} move(s): {msg}")
        return AtoutError(f"auction move {i + 1} ({tokens[i]}): {msg}")

    def take(kinds: tuple[str, ...]) -> Move | None:
        nonlocal i
        if i >= len(tokens):
            return None
        tok = tokens[i]
        if tok == "discard:?":
            mv = Move("discard", None)
        else:
            try:
                mv = probe.parse_move(tok)
            except AtoutError as e:
                raise bad(str(e)) from None
        if mv.kind not in kinds:
            raise bad(f"expected a {' or '.join(kinds)} move here")
        i += 1
        return mv

    if otto:
        rounds = {"off": 0, "after_5": 1, "after_5_and_10": 2}[opts["monte"]]
        for r in range(rounds):
            votes = []
            for k in range(4):
                mv = take(("monte",))
                if mv is None:
                    out.phase, out.to_act, out.round = "monte", (eldest + k) % 4, r
                    return out
                votes.append(mv.value)
            if all(votes):
                raise bad("all four said monte: the deal was thrown in (OTTO-DEAL-4)")
        if i < len(tokens) and tokens[i] in ("callout", "take"):
            if tokens[i] == "callout":
                raise bad("the dealer called out: the game is over (OTTO-SCORE-3)")
            i += 1
        discarder, ndisc = dealer, 2
    else:
        bids = []
        for k in range(3):
            mv = take(("bid",))
            if mv is None:
                out.phase, out.to_act = "bid", (eldest + k) % 3
                return out
            if bids and T.BIDS.index(mv.value) <= max(T.BIDS.index(b) for b in bids) \
                    and mv.value != "pass":
                raise bad("a bid must be higher than the current one (TERZ-BID-1)")
            bids.append(mv.value)
        if all(b == "pass" for b in bids):
            raise bad("all passed: the deal was thrown in (TERZ-BID-1)")
        top = max(range(3), key=lambda k: T.BIDS.index(bids[k]))
        out.declarer, out.contract = (eldest + top) % 3, bids[top]
        discarder = out.declarer
        ndisc = 0 if out.contract == "solo" else (8 if opts["terziglio_deal"] == "18+8" else 5)
    out.discarder = discarder
    for _ in range(ndisc):
        mv = take(("discard",))
        if mv is None:
            out.phase, out.to_act = "discard", discarder
            return out
        if mv.value is None:
            if discarder == seat:
                raise bad("name your own discards (discard:<card>)")
            out.hidden_discards += 1
        elif discarder == seat:
            out.own_discards.append(mv.value)
        else:
            raise bad("another player's discard is unseen: write discard:?")
    decl_of: dict[int, list[tuple[str, int]]] = {}
    for k in range(n):
        s = (eldest + k) % n
        if s == seat:
            out.my_decl = []
        while True:
            mv = take(("declare", "declare_end", "declare_max"))
            if mv is None:
                out.phase, out.to_act = "declare", s
                return out
            if mv.kind == "declare_max":
                # TAROC-DECL-3 none_or_max: another player's best set, shown by the
                # decl:<family>:<cards> tokens listed before it
                if s != seat and opts["declarations"] == "none_or_max":
                    combos = decl_of.get(s, [])
                    if not combos:
                        raise bad("list the combinations shown (decl:<family>:<cards>) "
                                  "before another player's decl:max")
                    multi = bool(opts["contatore_multi_use"])
                    pts = unit_points(combos, multi)
                    shown = out.declared.get(s, 0)
                    best = best_combinations(shown, multi,
                                             int(opts["max_contatori_per_suit_sequence"]))[0]
                    if best > pts:
                        raise bad(f"a decl:max is the best set of the hand, but the cards "
                                  f"shown already make {best} points, not {pts}")
                    out.max_declared[s] = pts
                break
            if mv.kind == "declare_end":
                break
            out.declared[s] = out.declared.get(s, 0) | mv.value[1]
            decl_of.setdefault(s, []).append(mv.value)
            if s == seat:
                out.my_decl.append(mv.value)
    raise bad("the declarations are over: card play is analysed by `atout solve` and "
              "the pimc player, not by bid analysis")


# --- the evaluator --------------------------------------------------------------------
class TarocchiniEvaluator:
    """Candidates, worlds and outcomes of one Tarocchini decision (module docstring)."""

    def __init__(self, ctx: Context):
        check_inputs(ctx)
        self.ctx = ctx
        self.opts = resolve(T.OPTIONS, ctx.options, T.NAME)
        self.otto = self.opts["game"] == "ottocento"
        self.n = 4 if self.otto else 3
        if not 0 <= ctx.seat < self.n or not 0 <= ctx.dealer < self.n:
            raise AtoutError(f"seat and dealer must be 0..{self.n - 1}")
        hand = list(ctx.hand)
        if any(not isinstance(c, int) or not 0 <= c < 62 for c in hand):
            raise AtoutError("the hand holds cards that are not Tarocchini cards")
        if len(set(hand)) != len(hand):
            raise AtoutError("the hand lists a card twice")
        self.hand = mask_of(hand)
        self.scan = scan(list(ctx.auction), self.opts, ctx.dealer, ctx.seat)
        sc = self.scan
        if sc.to_act != ctx.seat:
            raise AtoutError(f"after these moves it is seat {sc.to_act}'s decision "
                             f"({sc.phase}), not seat {ctx.seat}'s")
        each = 15 if self.otto else (18 if self.opts["terziglio_deal"] == "18+8" else 19)
        self.stock_size = 2 if self.otto else 62 - 3 * each
        want = {"monte": 5 * (sc.round + 1), "bid": each,
                "discard": each + self.stock_size - len(sc.own_discards),
                "declare": each}[sc.phase]
        what = {"monte": "the packets dealt so far", "bid": "a dealt hand",
                "discard": "the hand with the " + ("talon" if self.otto else "stock"),
                "declare": "the hand after the exchange"}[sc.phase]
        if len(hand) != want:
            raise AtoutError(f"{self.opts['game']} {sc.phase}: {what} has {want} cards, "
                             f"got {len(hand)}")
        own = mask_of(sc.own_discards)
        if own & self.hand:
            raise AtoutError("a discarded card is also in the hand")
        for s, m in sc.declared.items():
            if s == ctx.seat and m & ~self.hand:
                raise AtoutError("the seat declared cards it does not hold")
            if s != ctx.seat and m & (self.hand | own):
                raise AtoutError(f"seat {s} declared a card of this hand")
        self.own_discards = own
        self.notes = [
            "dd: heuristic play, then exact DD of the last "
            f"{ENDGAME_CARDS} tricks (optimistic there); pimc: PIMC endgame; the other "
            "decisions (later bids, discards, declarations) are the heuristic player's",
            "worlds: the unseen cards uniformly; before the declarations a seat who bid or "
            "voted gets cards with which the heuristic player calls the same; declared "
            "cards stay with their declarer (nothing else follows from declarations)"]
        if self.otto:
            self.notes.append("Ottocento: this hand's net points; the match (running "
                              "totals, a call-out at the target) is not weighed")
        if sc.phase == "declare":
            self.notes.append("in dd mode a declaration gives nothing away (everyone "
                              "sees every card): compare declarations with --mode pimc")
        self._calls = self._other_calls()
        self._misfits = 0
        self._misfit_note: int | None = None
        if self._calls or sc.max_declared:
            self._misfit_note = len(self.notes)
            self.notes.append("others' bids/votes/best declarations: every world "
                              "matches them")
        self._cands = self._candidates()

    def _misfit(self, limit: str) -> None:
        """Count a world drawn without matching the others' calls or declarations."""
        self._misfits += 1
        if self._misfit_note is not None:
            self.notes[self._misfit_note] = (
                f"others' bids/votes/best declarations: {self._misfits} world(s) could "
                f"not match them ({limit})")

    # --- candidates ---------------------------------------------------------------
    def _candidates(self) -> dict[str, list[Move]]:
        sc = self.scan
        if sc.phase == "monte":
            return {"play": [Move("monte", False)], "monte": [Move("monte", True)]}
        if sc.phase == "bid":
            return {b: [Move("bid", b)] for b in self._legal_bids()}
        if sc.phase == "discard":  # the cards still to discard
            k = (2 if self.otto else self.stock_size) - len(sc.own_discards)
            return {"discard " + _fmt(m): [Move("discard", c) for c in bit_list(m)]
                    for m in discard_candidates(self.hand, k, self.opts)}
        return declaration_candidates(self.hand, self.opts, sc.my_decl)

    def _legal_bids(self) -> list[str]:
        made = [t for t in self.ctx.auction]
        top = max((T.BIDS.index(b) for b in made), default=0)
        return ["pass", *T.BIDS[top + 1:]]

    def candidates(self) -> list[str]:
        return list(self._cands)

    # --- worlds ---------------------------------------------------------------------
    def _other_calls(self) -> dict[int, list[tuple[str, list[Move], int]]]:
        """Per other seat, its bids / monte votes so far: (token, legal moves then,
        monte round). Only the bid, monte and discard decisions use them (later, the
        declared cards are the stronger information)."""
        out: dict[int, list[tuple[str, list[Move], int]]] = {}
        if self.scan.phase not in ("bid", "monte", "discard"):
            return out
        eldest = (self.ctx.dealer + 1) % self.n
        votes = [(True, "monte"), (False, "play")]
        top, k = 0, 0
        for tok in self.ctx.auction:
            if tok in ("monte", "play"):
                seat, legal, rnd = (eldest + k) % 4, [Move("monte", v) for v, _ in votes], k // 4
            elif tok in T.BIDS:
                seat, rnd = (eldest + k) % 3, 0
                legal = [Move("bid", "pass")] + [Move("bid", b) for b in T.BIDS[top + 1:]]
                top = max(top, T.BIDS.index(tok))
            else:
                break
            k += 1
            if seat != self.ctx.seat:
                out.setdefault(seat, []).append((tok, legal, rnd))
        return out

    def _fits(self, calls: list[tuple[str, list[Move], int]], cards: list[int]) -> bool:
        """Would the heuristic player, dealt ``cards`` in this order, have made ``calls``?"""
        for tok, legal, rnd in calls:
            if tok in T.BIDS:
                obs = {"hand": mask_of(cards), "options": self.opts}
                if H.choose_bid(obs, legal).value != tok:
                    return False
            else:
                obs = {"hand": mask_of(cards[:5 * (rnd + 1)]), "options": self.opts}
                if H.choose_monte(obs, legal).value != (tok == "monte"):
                    return False
        return True

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """One world: a full deal consistent with the seat's view, and a seed for the
        play of that world. The unseen cards are dealt uniformly, except that a seat who
        has already bid or voted gets cards with which the heuristic player makes the
        same calls (TERZ-BID-1, OTTO-DEAL-4; drawn seat by seat, up to ``MODEL_TRIES``
        draws each): a gioco or a solo before us says something about that hand."""
        sc, seat, n, dealer = self.scan, self.ctx.seat, self.n, self.ctx.dealer
        each = (62 - self.stock_size) // n
        cap = [each] * n  # cards held after the exchange (dealer/declarer: + stock)
        extra = -1  # holder of the stock/talon when nobody has taken it
        if self.otto:
            cap[dealer] += 2
        elif sc.declarer is not None and sc.contract == "gioco":
            cap[sc.declarer] += self.stock_size
        else:
            extra = n
            cap.append(self.stock_size)
        fixed = [0] * len(cap)
        fixed[seat] = self.hand | self.own_discards
        for s, m in sc.declared.items():
            fixed[s] |= m
        known = 0
        for m in fixed:
            known |= m
        pool = bit_list(((1 << 62) - 1) & ~known)
        rng.shuffle(pool)
        # cards listed first in a hand: the seat's own packets in the monte phase, the
        # packets / dealt hand that explain another seat's calls
        prefix: dict[int, list[int]] = {}
        if sc.phase == "monte":
            prefix[seat] = bit_list(self.hand)
        for s, calls in self._calls.items():
            size = each if not self.otto else 5 * (max(r for _, _, r in calls) + 1)
            part = pool[:size]
            for _ in range(MODEL_TRIES):
                if self._fits(calls, part):
                    break
                part = rng.sample(pool, size)
            else:
                self._misfit(f"{MODEL_TRIES} draws per seat")
            taken = set(part)
            pool = [c for c in pool if c not in taken]
            prefix[s] = part
        holdings = list(fixed)
        for s, part in prefix.items():
            holdings[s] |= mask_of(part)
        for s, points in sc.max_declared.items():
            # TAROC-DECL-3 none_or_max: his declaration was his best set, so his cards
            # must not make a better one (drawn card by card in the shuffled order)
            multi = bool(self.opts["contatore_multi_use"])
            maxc = int(self.opts["max_contatori_per_suit_sequence"])
            need = cap[s] - holdings[s].bit_count()
            part, held = [], holdings[s]
            for c in pool:  # one pass: add a card only if his best stays as declared
                if len(part) == need:
                    break
                if best_combinations(held | 1 << c, multi, maxc)[0] <= points:
                    part.append(c)
                    held |= 1 << c
            if len(part) < need:
                self._misfit("not enough cards left")
                part += [c for c in pool if c not in set(part)][:need - len(part)]
            holdings[s] |= mask_of(part)
            taken = set(part)
            pool = [c for c in pool if c not in taken]
        k = 0
        for h in range(len(cap)):
            need = cap[h] - holdings[h].bit_count()
            if need < 0:
                raise AtoutError(f"seat {h} declared more cards than it holds")
            holdings[h] |= mask_of(pool[k:k + need])
            k += need
        hands, extras = [], {}
        for s in range(n):
            first = prefix.get(s, [])
            hands.append(first + [c for c in bit_list(holdings[s]) if c not in set(first)])
        if self.otto:
            # the dealer's 2 last cards: two not in his first packets (OTTO-DEAL-1)
            extras["talon"] = hands[dealer][-2:]
            hands[dealer] = hands[dealer][:-2]
        elif extra >= 0:
            extras["stock"] = bit_list(holdings[extra])
        else:
            d = sc.declarer
            extras["stock"] = hands[d][-self.stock_size:]
            hands[d] = hands[d][:-self.stock_size]
        return {"deal": Deal(hands, extras), "seed": rng.randrange(1 << 30)}

    def _replay(self, world: dict[str, Any]) -> T.TarocchiniState:
        """The world's deal with the public moves replayed: the state of the decision."""
        st = T.new_state(self.opts, dealer=self.ctx.dealer, deal=world["deal"])
        rng = random.Random(world["seed"])
        reserved = 0
        for m in self.scan.declared.values():
            reserved |= m
        for i, tok in enumerate(self.ctx.auction, 1):
            if st.phase == "callout" and tok not in ("callout", "take"):
                st.play(Move("callout", False))  # this world's dealer could call out
            if tok == "take" and st.phase != "callout":
                continue  # OTTO-SCORE-3: offered only when he can reach the target
            if st.phase == "declare" and st.to_act in self.scan.max_declared \
                    and tok.startswith("decl:") and tok not in ("decl:max", "decl:done"):
                continue  # shown by his decl:max (TAROC-DECL-3), declared by it here
            if tok == "discard:?":
                mv = _heuristic_move(st, rng, avoid=reserved)
            else:
                mv = st.parse_move(tok)
            try:
                st.play(mv)
            except AtoutError as e:
                raise AtoutError(f"auction move {i} ({tok}): {e}") from None
        if st.phase == "callout" and self.scan.phase != "monte":
            st.play(Move("callout", False))  # the seat's 17 cards say the dealer took
        if st.is_over():
            raise AtoutError("the moves so far end the deal (a declaration reached the "
                             "target, OTTO-SCORE-3): nothing left to decide")
        st._undo_stack = []  # never undone: keeps the copies per candidate cheap
        return st

    def add_candidate(self, name: str, moves: list[Move]) -> None:
        """Compare one more decision (``moves`` from the seat's turn: e.g. the discard
        or declaration a played deal made, when it is not among the candidates)."""
        self._cands[name] = list(moves)

    def candidate_moves(self, name: str) -> list[Move]:
        return list(self._cands[name])

    def outcomes(self, world: dict[str, Any], mode: str) -> dict[str, Outcome]:
        return self.outcomes_from(self._replay(world), mode, world["seed"])

    def outcomes_from(self, base: T.TarocchiniState, mode: str,
                      seed: int) -> dict[str, Outcome]:
        """Every candidate's outcome from ``base``, a state at the decision (a world's
        replay, or a played deal's own state: its DD outcomes on the actual cards)."""
        out = {}
        for name, moves in self._cands.items():
            st = base.copy()
            for mv in moves:
                st.play(mv)
            if st.phase == "declare" and self.scan.phase == "declare" \
                    and st.to_act == self.ctx.seat:
                st.play(Move("declare_end"))
            value = finish(st, mode, random.Random(seed), self.ctx.pimc_worlds)
            out[name] = self._outcome(st, value)
        return out

    def _outcome(self, st: T.TarocchiniState, value: int | None) -> Outcome:
        """The seat's score; ``value``: an Ottocento DD endgame value (see ``finish``)."""
        seat = self.ctx.seat
        if value is not None:  # side 1 - side 0 in half points
            net = (value if st.side_of[seat] == 1 else -value) / 2
            return Outcome(net, net > 0)
        if st.abandoned:
            return Outcome(0.0, None)
        if self.otto:
            t = st.side_totals()
            side = st.side_of[seat]
            net = t[side] - t[1 - side]
            return Outcome(net, net > 0)
        score = st.scores()[seat]
        return Outcome(score, score > 0)

    def recommend(self, rows) -> str:
        """The best expected score (ties: the first candidate, e.g. pass, declare max)."""
        return rows[0].option


def _heuristic_move(st: T.TarocchiniState, rng: random.Random, avoid: int = 0) -> Move:
    """The heuristic player's non-card move for the seat to act (``avoid``: cards it
    must keep, e.g. cards it declares later in the given moves)."""
    seat = st.to_act
    legal = st.legal_moves()
    if st.phase == "discard" and avoid:
        keep = [m for m in legal if not avoid >> m.value & 1]
        legal = keep or legal
    return H.choose(T.NAME, st.observation(seat), legal, rng)


def finish(st: T.TarocchiniState, mode: str, rng: random.Random,
           pimc_worlds: int = 8) -> int | None:
    """Play ``st`` to its end: heuristic decisions and opening play, then the endgame by
    exact DD (``dd``) or by PIMC agents (``pimc``); an unfinished DD search (node
    budget) lets the heuristic player finish.

    Ottocento in dd mode stops at the endgame and returns its exact DD value (side 1's
    hand total minus side 0's, half points: all the score needs, OTTO-SCORE-1); else
    the deal is played to the end and None is returned (Terziglio game points need the
    final totals, TERZ-SCORE-3, so its endgame is played along an optimal line)."""
    agents = None
    while not st.is_over():
        if st.phase != "play":
            st.play(_heuristic_move(st, rng))
            continue
        if st.trick or max(h.bit_count() for h in st.hands) > ENDGAME_CARDS:
            st.play(_heuristic_move(st, rng))
            continue
        if mode == "dd":
            if st.variant == "ottocento":
                r = ddt.solve(st, node_budget=NODE_BUDGET)
                if r.complete:
                    return r.value
            elif _dd_endgame(st):
                return None
            while not st.is_over():
                st.play(_heuristic_move(st, rng))
            return None
        from ..pimc import PimcAgent
        if agents is None:
            agents = [PimcAgent(seed=rng.randrange(1 << 30), worlds=pimc_worlds,
                                node_budget=NODE_BUDGET) for _ in range(st.n)]
        while not st.is_over():
            st.play(agents[st.to_act].choose(st, st.to_act))
    return None


def _dd_endgame(st: T.TarocchiniState) -> bool:
    """Finish ``st`` along an optimal double-dummy line; False if the search was cut."""
    try:
        line = ddt.principal_variation(st, node_budget=NODE_BUDGET)
    except AtoutError:
        return False
    for mv in line:
        st.play(mv)
    return True


# --- candidate generators ------------------------------------------------------------
def _meld_points(hand: int, opts: dict[str, Any]) -> int:
    return best_combinations(hand, bool(opts["contatore_multi_use"]),
                             int(opts["max_contatori_per_suit_sequence"]))[0]


def discard_candidates(hand: int, k: int, opts: dict[str, Any]) -> list[int]:
    """A few different discards of ``k`` cards (never a five-point card, OTTO-DEAL-2,
    TERZ-BID-2): the heuristic player's, and greedy ones that keep the combinations
    and (a) build voids in short suits, (b) bank the most valuable loose cards in the
    own pile, (c) throw the cheapest cards, (d) throw low trumps; and (e) one that
    banks the most valuable cards even out of a combination."""
    free = hand & ~T.FIVE_POINT_MASK
    if free.bit_count() < k:
        raise AtoutError(f"the hand has only {free.bit_count()} cards that may be discarded "
                         f"(no five-point card, OTTO-DEAL-2 / TERZ-BID-2), {k} needed")
    obs = {"options": opts}
    out: list[int] = []

    def greedy(key, keep_melds: bool = True) -> int:
        h, chosen = hand, 0
        for _ in range(k):
            cands = bit_list(h & ~T.FIVE_POINT_MASK)
            base = _meld_points(h, opts) if keep_melds else 0
            c = min(cands, key=lambda c: (
                base - _meld_points(h & ~(1 << c), opts) if keep_melds else 0, key(h, c), c))
            h &= ~(1 << c)
            chosen |= 1 << c
        return chosen

    h, chosen = hand, 0
    for _ in range(k):  # the heuristic player's discard
        legal = [Move("discard", c) for c in bit_list(h & ~T.FIVE_POINT_MASK)]
        c = H.choose_discard(obs | {"hand": h}, legal).value
        h &= ~(1 << c)
        chosen |= 1 << c
    out.append(chosen)

    def length(h: int, c: int) -> int:
        return (h & T.SUIT_MASK_OF[T.SUIT_OF[c]]).bit_count() if c < 40 else 99

    keys = [
        lambda h, c: (length(h, c), T.card_value(c)),  # (a) voids
        lambda h, c: (c >= 40, -T.card_value(c), length(h, c)),  # (b) bank value
        lambda h, c: (H.worth(c), length(h, c)),  # (c) cheapest
        lambda h, c: (c < 40, T.POWER[c]),  # (d) low trumps
    ]
    # (e) bank the most valuable cards even out of a combination: the discard is in
    # the own pile, whose combinations count at the end (OTTO-DEAL-3, TAROC-DECL-6)
    for m in [*(greedy(key) for key in keys), greedy(keys[1], keep_melds=False)]:
        if m not in out:
            out.append(m)
    return out[:MAX_DISCARDS]


def declaration_candidates(hand: int, opts: dict[str, Any],
                           done: list[tuple[str, int]] | None = None
                           ) -> dict[str, list[Move]]:
    """Declarations to compare (TAROC-DECL-2/3): nothing more, the best set of
    combinations, and the best set less one family (keeping those cards hidden)."""
    done = list(done or [])
    fams_done = {f for f, _ in done}
    if opts["declarations"] == "none_or_max":
        out = {"declare nothing": [Move("declare_end")]}
        if _meld_points(hand, opts):
            out["declare max"] = [Move("declare_max")]
        return out
    _, combos = best_combinations(hand, bool(opts["contatore_multi_use"]),
                                  int(opts["max_contatori_per_suit_sequence"]))
    combos = tuple(cb for cb in combos if cb[0] not in fams_done)
    if not opts["contatore_multi_use"]:  # TAROC-MELD-12: contatori already used
        used = 0
        for f, m in done:
            if f in SEQUENCES:
                used |= m & CONT_MASK
        combos = tuple(cb for cb in combos if cb[0] not in SEQUENCES or not cb[1] & used)
    out: dict[str, list[Move]] = {}
    if combos:  # first: on equal scores the full declaration is recommended
        out["declare max"] = [Move("declare", cb) for cb in combos]
    out["declare nothing" if not done else "declare nothing more"] = []
    if len(combos) > 1:
        for cb in combos:
            out[f"max but {cb[0]}"] = [Move("declare", x) for x in combos if x != cb]
    return out


def make_evaluator(ctx: Context) -> TarocchiniEvaluator:
    return TarocchiniEvaluator(ctx)


# --- the PIMC agent's decisions --------------------------------------------------------
_PLANS: dict[tuple, list[Move]] = {}


def _auction_of(state: T.TarocchiniState, seat: int) -> list[str]:
    """The public moves as ``seat`` saw them: others' discards are hidden, another
    player's ``decl:max`` is preceded by the combinations it showed."""
    out = []
    decl_seat = state.eldest
    for mv in state.history:
        if mv.kind == "discard" and seat != (state.dealer if state.variant == "ottocento"
                                             else state.declarer):
            out.append("discard:?")
            continue
        if mv.kind == "declare_max" and decl_seat != seat:
            out += ["decl:" + format_combination(f, m) for f, m in state.declared[decl_seat]]
        out.append(state.move_token(mv))
        if mv.kind in ("declare_max", "declare_end"):
            decl_seat = (decl_seat + 1) % state.n
    return out


def decide(state: T.TarocchiniState, seat: int, budget: int = 12,
           seed: int = 0, seconds: float | None = None) -> Move | None:
    """The move of ``seat`` for a bid, a monte vote or a discard, from a ``budget``-world
    DD evaluation of the seat's view (worlds drawn from ``seed``); a declaration is the
    best set (what that evaluation always finds); a call-out is always taken. None (use
    the heuristic) in other phases or if the evaluation fails. A multi-move
    decision (a discard set, a declaration) is planned once and its moves returned one
    by one while the deal follows the plan."""
    if state.phase == "callout" and state.to_act == seat:
        return Move("callout", True)  # OTTO-SCORE-3: calling out wins the game at once
    if state.phase not in ("bid", "monte", "discard", "declare") or state.to_act != seat:
        return None
    plan = _PLANS.pop((id(state), seat, tuple(state.history)), None)
    if plan and plan[0] in state.legal_moves():
        if plan[1:]:
            _PLANS[(id(state), seat, (*state.history, plan[0]))] = plan[1:]
        return plan[0]
    obs = state.observation(seat)
    if state.phase == "declare":
        # In the dd evaluation declaring more never costs: the points go to the seat's
        # side (TAROC-DECL-4), nobody plays differently, and a higher own total never
        # lowers a Terziglio or Ottocento score; so the best set is weakly dominant
        # there and is taken without sampling (its hidden information needs pimc).
        cands = declaration_candidates(obs["hand"], state.options, list(state.declared[seat]))
        moves = list(cands.get("declare max", next(iter(cands.values()))))
    else:
        ctx = Context(T.NAME, bit_list(obs["hand"]), seat, state.dealer, dict(state.options),
                      _auction_of(state, seat))
        try:
            ev = TarocchiniEvaluator(ctx)
            e = evaluate(ctx, samples=max(1, int(budget)), seed=seed, mode="dd",
                         evaluator=ev, seconds=seconds)
        except AtoutError:
            return None
        moves = ev.candidate_moves(e.recommended)
    if state.phase == "declare" and not (moves and moves[-1].kind in ("declare_max",
                                                                       "declare_end")):
        moves.append(Move("declare_end"))
    if not moves or moves[0] not in state.legal_moves():
        return None
    if len(_PLANS) > 256:
        _PLANS.clear()
    if moves[1:]:
        _PLANS[(id(state), seat, (*state.history, moves[0]))] = moves[1:]
    return moves[0]
