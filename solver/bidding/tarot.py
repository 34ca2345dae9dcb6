"""French Tarot bid analysis (3/4/5 players): pass, prise, garde, garde sans, garde
contre; for prise/garde the best écart among a candidate set, searched per sampled
dog; whether to announce a poignée (and which level) and a chelem; in 5p which card
to call.

Scale: every score is the **evaluating seat's own score** for the deal (TAROT-SCORE-6:
the taker gets 3T in 4p, 2T in 3p, 2T with a partner / 4T alone in 5p; a defender -T;
the 5p partner +T), with the ``rounding`` option applied (TAROT-SCORE-8).

Per sampled world (the unknown cards dealt uniformly among the other hands and the
dog), each contract configuration is played out once and counted (attack points,
bouts, petit au bout, tricks per side); every row sharing that play (prise and garde
on the same écart, the poignée levels) is then scored from the count with the rules'
``deal_value``. Card play, mode ``dd``: the opening is played by the heuristic player
(``solver.heuristics.tarot``) until every hand holds ``ending`` cards, then the ending
is solved double-dummy (``solver.dd.tarot`` core) for the contract's real objective T
and played along an optimal line. Full 18-card 4p deals do not solve within a budget
yet, hence the hybrid; an ending the node budget cannot solve is finished by the
heuristic player and counted in the notes (``fallbacks``). Mode ``pimc``: the ending
is played by PIMC agents instead (realistic, slow).

Écart (TAROT-DOG-1/2): the candidate écarts are the heuristic one
(``choose_discard``), voids of short suits filled with the best cards to bank, and
the highest-point écart; each is played out in the world and the best T is kept
(the taker sees the dog; DD also sees the other hands, so this is optimistic).
``ecart_stats`` records how often the heuristic écart was the best candidate and the
mean gap (the check of the heuristic against the search).

Chelem rows replay the contract with the chelem announced (the taker leads,
TAROT-ANN-2) on the écart kept for the plain contract; poignée rows add the bonus to
the same play (TAROT-SCORE-4), for the levels the dealt hand qualifies for.

The worlds follow the auction: a seat that has already bid or passed gets a hand with
which the heuristic bidder makes the same calls (drawn seat by seat, up to
``MODEL_TRIES`` draws). Simplifications (stated in ``notes``): after our bid the others
pass; a pass with no contract standing scores 0; a pass over
a standing contract is scored with that taker playing it (heuristic écart and call).
"""

from __future__ import annotations

import random
import threading
from fractions import Fraction
from itertools import combinations
from typing import Any

from ..cards import bit_list, mask_of
from ..core import tarot as face
from ..errors import AtoutError, OptionError
from ..games import tarot as T
from ..games.base import GameState, Move
from ..heuristics import tarot as H
from . import Context, Outcome, calls_note, draw_matching, replay_auction

DEFAULT_ENDING = {3: 7, 4: 5, 5: 4}  # cards per hand at which DD takes over
DEFAULT_NODE_BUDGET = 500_000
CHELEM_MIN_STRENGTH = 95  # hand_strength (4p scale) below which chelem is not evaluated
LOW_MASK = T.FULL_DECK & ~(T.TRUMP_MASK | T.EXCUSE_BIT | T.KINGS_MASK)  # TAROT-DOG-2 'L'


# --- écarts --------------------------------------------------------------------------
def legal_discards(hand: int, left: int) -> int:
    """Cards the taker may discard next when ``left`` cards remain to discard
    (TAROT-DOG-2): low cards only, trumps T2..T20 once the low cards cannot fill it."""
    low = hand & LOW_MASK
    if low.bit_count() >= left:
        return low
    return low | (hand & T.MIDDLE_TRUMPS)


def heuristic_ecart(enlarged: int, dog_size: int) -> int:
    """The heuristic player's écart (``choose_discard`` card by card)."""
    hand, out = enlarged, 0
    for i in range(dog_size):
        legal = [Move("discard", c) for c in bit_list(legal_discards(hand, dog_size - i))]
        c = H.choose_discard({"hand": hand}, legal).value
        hand &= ~(1 << c)
        out |= 1 << c
    return out


def _fill(hand: int, chosen: int, dog_size: int, bank: bool = True) -> int:
    """Complete an écart with low cards: those worth most to bank (``bank``) or the
    cheapest (keeping the honours in hand), shortest suits first; then the lowest
    trumps T2..T20 if the low cards run out (TAROT-DOG-2)."""
    low = [c for c in bit_list(hand & LOW_MASK & ~chosen)]

    def key(c: int):
        length = (hand & T.SUIT_MASKS[T.card_suit(c)]).bit_count()
        return (-T.card_points(c) if bank else T.card_points(c), length, c)

    low.sort(key=key)
    for c in low:
        if chosen.bit_count() >= dog_size:
            break
        chosen |= 1 << c
    for c in bit_list(hand & T.MIDDLE_TRUMPS):
        if chosen.bit_count() >= dog_size:
            break
        chosen |= 1 << c
    return chosen


def ecart_candidates(enlarged: int, dog_size: int, limit: int = 6) -> list[int]:
    """Legal écarts to compare (TAROT-DOG-2), the heuristic one first, then: voids of
    one or two short suits without a King, completed by banking points or by the
    cheapest cards; the highest-point écart; the cheapest écart."""
    out = [heuristic_ecart(enlarged, dog_size)]
    low = enlarged & LOW_MASK
    if low.bit_count() > dog_size:
        voidable = [s for s in range(4) if enlarged & T.SUIT_MASKS[s] and
                    not enlarged & T.KINGS_MASK & T.SUIT_MASKS[s] and
                    (enlarged & T.SUIT_MASKS[s]).bit_count() <= dog_size]
        voidable.sort(key=lambda s: (enlarged & T.SUIT_MASKS[s]).bit_count())
        groups = [(s,) for s in voidable] + list(combinations(voidable, 2))
        for g in groups:
            suits = 0
            for s in g:
                suits |= enlarged & T.SUIT_MASKS[s]
            if suits.bit_count() <= dog_size:
                out.append(_fill(enlarged, suits, dog_size))
                out.append(_fill(enlarged, suits, dog_size, bank=False))
        out.append(_fill(enlarged, 0, dog_size))
        out.append(_fill(enlarged, 0, dog_size, bank=False))
    else:  # forced: every low card and the lowest trumps
        out.append(_fill(enlarged, 0, dog_size))
    seen: list[int] = []
    for e in out:
        if e not in seen and e.bit_count() == dog_size:
            seen.append(e)
    return seen[:max(1, limit)]


# --- playing a configuration out -----------------------------------------------------
def _heuristic_play(st: T.TarotState, until: int, rng: random.Random) -> None:
    """Heuristic card play until a trick boundary where hands hold ``until`` cards."""
    while st.phase == "play":
        if not st.trick and st.hands[st.to_act].bit_count() <= until:
            return
        legal = st.legal_moves()
        seat = st.to_act
        mv = legal[0] if len(legal) == 1 else H.choose("tarot", st.observation(seat), legal, rng)
        st.play(mv)


def _counts_of_state(st: T.TarotState) -> dict[str, int]:
    c = st.count()
    return {"att_pts": c.points2, "att_bouts": c.bouts, "pb": c.petit_au_bout,
            "att_tricks": c.attack_tricks, "def_tricks": c.defence_tricks}


def _dd_line(st: T.TarotState, node_budget: int, tt_bits: int) -> dict[str, int] | None:
    """Solve the position for its contract's T (TAROT-SCORE-1, no poignée) and play an
    optimal line to the end; the counts of that line, or None if the budget ran out."""
    core = face.from_state(st, tt_bits=tt_bits, poignee=0)
    value, complete = core.value(node_budget=node_budget)
    if not complete:
        return None
    while not core.is_over():
        attack = core.side_of_to_act()
        for card in bit_list(core.legal_mask()):
            core.play(card)
            ok = core.probe(value if attack else value + 1, node_budget=node_budget)
            if ok is None:
                return None
            if ok == bool(attack):
                break
            core.undo()
        else:  # pragma: no cover - a consistent search always finds a card
            raise AtoutError("internal error: no card keeps the double-dummy value")
    k = core.counts()
    k["T"] = core.final_value()
    return k


def value_of(counts: dict[str, int], contract: str, options: dict[str, Any], *,
             poignee: int = 0, chelem: bool = False) -> int:
    """Per-defender amount T of a counted play (TAROT-SCORE-1..5, TAROT-VAR-2)."""
    return T.deal_value(contract, Fraction(counts["att_pts"], 2), counts["att_bouts"],
                        petit_au_bout=counts["pb"], poignee=poignee,
                        chelem_announced=chelem,
                        attack_all_tricks=counts["def_tricks"] == 0,
                        defence_all_tricks=counts["att_tricks"] == 0, options=options)


def made_of(counts: dict[str, int]) -> bool:
    """Contract made (TAROT-COUNT-2)."""
    return T.contract_result(Fraction(counts["att_pts"], 2), counts["att_bouts"])[0]


# Worlds that follow the auction: draws per seat to match its bids by rejection (a
# garde needs a hand of the top 5% of strengths, a garde sans 0.2%, fewer still when
# our own hand holds the bouts), then card swaps towards a matching strength, then
# swaps that keep it (solver.bidding.draw_matching). Hand strengths stay below 200.
MODEL_TRIES = 300
REPAIR_STEPS = 3000
MIX_STEPS = 60
STRENGTH_MAX = 200

# Evaluators may score worlds in several threads (solver.parallel): counters go
# through one lock so the notes are the same whatever the thread count.
_STATS_LOCK = threading.Lock()


class TarotEvaluator:
    """Bid analysis of one Tarot hand (see the module docstring)."""

    def __init__(self, ctx: Context, *, ending: int | None = None,
                 node_budget: int = DEFAULT_NODE_BUDGET, ecarts: int = 6,
                 tt_bits: int = 16, chelem: bool | None = None,
                 only_contract: str | None = None, ecart_worlds: int = 0):
        self.ctx = ctx
        self.opts = T.resolve_options(ctx.options)
        n = self.n = self.opts["players"]
        size = T.HAND_SIZE[n]
        hand = list(ctx.hand)
        bad = [c for c in hand if not isinstance(c, int) or not 0 <= c < 78]
        if bad:
            raise AtoutError(f"not a tarot card: {bad[0]!r}")
        dup = sorted({c for c in hand if hand.count(c) > 1})
        if dup:
            raise AtoutError("card listed twice in the hand: "
                             + T.TAROT_DECK.format_cards(dup))
        if len(hand) != size:
            raise AtoutError(f"a {n}-player Tarot hand has {size} different cards, "
                             f"got {len(hand)}")
        if not 0 <= ctx.seat < n or not 0 <= ctx.dealer < n:
            raise AtoutError(f"seat and dealer must be 0..{n - 1} with {n} players")
        self.hand = mask_of(hand)
        if self.opts["petit_sec_redeal"] and T._is_petit_sec(self.hand):
            raise AtoutError("petit sec: this hand annuls the deal (TAROT-DEAL-3), "
                             "there is nothing to bid")
        self.dog_size = T.DOG_SIZE[n]
        self.ending = DEFAULT_ENDING[n] if ending is None else ending
        self.node_budget, self.ecarts, self.tt_bits = node_budget, ecarts, tt_bits
        self.ecart_worlds = ecart_worlds
        self._heard: dict[int, list[tuple[dict[str, Any], list[Move], Move]]] = {}
        self._allowed: dict[int, list[int]] = {}
        self._gaps: dict[int, list[int]] = {}
        self.misfits = 0
        self.standing = self._replay_auction()
        strength = H.hand_strength(self.hand)
        self.chelem = strength >= CHELEM_MIN_STRENGTH if chelem is None else chelem
        self.only_contract = only_contract
        self.stats = {"solves": 0, "fallbacks": 0, "worlds": 0,
                      "ecart_heuristic_best": 0, "ecart_gap": 0.0, "ecart_worlds": 0}
        self._names = self._candidates()

    # --- auction (TAROT-BID-1..3) ---------------------------------------------------
    def _replay_auction(self) -> tuple[int, str] | None:
        """Validate the auction on a state holding our hand; the standing (seat,
        contract) or None."""
        world = self.sample(random.Random(0))
        hands = [sorted(bit_list(h)) for h in world["hands"]]
        st = T.new_state(options=self.opts | {"petit_sec_redeal": False},
                         dealer=self.ctx.dealer,
                         deal=T.Deal(hands, {"dog": sorted(bit_list(world["dog"]))}))
        replay_auction(st, self.ctx.auction, self.ctx.seat, self._heard,
                       f" (dealer {self.ctx.dealer}, TAROT-BID-1)")
        self.legal_bids = [m.value for m in st.legal_moves()]
        bids = [(T.CONTRACTS.index(b), s) for s, b in st.auction if b != "pass"]
        if not bids:
            return None
        rank, seat = max(bids)
        return seat, T.CONTRACTS[rank]

    def _calls(self) -> list[int | None]:
        """Cards the 5p taker may call (TAROT-CALL-2/3), or [None]."""
        if self.n != 5:
            return [None]
        for rank in (T.RANK_K, T.RANK_Q, T.RANK_N):
            cards = [22 + 14 * s + rank for s in range(4)]
            if not all(self.hand >> c & 1 for c in cards):
                return cards
        if self.opts["five_player_lowest_call"] == "alone":
            return [None]
        return [22 + 14 * s + T.RANK_J for s in range(4)]

    def _levels(self) -> list[str]:
        """Poignée levels the hand qualifies for (TAROT-ANN-4/5, EX for one trump)."""
        trumps = (self.hand & T.TRUMP_MASK).bit_count()
        ex = bool(self.hand & T.EXCUSE_BIT)
        return [lv for lv, t in zip(T.POIGNEE_LEVELS, T.POIGNEE_THRESHOLDS[self.n], strict=True)
                if trumps >= t or (trumps == t - 1 and ex)]

    def _candidates(self) -> list[str]:
        """Row names; ``self._rows`` maps each to (contract, call, extra) where extra
        is '', 'poignee:<level>' or 'chelem'."""
        self._rows: dict[str, tuple[str | None, int | None, str]] = {"pass": (None, None, "")}
        contracts = [b for b in self.legal_bids if b != "pass"]
        if self.only_contract is not None:
            contracts = [c for c in contracts if c == self.only_contract]
        levels = [f"poignee:{lv}" for lv in self._levels()]
        extras = ["", *levels] + (["chelem", *(f"chelem {x}" for x in levels)]
                                  if self.chelem else [])
        for c in contracts:
            for call in self._calls():
                base = c if call is None else f"{c} {T.TAROT_DECK.token(call)}"
                for x in extras:
                    self._rows[f"{base} {x}".strip()] = (c, call, x)
        return list(self._rows)

    def drop_rows(self, keep) -> None:
        """Keep only the rows whose (contract, call, extra) satisfies ``keep``."""
        self._rows = {k: v for k, v in self._rows.items() if k == "pass" or keep(*v)}
        self._names = list(self._rows)

    # --- the evaluator API ------------------------------------------------------------
    @property
    def notes(self) -> list[str]:
        s = self.stats
        out = [f"scores are seat {self.ctx.seat}'s own score (TAROT-SCORE-6: taker "
               f"{ {3: '2T', 4: '3T', 5: '2T or 4T alone'}[self.n]}, defender -T)",
               "play: heuristic opening, then a DD ending from "
               f"{self.ending} cards per hand (mode dd) or PIMC (mode pimc); prise/garde "
               f"take the best of up to {self.ecarts} candidate écarts per world " +
               ("(optimistic: the écart is chosen seeing the world)" if not
                self.ecart_worlds else f"(chosen on the dog alone: best mean over "
                f"{self.ecart_worlds} resampled worlds)"),
               "the others pass after our bid; pass with no contract standing scores 0"]
        if self._heard:
            out.append(calls_note(self.misfits,
                                  f"{MODEL_TRIES} draws and {REPAIR_STEPS} swaps"))
        if s["solves"]:
            out.append(f"{s['fallbacks']} of {s['solves']} endings exceeded the node budget "
                       f"({self.node_budget}) and were finished by the heuristic player")
        if s["ecart_worlds"]:
            out.append(f"écart check: the heuristic écart was the best candidate in "
                       f"{s['ecart_heuristic_best']} of {s['ecart_worlds']} searches, mean "
                       f"gap {s['ecart_gap'] / s['ecart_worlds']:.1f} T")
        if not self.chelem:
            out.append(f"chelem not evaluated (hand strength below {CHELEM_MIN_STRENGTH})")
        return out

    def candidates(self) -> list[str]:
        return list(self._names)

    def _strengths(self, seat: int) -> list[int]:
        """The hand strengths (``H.hand_strength``) with which the heuristic bidder
        makes every bid ``seat`` made (TAROT-BID-1..3: a pass or a garde says
        something of the hand)."""
        if seat not in self._allowed:
            self._allowed[seat] = [
                x for x in range(STRENGTH_MAX + 1)
                if all(H.bid_for_strength(x, self.n, legal) == move
                       for _, legal, move in self._heard[seat])]
        return self._allowed[seat]

    def _gap(self, seat: int, hand: int) -> int:
        """How far the strength of ``hand`` is from one that makes ``seat``'s bids
        (a table per seat over the strengths 0..STRENGTH_MAX)."""
        table = self._gaps.get(seat)
        if table is None:
            ok = self._strengths(seat)
            table = [0 if x in ok else min((abs(x - y) for y in ok), default=0)
                     for x in range(STRENGTH_MAX + 1)]
            self._gaps[seat] = table
        return table[min(H.hand_strength(hand), STRENGTH_MAX)]  # strengths stay < 200

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """A world: every hand (ours fixed) and the dog, uniformly among the rest,
        except that a seat that has bid gets a hand the heuristic bidder bids the same
        with (seat by seat, ``draw_matching``: rejection, then for rare strong bids card
        swaps towards a strength that makes them; misfits counted in the notes)."""
        pool = [c for c in range(78) if not self.hand >> c & 1]
        rng.shuffle(pool)
        size = T.HAND_SIZE[self.n]
        hands = [0] * self.n
        hands[self.ctx.seat] = self.hand
        for seat in sorted(self._heard):
            part, pool, ok = draw_matching(pool, size,
                                           lambda cards, s=seat: self._gap(s, mask_of(cards)),
                                           rng, MODEL_TRIES, REPAIR_STEPS, MIX_STEPS)
            self.misfits += not ok
            hands[seat] = mask_of(part)
        k = 0
        for seat in range(self.n):
            if not hands[seat]:
                hands[seat] = mask_of(pool[k:k + size])
                k += size
        return {"hands": hands, "dog": mask_of(pool[k:])}

    def _count(self, key: str, n: float = 1) -> None:
        with _STATS_LOCK:
            self.stats[key] = self.stats.get(key, 0) + n

    def play(self, hands: list[int], aside: int, contract: str, taker: int,
             called: int | None, chelem: bool, mode: str) -> dict[str, int]:
        """Counts of one configuration played out (see the module docstring)."""
        partner = None
        if called is not None:
            holder = next((s for s, h in enumerate(hands) if h >> called & 1), None)
            partner = None if holder == taker else holder  # TAROT-CALL-3/4
        st = T.TarotState.for_play(list(hands), taker=taker, contract=contract,
                                   partner=partner, called_card=called, aside=aside,
                                   dealer=self.ctx.dealer, chelem_announced=chelem,
                                   options=self.opts)
        k = self.play_state(st, mode)
        k["partner"] = -1 if partner is None else partner
        return k

    def play_state(self, st: T.TarotState, mode: str) -> dict[str, int]:
        """Counts of a play-phase position played out (heuristic opening, then a DD or
        PIMC ending)."""
        rng = random.Random(0)
        _heuristic_play(st, self.ending, rng)
        if st.phase == "over":
            return _counts_of_state(st)
        if mode == "dd":
            self._count("solves")
            k = _dd_line(st, self.node_budget, self.tt_bits)
            if k is None:
                self._count("fallbacks")
                _heuristic_play(st, -1, rng)
                k = _counts_of_state(st)
            return k
        return self._pimc_ending(st)

    def _pimc_ending(self, st: T.TarotState) -> dict[str, int]:
        from ..pimc import PimcAgent

        agents = [PimcAgent(seed=s, worlds=self.ctx.pimc_worlds, node_budget=self.node_budget,
                            tt_bits=self.tt_bits) for s in range(self.n)]
        while st.phase == "play":
            st.play(agents[st.to_act].choose(st, st.to_act))
        return _counts_of_state(st)

    def _seat_score(self, t: int, taker: int, partner: int) -> int:
        return T.distribute(t, self.n, taker, None if partner < 0 else partner,
                            self.opts["rounding"])[self.ctx.seat]

    def outcomes(self, world: dict[str, Any], mode: str) -> dict[str, Outcome]:
        hands, dog = world["hands"], world["dog"]
        me = self.ctx.seat
        bonuses = self.opts["poignee_bonuses"]
        want_chelem = any(x.startswith("chelem") for _, _, x in self._rows.values())
        out: dict[str, Outcome] = {}
        self._count("worlds")
        done: dict[tuple[str, int | None], tuple[dict[str, int], dict[str, int] | None]] = {}
        for name, (contract, call, extra) in self._rows.items():
            if contract is None:
                continue
            if (contract, call) not in done:
                for c2, pair in self._configs(hands, dog, contract, call, mode,
                                              want_chelem).items():
                    done[(c2, call)] = pair
            plain, chel = done[(contract, call)]
            h = 0
            if "poignee:" in extra:  # TAROT-ANN-6: the bonus goes to the deal's winner
                h = bonuses[T.POIGNEE_LEVELS.index(extra.split("poignee:")[1])]
            if extra.startswith("chelem"):  # TAROT-ANN-1/2, TAROT-SCORE-5
                t = value_of(chel, contract, self.opts, poignee=h, chelem=True)
                out[name] = Outcome(self._seat_score(t, me, chel["partner"]),
                                    chel["def_tricks"] == 0)
                continue
            t = value_of(plain, contract, self.opts, poignee=h)
            out[name] = Outcome(self._seat_score(t, me, plain["partner"]), made_of(plain))
        out["pass"] = self._pass(hands, dog, mode)
        return out

    def _configs(self, hands: list[int], dog: int, contract: str, call: int | None,
                 mode: str, want_chelem: bool) -> dict[str, tuple[dict[str, int], dict[str, int] | None]]:
        """Counts (plain, chelem announced) per contract sharing the play: prise and
        garde on the best écart of the candidates (TAROT-DOG-1/2); garde sans / garde
        contre with the dog aside (TAROT-DOG-3/4)."""
        me = self.ctx.seat
        if contract in ("garde_sans", "garde_contre"):
            plain = self.play(hands, dog, contract, me, call, False, mode)
            chel = self.play(hands, dog, contract, me, call, True, mode) if want_chelem else None
            return {contract: (plain, chel)}
        enlarged = self.hand | dog
        cands = ecart_candidates(enlarged, self.dog_size, self.ecarts)
        played: dict[int, dict[str, int]] = {}
        if self.ecart_worlds:  # chosen on the dog only: mean over resampled hands
            rng = random.Random(enlarged * 1_000_003 + dog)
            unknown = [c for c in range(78) if not enlarged >> c & 1]
            i, means = choose_ecart(self, enlarged, cands, unknown, me, call, "garde",
                                    self.ecart_worlds, rng)
            picks = {"prise": cands[i], "garde": cands[i]}
            gap = means[i] - means[0]
            hs = list(hands)
            hs[me] = enlarged & ~cands[i]
            played[cands[i]] = self.play(hs, cands[i], "garde", me, call, False, mode)
        else:  # the best candidate in this very world (sees the hidden hands)
            best: dict[str, tuple[int, int]] = {}
            for e in cands:
                hs = list(hands)
                hs[me] = enlarged & ~e
                k = played[e] = self.play(hs, e, "garde", me, call, False, mode)
                for c2 in ("prise", "garde"):  # prise: the same play, scored as prise
                    t = value_of(k, c2, self.opts)
                    if c2 not in best or t > best[c2][0]:
                        best[c2] = (t, e)
            picks = {c2: best[c2][1] for c2 in ("prise", "garde")}
            gap = best["garde"][0] - value_of(played[cands[0]], "garde", self.opts)
        self._count("ecart_worlds")
        self._count("ecart_heuristic_best", gap <= 0)
        self._count("ecart_gap", gap)
        out = {}
        chelem: dict[int, dict[str, int]] = {}
        for c2 in ("prise", "garde"):
            e = picks[c2]
            if want_chelem and e not in chelem:
                hs = list(hands)
                hs[me] = enlarged & ~e
                chelem[e] = self.play(hs, e, "garde", me, call, True, mode)
            out[c2] = (played[e], chelem.get(e))
        return out

    def _pass(self, hands: list[int], dog: int, mode: str) -> Outcome:
        """Our pass: 0 with no standing contract, else that taker plays it (heuristic
        écart and call) and we score our seat's share."""
        if self.standing is None:
            return Outcome(0.0, None)
        taker, contract = self.standing
        call = None
        if self.n == 5:
            rank = None
            for r in (T.RANK_K, T.RANK_Q, T.RANK_N, T.RANK_J):
                cards = [22 + 14 * s + r for s in range(4)]
                if not all(hands[taker] >> c & 1 for c in cards):
                    rank = r
                    break
            if rank is not None:
                legal = [Move("call", 22 + 14 * s + rank) for s in range(4)]
                call = H.choose_call({"hand": hands[taker]}, legal).value
        hs, aside = list(hands), dog
        if contract in ("prise", "garde"):
            enlarged = hands[taker] | dog
            aside = heuristic_ecart(enlarged, self.dog_size)
            hs[taker] = enlarged & ~aside
        k = self.play(hs, aside, contract, taker, call, False, mode)
        t = value_of(k, contract, self.opts)
        score = self._seat_score(t, taker, k["partner"])
        mine = self.ctx.seat == k["partner"]
        return Outcome(score, made_of(k) if mine else not made_of(k))


EVALUATOR_PARAMS = ("ending", "node_budget", "ecarts", "ecart_worlds")


def make_evaluator(ctx: Context, **params: Any) -> TarotEvaluator:
    """The Tarot evaluator; ``params`` (or ``ctx.extra``): ending (cards per hand from
    which the ending is solved), node_budget (per ending), ecarts (candidates per
    world), ecart_worlds (0: the écart is the best candidate in each world, seeing
    it; m > 0: chosen on the dog alone by its mean over m resampled worlds), tt_bits,
    chelem (force the chelem rows on/off)."""
    unknown = sorted(set(ctx.extra) - set(EVALUATOR_PARAMS))
    if unknown:
        raise OptionError(f"tarot evaluation takes no input {', '.join(unknown)!s} "
                          f"(parameters: {', '.join(EVALUATOR_PARAMS)})")
    for key in EVALUATOR_PARAMS:
        if key in ctx.extra and key not in params:
            params[key] = ctx.extra[key]
    for key in EVALUATOR_PARAMS:
        v = params.get(key)
        zero_ok = key in ("ending", "ecart_worlds")
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or
                              v < (0 if zero_ok else 1)):
            raise OptionError(f"tarot evaluation: {key} must be a "
                              f"{'non-negative' if zero_ok else 'positive'} "
                              f"integer, got {v!r}")
    return TarotEvaluator(ctx, **params)


# --- the PIMC agent's non-card decisions ---------------------------------------------------
def decide(state: GameState, seat: int, budget: int = 8, seed: int = 0,
           seconds: float | None = None) -> Move | None:
    """Bid, 5p call, écart, chelem or poignée of ``seat`` from this analysis over
    ``budget`` worlds drawn from ``seed`` (the seat's observation only); a misère is
    always announced and a poignée shows its lowest trumps. A card move means "no
    announcement, play a card"; None: not a decision of this kind (card play).
    ``seconds`` bounds the bid and call evaluations (écart, chelem and poignée take
    their ``budget`` worlds)."""
    from . import evaluate

    if state.to_act != seat or state.phase == "over":
        return None
    obs = state.observation(seat)
    phase = obs["phase"]
    legal = state.legal_moves()
    budget = max(1, int(budget))
    opts = T.non_default_options(state.options)
    # the écart's seed reads the enlarged hand (the hand and the cards discarded so far),
    # so its six discards are one decision (_ECARTS), not six with fresh worlds; the
    # écart is chosen from that same hand
    hand = obs["hand"] | ((obs["ecart"] or 0) if phase == "ecart" else 0)
    seed = (seed * 1_000_003 + hand % 999_983 + seat) % (1 << 62)
    if phase in ("bid", "call"):
        auction = [b for _, b in obs["auction"]]
        only = None
        if phase == "call":  # TAROT-CALL-1: evaluated as at our bid, contract fixed
            auction, only = auction[:_turn_of(obs)], obs["contract"]
        ctx = Context("tarot", bit_list(obs["hand"]), seat, obs["dealer"], opts, auction)
        try:
            ev = TarotEvaluator(ctx, chelem=False, only_contract=only)
        except AtoutError:
            return None
        ev.drop_rows(lambda c, call, x: not x)
        res = evaluate(ctx, samples=budget, seed=seed, evaluator=ev, seconds=seconds)
        if phase == "bid":
            bid = res.recommended.split()[0]
            return next((m for m in legal if m.value == bid), None)
        calls = [r for r in res.rows if r.option.startswith(obs["contract"] + " ")]
        if not calls:
            return None
        card = T.TAROT_DECK.card(calls[0].option.split()[1])
        return next((m for m in legal if m.value == card), None)
    if phase == "ecart":
        return _decide_ecart(state, obs, legal, budget, seed, hand)
    if phase == "chelem":
        return _decide_chelem(state, obs, legal, budget, seed)
    if phase == "play":
        misere = [m for m in legal if m.kind == "misere"]
        if misere:  # TAROT-ANN-9: v from each other player whatever the deal's result
            return misere[0]
        if any(m.kind == "poignee" for m in legal):
            return _decide_poignee(state, seat, legal, budget, seed)
        return None
    if phase == "show":  # TAROT-ANN-5: the lowest trumps, EX only when it must be shown
        return min(legal, key=lambda m: (m.value == T.EXCUSE, m.value))
    return None


def _turn_of(obs: dict) -> int:
    """Index of the seat's own call in the auction."""
    for i, (s, _) in enumerate(obs["auction"]):
        if s == obs["seat"]:
            return i
    return len(obs["auction"])


def _deal_unknown(rng: random.Random, unknown: list[int], n: int, me: int,
                  extra: int) -> tuple[list[int], int]:
    """Other hands (full size) and ``extra`` cards left over, uniformly."""
    rng.shuffle(unknown)
    size = T.HAND_SIZE[n]
    hands, k = [], 0
    for s in range(n):
        if s == me:
            hands.append(0)
        else:
            hands.append(mask_of(unknown[k:k + size]))
            k += size
    return hands, mask_of(unknown[k:k + extra])


def ecart_plays(ev: TarotEvaluator, enlarged: int, cands: list[int], hands: list[int],
                taker: int, called: int | None) -> list[dict[str, int]]:
    """The counts (and ``partner``) of each candidate écart played out in one world
    (the other hands ``hands``; the taker's is ``enlarged`` less the écart), DD
    ending, no chelem: one play serves prise and garde (``value_of``)."""
    out = []
    for e in cands:
        hs = list(hands)
        hs[taker] = enlarged & ~e
        out.append(ev.play(hs, e, "garde", taker, called, False, "dd"))
    return out


def ecart_worlds(unknown: list[int], n: int, taker: int, worlds: int,
                 rng: random.Random) -> list[list[int]]:
    """``worlds`` deals of the ``unknown`` cards among the other hands (what the taker
    knows: his enlarged hand, TAROT-DOG-1); the taker's hand is left 0."""
    return [_deal_unknown(rng, list(unknown), n, taker, 0)[0] for _ in range(worlds)]


def choose_ecart(ev: TarotEvaluator, enlarged: int, cands: list[int], unknown: list[int],
                 taker: int, called: int | None, contract: str, worlds: int,
                 rng: random.Random) -> tuple[int, list[float]]:
    """Index of the candidate écart with the best mean T over ``worlds`` deals of the
    ``unknown`` cards (``ecart_worlds``), and the means; DD endings."""
    totals = [0.0] * len(cands)
    for hands in ecart_worlds(unknown, ev.n, taker, worlds, rng):
        for i, counts in enumerate(ecart_plays(ev, enlarged, cands, hands, taker, called)):
            totals[i] += value_of(counts, contract, ev.opts)
    means = [t / max(1, worlds) for t in totals]
    return max(range(len(cands)), key=lambda i: (means[i], -i)), means


_ECARTS: dict[tuple, int] = {}  # écart chosen per (enlarged hand, seat, ...): one search


def _decide_ecart(state: GameState, obs: dict, legal: list[Move], budget: int,
                  seed: int, enlarged: int) -> Move | None:
    """Choose the whole écart once (best mean T over ``budget`` worlds among the
    candidates, TAROT-DOG-2) and return its next card. ``enlarged``: the taker's
    hand and the cards discarded so far (``decide`` reads it for the seed too)."""
    done = obs["ecart"] or 0
    n, dog_size = obs["players"], T.DOG_SIZE[obs["players"]]
    key = (enlarged, obs["seat"], obs["contract"], obs["called_card"], budget, seed)
    if key not in _ECARTS:
        cands = [e for e in ecart_candidates(enlarged, dog_size) if e & done == done]
        if not cands:
            return None
        best = cands[0]
        if len(cands) > 1:
            unknown = [c for c in range(78) if not enlarged >> c & 1]
            ev = PlayOnly(n, obs["dealer"], state.options)
            i, _ = choose_ecart(ev, enlarged, cands, unknown, obs["seat"],
                                obs["called_card"], obs["contract"], budget,
                                random.Random(seed))
            best = cands[i]
        if len(_ECARTS) > 256:
            _ECARTS.clear()
        _ECARTS[key] = best
    todo = _ECARTS[key] & ~done
    return next((m for m in legal if todo >> m.value & 1), None)


def _decide_chelem(state: GameState, obs: dict, legal: list[Move], budget: int,
                   seed: int) -> Move | None:
    """Announce a chelem (TAROT-ANN-1/2) when its mean T over ``budget`` worlds beats
    not announcing (TAROT-SCORE-5); weak hands do not search."""
    no, yes = (next(m for m in legal if m.value is v) for v in (False, True))
    hand, n, me = obs["hand"], obs["players"], obs["seat"]
    if H.hand_strength(hand) < CHELEM_MIN_STRENGTH:
        return no
    contract = obs["contract"]
    ev = PlayOnly(n, obs["dealer"], state.options)
    gain = 0
    for hands, pile in chelem_worlds(obs, budget, random.Random(seed)):
        plain, chel = chelem_plays(ev, hands, pile, contract, me, obs["called_card"])
        gain += (value_of(chel, contract, ev.opts, chelem=True)
                 - value_of(plain, contract, ev.opts))
    return yes if gain > 0 else no


def chelem_worlds(obs: dict, worlds: int, rng: random.Random) -> list[tuple[list[int], int]]:
    """``worlds`` deals of what the taker of ``obs`` does not see at his chelem call
    (his hand and écart are known, TAROT-DOG-1): (hands, the pile aside: his écart,
    or a drawn dog in garde sans / contre, TAROT-DOG-3/4)."""
    n, me, hand = obs["players"], obs["seat"], obs["hand"]
    aside = obs["ecart"] or 0
    known = hand | aside
    unknown = [c for c in range(78) if not known >> c & 1]
    blind = obs["contract"] in ("garde_sans", "garde_contre")
    out = []
    for _ in range(worlds):
        hands, dog = _deal_unknown(rng, unknown, n, me, T.DOG_SIZE[n] if blind else 0)
        hands[me] = hand
        out.append((hands, dog if blind else aside))
    return out


def chelem_plays(ev: TarotEvaluator, hands: list[int], pile: int, contract: str,
                 taker: int, called: int | None) -> tuple[dict[str, int], dict[str, int]]:
    """The counts of one world played out without and with a chelem announced (the
    taker then leads, TAROT-ANN-2)."""
    return (ev.play(hands, pile, contract, taker, called, False, "dd"),
            ev.play(hands, pile, contract, taker, called, True, "dd"))


def _decide_poignee(state: GameState, seat: int, legal: list[Move], budget: int,
                    seed: int) -> Move | None:
    """Announce the highest poignée level when the seat's side wins the deal in most
    of ``budget`` worlds (the bonus goes to the winner, TAROT-ANN-6/TAROT-SCORE-4),
    else play a card without announcing."""
    from .. import constraints

    cards = [m for m in legal if m.kind == "card"]
    levels = [m for m in legal if m.kind == "poignee"]
    try:
        worlds = constraints.sample_worlds(state, seat, budget, seed)
    except AtoutError:
        return None
    wins = 0
    ev = None
    for w in worlds:
        if ev is None:
            ev = PlayOnly(w.players, w.dealer, w.options)
        made = made_of(ev.play_state(play_position(w), "dd"))
        wins += made == (w.side_of(seat) == 1)
    if levels and 2 * wins > len(worlds):
        return max(levels, key=lambda m: T.POIGNEE_LEVELS.index(m.value))
    return cards[0] if cards else None


def play_position(st: GameState) -> T.TarotState:
    """A ``for_play`` copy of the play-phase position ``st`` (a deal's state or a
    sampled world): the same hands, trick, piles and contract, with no poignée or
    misère left to announce, for the play-out machinery (``play_state``)."""
    pile = st.ecart if st.contract in ("prise", "garde") else st.dog
    return T.TarotState.for_play(
        list(st.hands), taker=st.taker, contract=st.contract, partner=st.partner,
        called_card=st.called_card, leader=st.leader, dealer=st.dealer, trick=st.trick,
        won=tuple(st.won), tricks_won=tuple(st.tricks_won), aside=pile,
        chelem_announced=st.chelem_announced, excuse_owed=st.excuse_owed,
        petit_trick=st.petit_trick, options=st.options)


def seat_score(counts: dict[str, int], contract: str, taker: int, partner: int | None,
               seat: int, options: dict[str, Any], *, poignee: int = 0,
               chelem: bool = False, miseres: tuple[int, ...] = ()) -> int:
    """``seat``'s score (TAROT-SCORE-1..8, misères TAROT-ANN-9) for a counted play."""
    return T.score_deal(
        T.resolve_options(options)["players"], contract, Fraction(counts["att_pts"], 2),
        counts["att_bouts"], taker=taker, partner=partner, petit_au_bout=counts["pb"],
        poignee=poignee, chelem_announced=chelem,
        attack_all_tricks=counts["def_tricks"] == 0,
        defence_all_tricks=counts["att_tricks"] == 0, misere=miseres,
        options=options)[seat]


class PlayOnly(TarotEvaluator):
    """The play-out machinery of the evaluator without a hand to validate."""

    def __init__(self, n: int, dealer: int, options: dict[str, Any]):
        self.opts = T.resolve_options(T.non_default_options(options))
        self.n = n
        self.ctx = Context("tarot", [], 0, dealer, options)
        self.ending = DEFAULT_ENDING[n]
        self.node_budget, self.tt_bits = DEFAULT_NODE_BUDGET, 16
        self.stats = {"solves": 0, "fallbacks": 0}
        self._heard, self._allowed, self._gaps, self.misfits = {}, {}, {}, 0
