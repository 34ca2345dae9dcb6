"""The result types shared by the double-dummy modules of every game (``solver.dd.<game>``).

``solve`` returns a :class:`DDResult` (a per-game subclass adds what only that game
reports); ``solve_cards`` maps each legal move to a :class:`CardResult`, the same type for
every game. Values are in each game's own unit (see its module).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(repr=False)
class DDResult:
    """Result of one double-dummy search.

    ``value``: exact value when ``complete``, else None; ``lower``/``upper``: the proven
    interval of the value (both equal ``value`` when complete); ``nodes`` searched;
    ``seconds`` spent; ``stopped``: 'node_budget' or 'deadline' when a limit stopped the
    search (None if complete); ``tt_hits``/``tt_probes``: transposition table counters of
    the search (0 where the core does not count them)."""

    value: int | None
    lower: int
    upper: int
    nodes: int
    complete: bool
    seconds: float
    stopped: str | None = None
    tt_hits: int = 0
    tt_probes: int = 0
    exact: bool = True

    def __repr__(self) -> str:
        v = self.value if self.complete else f"[{self.lower},{self.upper}]"
        stop = "" if self.stopped is None else f", stopped={self.stopped!r}"
        if not self.exact:
            stop += ", estimate"
        return (f"{type(self).__name__}(value={v}, nodes={self.nodes}, "
                f"complete={self.complete}, seconds={self.seconds:.4f}{stop})")


@dataclass(repr=False)
class CardResult(DDResult):
    """Value of one legal move of the seat to act (``solve_cards``), the same type for
    every game. ``card``: the move scored (a ``Move``; a move that is a card played
    with a declaration or a signal gets its card's value). ``nodes``, ``seconds`` and
    the table counters are those of the search that scored the card: Belote/Coinche and
    Tarocchini score all cards in one search, whose totals every card carries; Tarot
    searches each card in turn (after the position's value) and gives its own.
    ``call_nodes``: every node of the ``solve_cards`` call that scored the card, the
    position's search included (the same for all its cards; 0 where that is ``nodes``)."""

    card: Any = None
    call_nodes: int = 0


def nodes_spent(results: dict[Any, CardResult]) -> int:
    """The nodes one ``solve_cards`` call spent, from its results (any game)."""
    return max((r.call_nodes or r.nodes for r in results.values()), default=0)


def limits_spent(budget: int | None, seconds: float | None) -> bool:
    """Whether a node budget or a deadline left (None: no limit) is used up."""
    return (budget is not None and budget <= 0) or (seconds is not None and seconds <= 1e-6)


def answer_from_interval(row: dict[str, Any], yes_from: int, no_to: int) -> bool | None:
    """A card's yes/no question read from its report row's proven value: yes when it
    is at least ``yes_from``, no when at most ``no_to``, None when the row's exact value
    or proven interval does not decide it (Tarot's made, Tarocchini's ahead)."""
    lo, hi = (row["value"], row["value"]) if row["exact"] else \
        (row.get("lower"), row.get("upper"))
    if lo is not None and lo >= yes_from:
        return True
    if hi is not None and hi <= no_to:
        return False
    return None


# The share of the limits a stopped exact analysis (Tarot, Tarocchini) keeps back for
# one probe a card at the position's proven bound, so the whole stays within them
SIDE_SHARE = 0.02


def limits_before_side_probes(node_budget: int | None,
                              deadline: float) -> tuple[int | None, float]:
    """The node budget and deadline an exact analysis gets when SIDE_SHARE of them is
    kept back for its side probes (``side_bounds``)."""
    return (None if node_budget is None else max(1, int(node_budget * (1 - SIDE_SHARE))),
            deadline * (1 - SIDE_SHARE))


def side_bounds(probes: Any, state: Any, cards: list[int], x: int,
                node_budget: int | None, seconds: float, tt_bits: int
                ) -> tuple[dict[int, tuple[int | None, int | None]], int]:
    """The cards a stopped analysis did not finish, each probed once at ``x``, the
    position's proven bound on the side to play's side (``probes``: the game's
    ``card_side_probes``), within what the analysis left of the limits: card ->
    (lower, upper) proven (the cards that keep the bound get it, the others the value
    just past it), and the nodes spent."""
    if not cards or seconds <= 0 or (node_budget is not None and node_budget <= 0):
        return {}, 0
    answers, nodes = probes(state, x, cards, node_budget=node_budget, deadline=seconds,
                            tt_bits=tt_bits)
    return {c: ((x, None) if yes else (None, x - 1))
            for c, yes in answers.items() if yes is not None}, nodes


def narrow(lo: int | None, hi: int | None,
           by: tuple[int | None, int | None] | None) -> tuple[int | None, int | None]:
    """The proven interval (lo, hi) of a value (None: no bound on that side) narrowed
    by another proven one ``by`` (e.g. a stopped analysis' side probe of a card)."""
    if by is None:
        return lo, hi
    if by[0] is not None:
        lo = by[0] if lo is None else max(lo, by[0])
    if by[1] is not None:
        hi = by[1] if hi is None else min(hi, by[1])
    return lo, hi


def estimated_card_row(token: str, r: CardResult, lo: int | None,
                       hi: int | None) -> dict[str, Any]:
    """A card the exact analysis did not finish, as a report row (Tarot, Tarocchini):
    its horizon estimate ``r`` clamped into the proven interval [lo, hi] (``clamped_from``
    keeps the raw estimate), or exact where the two bounds meet (a side probe at a known
    value proved the card from the other side)."""
    if lo is not None and lo == hi:
        return {"move": token, "value": lo, "lower": lo, "upper": hi, "exact": True,
                "complete": True, "nodes": int(r.nodes), "seconds": round(r.seconds, 6),
                "estimate": False}
    v = r.value
    if v is not None and lo is not None:
        v = max(v, lo)
    if v is not None and hi is not None:
        v = min(v, hi)
    row = {"move": token, "value": v, "lower": lo, "upper": hi, "exact": False,
           "complete": bool(r.complete), "nodes": int(r.nodes),
           "seconds": round(r.seconds, 6), "estimate": True}
    if v != r.value:
        row["clamped_from"] = r.value
    return row
