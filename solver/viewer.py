"""The deal viewer (``atout view RECORD -o deal.html``, issue 27): one self-contained
HTML page (inline CSS, JavaScript and SVG suit signs; nothing fetched from a network)
showing a deal of any game: the hands by seat in suit rows, the auction and other
calls, the play trick by trick with step forward/back and a slider, and at every
position each legal card marked with its double-dummy value against the best card
("=" for the best, "-n" for n worse, in the game's unit; ``solver.analyse``), the DD
table and par where the game has them, and, from ``atout review --html``, the review
of every decision with the costly ones highlighted.

The values are computed when the page is written, within ``deadline`` seconds per
position: exact where the solver finishes, otherwise labelled estimates (a "~" and a
dashed mark). The page reads ``#pos=K`` from its address (the position after K moves)
and writes it back as one steps, so a position can be linked; ``#pos=K&walk`` steps
through every position with the forward button and lists what the page shows at each
in a hidden ``<pre id="walk">`` element (what the browser test reads), then shows K.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable
from typing import Any

from .analyse import (
    POSITION_DEADLINE,
    card_of,
    is_card_position,
    position_values,
    record_positions,
)
from .dd import side_of_seat
from .errors import AtoutError
from .notation import Record

# Suit rows in display order: key, name, sign (an SVG symbol of the page) and colour.
SUIT_ROWS = {
    "tarot": [("T", "trumps", "trump", "#5b2c83"), ("S", "spades", "spade", "#111"),
              ("H", "hearts", "heart", "#c0141b"), ("D", "diamonds", "diamond", "#c0141b"),
              ("C", "clubs", "club", "#111"), (None, "excuse", "trump", "#5b2c83")],
    "belote": [("S", "spades", "spade", "#111"), ("H", "hearts", "heart", "#c0141b"),
               ("D", "diamonds", "diamond", "#c0141b"), ("C", "clubs", "club", "#111")],
    "tarocchini": [("T", "trumps", "trump", "#5b2c83"), ("S", "swords", "sword", "#1f4e9c"),
                   ("B", "batons", "baton", "#2e7d32"), ("C", "cups", "cup", "#c0141b"),
                   ("D", "coins", "coin", "#b8860b"), (None, "Matto", "trump", "#5b2c83")],
}

SIDE_LABELS = {"tarot": {1: "attack", 0: "defence"}, "belote": {1: "attack", 0: "defence"},
               "ottocento": {1: "team B", 0: "team A"},
               "terziglio": {1: "opponents", 0: "declarer"}}


def _rank_label(deck: Any, card: int) -> str:
    """A card's rank as printed in its suit row (Belote's T is 10; a trump's number)."""
    token, rank, suit = deck.token(card), deck.rank(card), deck.suit(card)
    if suit is None:
        return token
    if deck.name in ("belote", "coinche") and rank == "T":
        return "10"
    if suit == "T" and rank.startswith("T") and rank[1:].isdigit():
        return rank[1:]
    return rank


def _cards_tokens(deck: Any, hand: Any) -> list[str]:
    cards = deck.cards(hand) if isinstance(hand, int) else list(hand)
    return [deck.token(c) for c in sorted(cards, key=deck.sort_key)]


def _seat_labels(record: Record, state: Any, variant: str) -> list[str | None]:
    """Each seat's side once the contract is known (None where the game has none)."""
    names = SIDE_LABELS.get("belote" if variant == "coinche" else variant, {})
    out: list[str | None] = []
    for seat in range(len(record.deal.hands)):
        try:
            side = side_of_seat(state, seat)
        except AtoutError:
            side = None
        out.append(names.get(side) if side is not None else None)
    return out


def page_data(record: Record, deadline: float | None = POSITION_DEADLINE,
              node_budget: int | None = None, table: bool = True,
              progress: Callable[[int, int], None] | None = None,
              review: dict[str, Any] | None = None,
              known: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Everything the page shows, JSON-ready: per position (after k moves) the hands,
    the trick on the table (or the last one), the seat to act and, at card-play
    positions, every legal card's value (``solver.analyse.position_values``; those
    in ``known``, by move count, are not searched again)."""
    from .dd.report import DEFAULT_DEADLINE, GAME_TITLES, _variant, table_deal, table_of

    deck = record.deck
    variant = _variant(record.game, record.options)
    game_rows = "belote" if record.game == "coinche" else record.game
    moves: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
    last_trick: list[list[Any]] = []
    trick_before: list[list[Any]] = []
    seats: list[str | None] = [None] * len(record.deal.hands)
    final = None
    start = time.monotonic()
    total = len(record.moves) + 1
    unit = None
    for k, state in record_positions(record):
        trick = [[s, deck.token(c)] for s, c in (getattr(state, "trick", None) or [])]
        if k and moves[-1]["card"] is not None and len(trick) <= len(trick_before):
            last_trick = trick_before + [[moves[-1]["seat"], moves[-1]["card"]]]
        elif trick:
            last_trick = []
        frame: dict[str, Any] = {
            "to_act": None if state.is_over() else state.to_act,
            "phase": state.phase,
            "hands": [_cards_tokens(deck, h) for h in state.hands],
            "trick": trick, "last": last_trick if not trick else []}
        if is_card_position(state):
            if all(s is None for s in seats):
                seats = _seat_labels(record, state, variant)
            values = (known or {}).get(k) or position_values(state, deadline, node_budget)
            unit = unit or values["unit"]
            frame["values"] = {k2: values[k2] for k2 in ("exact", "cards", "best", "made", "T")
                               if k2 in values}
        frames.append(frame)
        if k < len(record.moves):
            move = state.parse_move(record.moves[k])
            card = card_of(move)
            moves.append({"seat": state.to_act, "token": record.moves[k], "kind": move.kind,
                          "card": None if card is None else deck.token(card)})
        else:
            final = state
        trick_before = trick
        if progress is not None:
            progress(k + 1, total)
    data: dict[str, Any] = {
        "title": GAME_TITLES.get(variant, record.game), "game": record.game,
        "variant": variant, "players": len(record.deal.hands), "dealer": record.dealer,
        "unit": unit, "deadline": deadline, "node_budget": node_budget,
        "seats": [{"name": f"seat {i}", "side": side} for i, side in enumerate(seats)],
        "suits": [{"key": key, "name": name, "sign": sign, "colour": colour}
                  for key, name, sign, colour in SUIT_ROWS[game_rows]],
        "cards": {deck.token(c): [deck.suit(c), _rank_label(deck, c)]
                  for c in range(deck.size)},
        "piles": {name: [deck.token(c) for c in pile]
                  for name, pile in record.deal.extras.items() if not name.startswith("_")},
        "moves": moves, "frames": frames,
        "scores": list(final.scores()) if final is not None and final.is_over() else None,
        "record": record.to_text(), "review": review,
    }
    if table:
        # as `atout solve --table`: each entry within the table's own deadline, not the
        # positions' limits (Tarot and Tarocchini entries are horizon estimates,
        # labelled; Belote and Coinche exact, which par needs)
        try:
            data["table"] = table_of(table_deal(record), record.game, record.options,
                                     record.dealer, None, None, DEFAULT_DEADLINE)
        except AtoutError as e:
            data["table"] = {"rows": [], "note": f"not computed ({e})"}
    data["seconds"] = round(time.monotonic() - start, 2)
    return data


def _table_html(t: dict[str, Any] | None) -> str:
    """The DD table (and par) as a static HTML table, the cells of ``format_table``."""
    if not t:
        return ""
    from .dd.report import TABLE_HEADS, _par_text, _table_cell

    rows = t["rows"]
    esc = html.escape
    if not rows:
        return f'<p class="note">DD table: {esc(t.get("note") or "(empty)")}</p>'
    keys = [k for k in rows[0] if k not in ("complete", "nodes")]
    if all(r.get("attack_points") is None for r in rows):
        keys = [k for k in keys if k != "attack_points"]
    out = [f'<p class="note">values: {esc(t.get("unit") or "")}</p>',
           '<table id="ddtable"><tr>' +
           "".join(f"<th>{esc(TABLE_HEADS.get(k, k))}</th>" for k in keys) + "</tr>"]
    for r in rows:
        cls = "" if r.get("exact", True) and r.get("complete", True) else ' class="est"'
        out.append(f"<tr{cls}>" + "".join(f"<td>{esc(_table_cell(k, r.get(k), r))}</td>"
                                         for k in keys) + "</tr>")
    out.append("</table>")
    if any(not (r.get("exact", True) and r.get("complete", True)) for r in rows):
        out.append('<p class="note"><span class="estmark">dashed rows</span>: estimates '
                   "(horizon search) or stopped by a limit, not exact values</p>")
    if "par" in t:
        out.append(f'<p id="par"><b>par:</b> {esc(_par_text(t["par"]))}</p>')
    return "\n".join(out)


def render(data: dict[str, Any]) -> str:
    """The self-contained page of :func:`page_data`."""
    payload = json.dumps(data, default=str, separators=(",", ":"))
    # inside a <script> element "</" would end it: JSON allows the escaped form
    payload = payload.replace("</", "<\\/").replace("<!--", "<\\!--")
    esc = html.escape
    deadline, nodes = data.get("deadline"), data.get("node_budget")
    limit = " or ".join(x for x in (f"{deadline:g} s" if deadline else "",
                                    f"{nodes:,} nodes" if nodes else "") if x)
    legend = ("values at each position: the card's double-dummy value against the best "
              "card for the seat to play (<b>=</b> the best, <b>-n</b> n worse), in "
              f"{esc(data.get('unit') or 'the game unit')}. Exact unless marked "
              "<span class=\"estmark\">~ estimate</span> (the exact search did not "
              "finish" + (f" within {limit}" if limit else "") + " a search" +
              ": the horizon search's value).")
    title = f"{data['title']}, {data['players']} players, dealer seat {data['dealer']}"
    return (PAGE.replace("%TITLE%", esc(title))
            .replace("%LEGEND%", legend)
            .replace("%RECORD%", esc(data["record"]))
            .replace("%TABLE%", _table_html(data.get("table")))
            .replace("%PILES%", "".join(
                f'<p class="note" id="pile-{esc(name)}"><b>{esc(name)}:</b> '
                f'{esc(" ".join(cards))}</p>' for name, cards in data["piles"].items()))
            .replace("%DATA%", payload))


def write_page(record: Record, path: str, deadline: float | None = POSITION_DEADLINE,
               node_budget: int | None = None, table: bool = True,
               progress: Callable[[int, int], None] | None = None,
               review: dict[str, Any] | None = None,
               known: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    data = page_data(record, deadline, node_budget, table, progress, review, known)
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(data))
    return data


SVG_SIGNS = """<svg width="0" height="0" style="position:absolute" aria-hidden="true">
<symbol id="spade" viewBox="0 0 16 16"><path d="M8 1C3 6 1 8 1 10.2c0 2.4 3 3.4 6 1.3L6 15h4l-1-3.5c3 2.1 6 1.1 6-1.3C15 8 13 6 8 1z"/></symbol>
<symbol id="heart" viewBox="0 0 16 16"><path d="M8 14.5C1 9.5 1 3 5 3c1.8 0 3 2 3 2s1.2-2 3-2c4 0 4 6.5-3 11.5z"/></symbol>
<symbol id="diamond" viewBox="0 0 16 16"><path d="M8 1l6 7-6 7-6-7z"/></symbol>
<symbol id="club" viewBox="0 0 16 16"><circle cx="8" cy="4.6" r="3.2"/><circle cx="4.4" cy="9.6" r="3.2"/><circle cx="11.6" cy="9.6" r="3.2"/><path d="M7.2 8h1.6L10 15H6z"/></symbol>
<symbol id="trump" viewBox="0 0 16 16"><path d="M8 1l2.1 4.6 5 .5-3.8 3.3 1.1 4.9L8 11.8l-4.4 2.5 1.1-4.9L.9 6.1l5-.5z"/></symbol>
<symbol id="sword" viewBox="0 0 16 16"><path d="M7.3 1h1.4v10h2.6v1.3H8.7V15H7.3v-2.7H4.7V11h2.6z"/></symbol>
<symbol id="baton" viewBox="0 0 16 16"><path d="M3.5 13.2L11 1.8l2 1.2-7.5 11.4z"/></symbol>
<symbol id="cup" viewBox="0 0 16 16"><path d="M3 2h10c0 5-2 7.2-4 7.6V13l3 1v1H4v-1l3-1V9.6C5 9.2 3 7 3 2z"/></symbol>
<symbol id="coin" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6.5"/><circle cx="8" cy="8" r="3.5" fill="#fff"/></symbol>
</svg>"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>%TITLE%</title>
<style>
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:12px;color:#111;background:#f4f1ea}
h1{font-size:20px;margin:0 0 6px}
.note{font-size:12px;color:#444;margin:4px 0}
#wrap{display:flex;gap:14px;align-items:flex-start;flex-wrap:wrap}
#board{position:relative;width:860px;height:600px;background:#1d6b3a;border-radius:14px;
 flex:none}
.seat{position:absolute;transform:translate(-50%,-50%);background:#fffdf7;border-radius:8px;
 padding:5px 8px;min-width:190px;box-shadow:0 1px 4px rgba(0,0,0,.4);font-size:15px}
.seat.act{outline:3px solid #ffcf33}
.seat h3{margin:0 0 3px;font-size:13px;color:#333}
.row{white-space:nowrap;line-height:25px}
.sign{width:15px;height:15px;vertical-align:-2px;margin-right:4px}
.c{display:inline-block;padding:0 3px;margin:0 1px;border-radius:3px;position:relative}
.c.legal{background:#e8f0ff;font-weight:bold}
.c.next{outline:2px solid #e65100}
.v{font-size:11px;font-weight:bold;margin-left:1px;color:#1b5e20}
.v.bad{color:#b71c1c}
.v.est{font-style:italic;color:#6d4c41;border-bottom:1px dashed #6d4c41}
#trick{position:absolute;left:50%;top:50%;width:1px;height:1px}
.tc{position:absolute;transform:translate(-50%,-50%);background:#fff;border-radius:6px;
 width:46px;height:62px;display:flex;flex-direction:column;align-items:center;
 justify-content:center;font-weight:bold;font-size:17px;box-shadow:0 1px 3px #000}
.tc.old{opacity:.55}
#trickinfo{position:absolute;left:50%;top:50%;transform:translate(-50%,112px);color:#fff;
 font-size:12px;white-space:nowrap}
#controls{margin:8px 0;display:flex;gap:6px;align-items:center;width:860px}
#controls button{font-size:16px;min-width:40px}
#slider{flex:1}
#posinfo{font-size:14px;margin:4px 0;width:860px}
#side{flex:1;min-width:330px;max-width:560px;font-size:13px}
#side h2{font-size:15px;margin:10px 0 4px}
table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}
th{background:#e6e0d2}
td:first-child{text-align:left}
tr.est td{font-style:italic;border-style:dashed}
.estmark{font-style:italic;border-bottom:1px dashed #6d4c41}
#auction span,#play span{display:inline-block;margin:1px 2px;padding:0 3px;cursor:pointer;
 border-radius:3px}
#auction span.done,#play span.done{color:#777}
#auction span.now,#play span.now{background:#ffcf33;color:#000}
#play div{white-space:nowrap}
#review tr.mistake td{background:#ffc9c0}
#review tr.unlucky td{background:#fff2c6}
#review tr.now td{outline:2px solid #e65100}
#review tr{cursor:pointer}
#record{font-family:"DejaVu Sans Mono",monospace;font-size:11px;word-break:break-all;
 color:#555}
</style></head><body>
%SVG%
<h1>%TITLE%</h1>
<p class="note">%LEGEND%</p>
<div id="wrap"><div>
<div id="board"><div id="trick"></div><div id="trickinfo"></div></div>
<div id="controls"><button id="first" title="start">&laquo;</button>
<button id="prev" title="back one move (left arrow)">&#x25C0;</button>
<input id="slider" type="range" min="0" value="0">
<button id="next" title="forward one move (right arrow)">&#x25B6;</button>
<button id="last" title="end">&raquo;</button></div>
<div id="posinfo"></div>
</div>
<div id="side">
<h2>Cards at this position</h2><div id="valuesbox"></div>
<h2>Auction and calls</h2><div id="auction"></div>
%PILES%
<h2>Play</h2><div id="play"></div>
<div id="reviewbox"></div>
<h2>DD table</h2>%TABLE%
<p id="scores"></p>
<p id="record">%RECORD%</p>
</div></div>
<script id="deal-data" type="application/json">%DATA%</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("deal-data").textContent);
const N = D.moves.length, P = D.players;
const SUIT = {}; D.suits.forEach(s => SUIT[String(s.key)] = s);
let pos = 0;
function el(tag, cls, text) {
  const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; return e;
}
function sign(s) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg"); svg.setAttribute("class", "sign");
  svg.setAttribute("fill", s.colour);
  const u = document.createElementNS(ns, "use"); u.setAttribute("href", "#" + s.sign);
  svg.appendChild(u); return svg;
}
function lossText(r) {
  if (r.loss === null || r.loss === undefined) return "?";
  const t = r.loss === 0 ? "=" : "-" + r.loss;
  return r.exact ? t : "~" + t;
}
function seatXY(seat, rx, ry) {
  const a = 2 * Math.PI * seat / P;
  return [430 - rx * Math.sin(a), 300 + ry * Math.cos(a)];
}
function valuesByCard(f) {
  const m = {};
  if (f.values) f.values.cards.forEach(r => { if (!(r.card in m)) m[r.card] = r; });
  return m;
}
function drawSeats(f) {
  document.querySelectorAll(".seat").forEach(e => e.remove());
  const board = document.getElementById("board");
  const vals = valuesByCard(f), next = pos < N ? D.moves[pos] : null;
  for (let s = 0; s < P; s++) {
    const box = el("div", "seat" + (f.to_act === s ? " act" : ""));
    box.id = "seat" + s;
    const [x, y] = seatXY(s, P === 4 ? 300 : 320, 225);
    box.style.left = x + "px"; box.style.top = y + "px";
    const info = D.seats[s];
    box.appendChild(el("h3", "", info.name + (info.side ? " (" + info.side + ")" : "") +
      (s === D.dealer ? ", dealer" : "") + (f.to_act === s ? ", to play" : "")));
    const groups = {};
    f.hands[s].forEach(t => { const k = String(D.cards[t][0]);
      (groups[k] = groups[k] || []).push(t); });
    D.suits.forEach(su => {
      const cards = groups[String(su.key)]; if (!cards) return;
      const row = el("div", "row"); row.appendChild(sign(su));
      row.style.color = su.colour;
      cards.forEach(t => {
        const r = f.to_act === s ? vals[t] : undefined;
        const c = el("span", "c" + (r ? " legal" : "") +
          (next && next.seat === s && next.card === t ? " next" : ""), D.cards[t][1]);
        c.dataset.card = t;
        if (r) {
          const v = el("sup", "v" + (r.exact ? "" : " est") + (r.loss ? " bad" : ""),
                       lossText(r));
          c.appendChild(v);
        }
        row.appendChild(c);
      });
      box.appendChild(row);
    });
    board.appendChild(box);
  }
}
function drawTrick(f) {
  const t = document.getElementById("trick"); t.innerHTML = "";
  const cards = f.trick.length ? f.trick : f.last, old = !f.trick.length;
  cards.forEach(([s, tok]) => {
    const su = SUIT[String(D.cards[tok][0])];
    const c = el("div", "tc" + (old ? " old" : "")); c.dataset.card = tok;
    c.style.color = su.colour; c.appendChild(sign(su));
    c.appendChild(el("span", "", D.cards[tok][1]));
    const [x, y] = seatXY(s, 70, 62);
    c.style.left = (x - 430) + "px"; c.style.top = (y - 300) + "px"; t.appendChild(c);
  });
  document.getElementById("trickinfo").textContent = old && cards.length ?
    "last trick" : "";
}
function drawValues(f) {
  const box = document.getElementById("valuesbox"); box.innerHTML = "";
  if (!f.values) {
    box.appendChild(el("p", "note", f.to_act === null ? "the deal is over" :
      "no card play at this position (seat " + f.to_act + " decides a " +
      (pos < N ? D.moves[pos].kind : "move") + ")"));
    return;
  }
  const v = f.values;
  const tbl = el("table"); tbl.id = "values";
  tbl.dataset.pos = pos; tbl.dataset.exact = v.exact ? "1" : "0";
  const head = el("tr"); ["card", "value", "vs best", ""].forEach(h =>
    head.appendChild(el("th", "", h))); tbl.appendChild(head);
  v.cards.forEach(r => {
    const tr = el("tr", "valrow" + (r.exact ? "" : " est"));
    tr.dataset.move = r.move; tr.dataset.value = r.value === null ? "" : r.value;
    tr.dataset.loss = r.loss === null ? "" : r.loss; tr.dataset.exact = r.exact ? "1" : "0";
    tr.appendChild(el("td", "", r.move));
    tr.appendChild(el("td", "", r.value === null ? "stopped" : String(r.value)));
    tr.appendChild(el("td", "", lossText(r)));
    tr.appendChild(el("td", "", r.exact ? "exact" : (r.value === null ?
      "stopped" : "estimate")));
    tbl.appendChild(tr);
  });
  box.appendChild(tbl);
  if (v.made !== undefined) box.appendChild(el("p", "note", "contract made (DD): " +
    (v.made === null ? "unknown (not proven in time)" : (v.made ? "yes" : "no")) +
    (v.T && v.T.exact ? ", T = " + v.T.value : (v.T ? ", T in [" + v.T.lower + ", " +
      v.T.upper + "]" : ""))));
}
function drawMoves() {
  const a = document.getElementById("auction"), p = document.getElementById("play");
  a.innerHTML = ""; p.innerHTML = "";
  let row = null, inTrick = 0;
  D.moves.forEach((m, i) => {
    const s = el("span", i < pos ? "done" : (i === pos ? "now" : ""),
                 (m.card ? "" : "seat " + m.seat + ": ") + m.token);
    s.title = "seat " + m.seat + " (position " + i + ")";
    s.onclick = () => show(i);
    if (m.card === null) { a.appendChild(s); return; }
    if (!row || inTrick === P) { row = el("div"); p.appendChild(row); inTrick = 0;
      row.appendChild(el("b", "", "trick " + (p.children.length) + ": ")); }
    s.textContent = m.token; row.appendChild(s); inTrick++;
  });
  if (!a.children.length) a.textContent = "(none)";
}
function drawReview() {
  const R = D.review, box = document.getElementById("reviewbox");
  if (!R) return;
  box.innerHTML = "";
  box.appendChild(el("h2", "", "Review"));
  box.appendChild(el("p", "note", R.legend));
  const tbl = el("table"); tbl.id = "review";
  const head = el("tr"); R.columns.forEach(h => head.appendChild(el("th", "", h)));
  tbl.appendChild(head);
  R.rows.forEach(r => {
    const tr = el("tr", r.verdict + (r.k === pos ? " now" : ""));
    tr.dataset.k = r.k; tr.onclick = () => show(r.k);
    r.cells.forEach(c => tr.appendChild(el("td", "", c))); tbl.appendChild(tr);
  });
  box.appendChild(tbl);
  const tot = el("table"); tot.id = "review-totals";
  const th = el("tr"); R.total_columns.forEach(h => th.appendChild(el("th", "", h)));
  tot.appendChild(th);
  R.totals.forEach(cells => { const tr = el("tr");
    cells.forEach(c => tr.appendChild(el("td", "", c))); tot.appendChild(tr); });
  box.appendChild(el("h2", "", "Per seat")); box.appendChild(tot);
}
function show(k) {
  pos = Math.max(0, Math.min(N, k));
  const f = D.frames[pos];
  drawSeats(f); drawTrick(f); drawValues(f); drawMoves(); drawReview();
  document.getElementById("slider").value = pos;
  const info = document.getElementById("posinfo");
  info.dataset.pos = pos; info.dataset.toAct = f.to_act === null ? "" : f.to_act;
  info.textContent = "position " + pos + " of " + N + (pos < N ? ": seat " + f.to_act +
    " to play, then " + D.moves[pos].token : ": the deal is over");
  if (location.hash !== "#pos=" + pos) history.replaceState(null, "", "#pos=" + pos);
}
document.getElementById("slider").max = N;
document.getElementById("slider").oninput = e => show(+e.target.value);
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(pos - 1);
document.getElementById("next").onclick = () => show(pos + 1);
document.getElementById("last").onclick = () => show(N);
document.addEventListener("keydown", e => {
  if (e.key === "ArrowLeft") show(pos - 1); else if (e.key === "ArrowRight") show(pos + 1);
});
window.addEventListener("hashchange", () => fromHash());
function walk() {
  // #pos=K&walk: step through every position with the forward button, then one back,
  // list what the page shows at each (the browser test reads it), and go back to K
  const start = pos; show(0); const out = [];
  for (;;) {
    const rows = [...document.querySelectorAll("#values tr.valrow")].map(tr => ({
      move: tr.dataset.move, value: tr.dataset.value, loss: tr.dataset.loss,
      exact: tr.dataset.exact, shown: tr.children[2].textContent,
      label: tr.children[3].textContent}));
    const marks = [...document.querySelectorAll(".seat.act .c sup.v")].map(v =>
      [v.parentElement.dataset.card, v.textContent]);
    const info = document.getElementById("posinfo");
    out.push({pos: +info.dataset.pos, to_act: info.dataset.toAct, rows: rows,
              marks: marks, trick: [...document.querySelectorAll("#trick .tc")].map(
                c => c.dataset.card)});
    if (pos >= N) break;
    document.getElementById("next").click();
  }
  document.getElementById("prev").click();
  const pre = el("pre"); pre.id = "walk"; pre.style.display = "none";
  pre.textContent = JSON.stringify({frames: out, back: pos, start: start});
  document.body.appendChild(pre);
  show(start);
}
function fromHash() {
  const m = /pos=(\\d+)/.exec(location.hash), walking = /walk/.test(location.hash);
  if (m) show(+m[1]); else {
    const first = D.frames.findIndex(f => f.values);
    show(first < 0 ? 0 : first);
  }
  if (walking) walk();
}
if (D.scores) document.getElementById("scores").textContent =
  "scores: " + D.scores.map((s, i) => "seat " + i + " " + s).join(", ");
fromHash();
</script></body></html>
""".replace("%SVG%", SVG_SIGNS)
