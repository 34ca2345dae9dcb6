"""Bid analysis: for a hand and what its seat knows, simulate the unknown cards and
evaluate every candidate decision (docs/DESIGN.md "Bid analysis").

Each game has a module ``solver.bidding.<game>`` exposing ``make_evaluator(ctx)``,
which returns an object with

* ``candidates() -> list[str]`` — the decisions to compare (e.g. ``pass``, ``garde``,
  ``110 H``, ``coinche``);
* ``sample(rng)`` — one world: the unknown cards dealt uniformly among the places the
  seat cannot see (``solver.sampling``), consistent with what is public;
* ``outcomes(world, mode) -> dict[str, Outcome]`` — the result of every candidate in
  that world, by double-dummy play (``mode='dd'``, fast, optimistic: everyone sees
  everything) or by a PIMC play-out (``mode='pimc'``, realistic);
* ``recommend(rows) -> str`` (optional; default: the best expected score).

The loop here is shared: worlds are drawn from one seeded stream, every candidate is
scored on the same worlds (common random numbers), and the table lists, per candidate,
P(make), the expected score for the seat's side and score quantiles.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import AtoutError, OptionError
from ..parallel import check_threads, ordered_map

MODES = ("dd", "pimc")
BIDDING_MODULES = {
    "tarot": "solver.bidding.tarot",
    "belote": "solver.bidding.belote",
    "coinche": "solver.bidding.coinche",
    "tarocchini": "solver.bidding.tarocchini",
}


@dataclass
class Outcome:
    """One candidate in one world: the seat's side's score and whether it 'makes'
    (the contract made, or for a pass/defensive choice: the side comes out ahead)."""

    score: float
    made: bool | None


@dataclass
class Context:
    """What the evaluating seat knows at the moment of the decision."""

    game: str
    hand: list[int]
    seat: int = 0
    dealer: int = 3
    options: dict[str, Any] = field(default_factory=dict)
    auction: list[str] = field(default_factory=list)  # move tokens so far
    extra: dict[str, Any] = field(default_factory=dict)  # game-specific (turned card...)
    pimc_worlds: int = 8  # worlds per decision in a PIMC play-out



def check_inputs(ctx: Context, allowed: tuple[str, ...] = ()) -> None:
    """Refuse game-specific inputs (``ctx.extra``: the turned card, evaluator
    parameters) that this game's evaluation does not take."""
    unknown = sorted(set(ctx.extra) - set(allowed))
    if unknown:
        takes = f" (it takes {', '.join(allowed)})" if allowed else ""
        raise OptionError(f"{ctx.game} evaluation takes no input {', '.join(unknown)}{takes}")

def players_of(game: str, options: dict[str, Any]) -> int:
    """Number of seats of ``game`` under ``options``."""
    if game == "tarot":
        return int(options.get("players", 4))
    if game == "tarocchini" and options.get("game") == "terziglio":
        return 3
    return 4


def context_from(game: str, hand: str, seat: int = 0, dealer: int | None = None,
                 options: dict[str, Any] | None = None, auction: list[str] | None = None,
                 turned: str | None = None, params: dict[str, Any] | None = None
                 ) -> Context:
    """A ``Context`` from text (the CLI's and the line protocol's): the hand in card
    notation, the turned card (Belote), evaluator parameters. Without ``dealer`` the
    seat is the next to speak after ``auction``."""
    from ..cards import DECKS
    from ..errors import NotationError

    if game not in DECKS:
        raise AtoutError(f"unknown game {game!r} (known: {', '.join(sorted(DECKS))})")
    deck = DECKS[game]
    options = dict(options or {})
    auction = list(auction or [])
    cards = deck.parse_cards(hand)
    if dealer is None:
        dealer = (seat - 1 - len(auction)) % players_of(game, options)
    extra = dict(params or {})
    if turned is not None:
        try:
            extra["turned"] = deck.card(turned)
        except NotationError as e:
            raise AtoutError(f"turned card: {e}") from None
    return Context(game, cards, seat, dealer, options, auction, extra)

@dataclass
class Row:
    option: str
    n: int
    p_make: float | None
    mean: float
    stdev: float
    quantiles: dict[str, float]
    scores: list[float] = field(repr=False, default_factory=list)

    def to_json(self, with_scores: bool = False) -> dict[str, Any]:
        d = {"option": self.option, "n": self.n, "p_make": self.p_make,
             "mean": self.mean, "stdev": self.stdev, "quantiles": self.quantiles}
        if with_scores:
            d["scores"] = self.scores
        return d


@dataclass
class Evaluation:
    game: str
    mode: str
    samples: int
    seed: int
    rows: list[Row]
    recommended: str
    seconds: float
    notes: list[str] = field(default_factory=list)

    def to_json(self, with_scores: bool = False) -> dict[str, Any]:
        return {"game": self.game, "mode": self.mode, "samples": self.samples,
                "seed": self.seed, "recommended": self.recommended,
                "seconds": self.seconds, "notes": self.notes,
                "options": [r.to_json(with_scores) for r in self.rows]}


def _quantiles(values: list[float]) -> dict[str, float]:
    v = sorted(values)
    out = {}
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        k = min(len(v) - 1, max(0, int(round(q * (len(v) - 1)))))
        out[f"q{int(q * 100):02d}"] = v[k]
    return out


def make_evaluator(ctx: Context):
    if ctx.game not in BIDDING_MODULES:
        raise OptionError(f"no bid analysis for game {ctx.game!r}")
    try:
        module = importlib.import_module(BIDDING_MODULES[ctx.game])
    except ImportError:
        raise AtoutError(f"bid analysis for {ctx.game} is not available yet") from None
    return module.make_evaluator(ctx)


def evaluate(ctx: Context, samples: int = 200, seed: int = 0, mode: str = "dd",
             progress: Callable[[int], None] | None = None, evaluator=None,
             threads: int = 1, seconds: float | None = None) -> Evaluation:
    """Evaluate every candidate decision over ``samples`` worlds drawn from ``seed``
    (``evaluator``: one already made by ``make_evaluator(ctx)``, which validates).
    ``threads``: worlds scored in parallel (``solver.parallel``); same result.
    ``seconds``: a time budget; the worlds scored when it runs out (at least one, in
    sampling order) make the table (``Evaluation.samples`` says how many)."""
    if mode not in MODES:
        raise OptionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if samples < 1:
        raise OptionError("samples must be at least 1")
    check_threads(threads)
    if seconds is not None and not seconds > 0:
        raise OptionError(f"seconds must be positive, got {seconds!r}")
    start = time.monotonic()
    ev = evaluator if evaluator is not None else make_evaluator(ctx)
    names = ev.candidates()
    rng = random.Random(f"evaluate-{seed}")
    scores: dict[str, list[float]] = {n: [] for n in names}
    made: dict[str, list[bool]] = {n: [] for n in names}
    # every world is drawn first, in order, from the one seeded stream
    worlds = [ev.sample(rng) for _ in range(samples)]
    for res in ordered_map(lambda w: ev.outcomes(w, mode), worlds, threads):
        for n in names:
            o = res[n]
            scores[n].append(float(o.score))
            if o.made is not None:
                made[n].append(bool(o.made))
        if progress:
            progress(1)
        if seconds is not None and time.monotonic() - start > seconds:
            break
    rows = []
    for n in names:
        s = scores[n]
        rows.append(Row(n, len(s), (sum(made[n]) / len(made[n])) if made[n] else None,
                        statistics.fmean(s), statistics.pstdev(s), _quantiles(s), s))
    rows.sort(key=lambda r: -r.mean)
    rec = ev.recommend(rows) if hasattr(ev, "recommend") else rows[0].option
    notes = list(getattr(ev, "notes", []))
    done = len(scores[names[0]])
    if done < samples:
        notes.append(f"time budget: {done} of {samples} worlds scored")
    return Evaluation(ctx.game, mode, done, seed, rows, rec, time.monotonic() - start,
                      notes)


def draw_matching(pool: list[int], size: int, gap: Callable[[list[int]], Any],
                  rng: random.Random, tries: int, repair: int = 0,
                  mix: int = 0, restarts: int = 3) -> tuple[list[int], list[int], bool]:
    """``size`` cards of ``pool`` (shuffled) whose ``gap`` is 0 (falsy): the hand with
    which a seat that has called makes the same calls as the heuristic bidder.

    Rejection first (the first cards of the pool, then up to ``tries`` uniform draws:
    a match is uniform among matching hands). For calls too rare for that (a strong
    bid), ``repair`` swaps of one card with the rest of the pool that never increase
    the gap (``gap`` returns something ordered: 0 when it matches), then ``mix`` swaps
    that keep it at 0 to spread the hands reached. A climb can stall one step short of
    a rare count (no single swap gets there), so up to ``restarts`` more climbs start
    from fresh draws. Returns the cards, the rest of the pool and whether they match
    (if not: the closest hand found)."""
    part = pool[:size]
    ok = not gap(part)
    for _ in range(tries if not ok else 0):
        part = rng.sample(pool, size)
        if not gap(part):
            ok = True
            break
    taken = set(part)
    rest = [c for c in pool if c not in taken]
    if ok or not repair or not rest:
        return part, rest, ok
    best: tuple[Any, list[int], list[int]] | None = None
    for attempt in range(1 + restarts):
        if attempt:
            part = rng.sample(pool, size)
            taken = set(part)
            rest = [c for c in pool if c not in taken]
        part, g = _climb(list(part), rest, gap, rng, repair)
        if not g:
            break
        if best is None or g < best[0]:
            best = (g, part, rest)  # each climb has lists of its own
    else:
        return best[1], best[2], False
    for _ in range(mix):
        i, j = rng.randrange(size), rng.randrange(len(rest))
        part[i], rest[j] = rest[j], part[i]
        if gap(part):
            part[i], rest[j] = rest[j], part[i]
    return part, rest, True


def _climb(part: list[int], rest: list[int], gap: Callable[[list[int]], Any],
           rng: random.Random, steps: int) -> tuple[list[int], Any]:
    """Up to ``steps`` random swaps between ``part`` and ``rest`` (both changed in
    place) that never increase ``gap``; stops at 0. Returns ``part`` and its gap."""
    g = gap(part)
    for _ in range(steps):
        if not g:
            break
        i, j = rng.randrange(len(part)), rng.randrange(len(rest))
        part[i], rest[j] = rest[j], part[i]
        g2 = gap(part)
        if g2 <= g:
            g = g2
        else:
            part[i], rest[j] = rest[j], part[i]
    return part, g


def calls_note(misfits: int, effort: str) -> str:
    """The notes' line on worlds conditioned on the others' calls."""
    return ("others' calls: every world gives each seat that called a hand the heuristic "
            "bidder would have called with"
            + (f" ({misfits} world draws could not match, {effort} per seat)"
               if misfits else ""))


def public_view(state: Any, seat: int) -> tuple[dict[str, Any], list]:
    """What ``seat`` saw when it called (its observation without its hand, and its
    legal calls): with a world's hand added, the heuristic bidder's input."""
    obs = state.observation(seat)
    obs.pop("hand", None)
    return obs, state.legal_moves()


Heard = dict[int, list[tuple[dict[str, Any], list, Any]]]


def replay_auction(state: Any, auction: list[str], seat: int, heard: Heard | None = None,
                   rule: str = "", turn: bool = True) -> Any:
    """Play the auction tokens on ``state`` (a deal holding ``seat``'s hand) and, with
    ``turn``, check that it is then ``seat``'s call. With ``heard``, every other seat's
    call is recorded there with what that seat saw (``public_view``): worlds then give
    those seats hands with which the heuristic bidder makes the same calls. One clear
    error names the first token that is not a legal call."""
    for i, tok in enumerate(auction, 1):
        if state.phase != "bid":
            raise AtoutError(f"auction call {i} ({tok}): the auction is already over")
        caller = state.to_act
        before = public_view(state, caller) if heard is not None and caller != seat else None
        try:
            state.play(tok)
        except AtoutError as e:
            raise AtoutError(f"auction call {i} ({tok}): {e}") from None
        if before is not None:
            obs, legal = before
            heard.setdefault(caller, []).append((obs, legal, state.history[-1]))
    if turn and (state.phase != "bid" or state.to_act != seat):
        raise AtoutError(f"after this auction it is not seat {seat}'s call{rule}")
    return state


# DD worlds are optimistic for the side that plays them (it sees every card): choosing
# the best expected score overbids (measured: Coinche contracts made 31% of the time,
# Belote 69%, against 91% / 80% for the heuristic bidder). Simulated bidding therefore
# plays a contract only when the worlds make it almost always.
MAKE_FLOOR = 0.9


def cautious_choice(rows: list[Row], free: tuple[str, ...] = ("pass",),
                    floor: float = MAKE_FLOOR) -> str:
    """The best-scoring option (rows best first) among ``free`` ones (pass, doubles)
    and contracts the sampled worlds make at least ``floor`` of the time; else pass."""
    return next((r.option for r in rows if r.option in free
                 or (r.p_make is not None and r.p_make >= floor)), "pass")


def format_evaluation(e: Evaluation, limit: int | None = None) -> str:
    lines = [f"{e.game} bid analysis: {e.samples} worlds, mode {e.mode}, seed {e.seed} "
             f"({e.seconds:.2f} s)",
             f"{'option':<16} {'P(make)':>8} {'E[score]':>9} {'q05':>7} {'q50':>7} {'q95':>7}"]
    for r in e.rows[:limit]:
        p = "-" if r.p_make is None else f"{100 * r.p_make:.0f}%"
        mark = "  <- recommended" if r.option == e.recommended else ""
        lines.append(f"{r.option:<16} {p:>8} {r.mean:>9.1f} {r.quantiles['q05']:>7.0f} "
                     f"{r.quantiles['q50']:>7.0f} {r.quantiles['q95']:>7.0f}{mark}")
    if limit is not None and len(e.rows) > limit:
        lines.append(f"... {len(e.rows) - limit} more options (use --all or --json)")
    lines.append(f"recommended: {e.recommended}")
    lines += [f"note: {n}" for n in e.notes]
    return "\n".join(lines)


def histogram(scores: list[float], width: int = 40, bins: int = 10) -> str:
    """A terminal histogram of a score distribution."""
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return f"{lo:>8.0f} | {'#' * width} {len(scores)}"
    step = (hi - lo) / bins
    counts = [0] * bins
    for s in scores:
        counts[min(bins - 1, int((s - lo) / step))] += 1
    top = max(counts)
    return "\n".join(f"{lo + i * step:>8.0f} | {'#' * round(width * c / top):<{width}} {c}"
                     for i, c in enumerate(counts))
