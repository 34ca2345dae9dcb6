"""One seat's view of a deal: what that seat knows and nothing more.

A *view* is the seat-view counterpart of a record (docs/PROTOCOL.md, "Positions"): the
game, options, dealer, the seat, its dealt hand, the piles it has seen whole (the Tarot
dog when shown, the Belote turned card, the Ottocento talon for the dealer), the cards
it received later from a pile it did not see whole (Belote's stock cards, the Terziglio
stock for the gioco declarer), and every move of the deal in order, where another
seat's private move is masked with ``?`` (``discard:?``, ``announce:tierce:?``).

Text form, PBN-style tags on one line::

    [Game "belote"][Dealer "3"][Seat "1"][Hand "KS QS 9S TH 8H"][Piles "turned: QH"]
    [Received "7D AD 9C"][Moves "take JH 8H ..."]

JSON: ``{"game", "options", "dealer", "seat", "hand": [...], "piles": {name: [...]},
"received": [...], "moves": [...]}``.

``state_from_view(view)`` builds a full game state consistent with the view: the
cards the seat cannot see are drawn (solver.constraints' sampler once the card play
has begun, so voids, shown and declared cards are respected) and the masked moves are
chosen among the legal ones. Its ``observation(view.seat)`` is the seat's, so an honest
agent (one that reads only the observation) makes the same move from the view as from
the full record, for the same seed. ``view_of(record, seat)`` is the view of a record.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from .cards import DECKS, bit_list
from .errors import AtoutError, IllegalMoveError, NotationError
from .notation import Deal, Record, json_object
from .options import format_value, parse_options

MASK = "?"
# Draws of the hidden cards tried to make one public move fit, and fresh deals tried
# before the card play.
MAX_DRAWS = 3000
MAX_RESTARTS = 400


@dataclass
class View:
    game: str
    options: dict[str, Any]
    dealer: int
    seat: int
    hand: list[int]
    piles: dict[str, list[int]] = field(default_factory=dict)
    received: list[int] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)

    @property
    def deck(self):
        return DECKS[self.game]

    # --- notation ---------------------------------------------------------------
    def to_text(self) -> str:
        d = self.deck
        opts = ",".join(f"{k}={format_value(v)}" for k, v in self.options.items())
        tags = [("Game", self.game), ("Options", opts), ("Dealer", str(self.dealer)),
                ("Seat", str(self.seat)), ("Hand", d.format_cards(self.hand, sort=False))]
        if self.piles:
            tags.append(("Piles", " | ".join(f"{k}: {d.format_cards(v, sort=False)}"
                                             for k, v in self.piles.items())))
        if self.received:
            tags.append(("Received", d.format_cards(self.received, sort=False)))
        tags.append(("Moves", " ".join(self.moves)))
        return "".join(f'[{k} "{v}"]' for k, v in tags)

    def to_json(self) -> dict[str, Any]:
        d = self.deck
        return {"game": self.game,
                "options": {k: list(v) if isinstance(v, tuple) else v
                            for k, v in self.options.items()},
                "dealer": self.dealer, "seat": self.seat,
                "hand": [d.token(c) for c in self.hand],
                "piles": {k: [d.token(c) for c in v] for k, v in self.piles.items()},
                "received": [d.token(c) for c in self.received],
                "moves": list(self.moves)}

    @classmethod
    def from_text(cls, text: str) -> View:
        text = text.strip()
        tags: dict[str, str] = {}
        pos = 0
        for m in _TAG.finditer(text):
            if text[pos:m.start()].strip():
                raise NotationError("unexpected text in view", _short(text[pos:m.start()]), pos)
            tags[m.group(1)] = m.group(2)
            pos = m.end()
        if text[pos:].strip():
            raise NotationError("unexpected text in view", _short(text[pos:]), pos)
        unknown = set(tags) - {"Game", "Options", "Dealer", "Seat", "Hand", "Piles",
                               "Received", "Moves"}
        if unknown:
            raise NotationError(f"unknown view tag {sorted(unknown)[0]!r}")
        for required in ("Game", "Seat", "Hand"):
            if required not in tags:
                raise NotationError(f"view has no [{required} \"...\"] tag")
        game = tags["Game"]
        if game not in DECKS:
            raise NotationError("unknown game", game)
        deck = DECKS[game]
        piles: dict[str, list[int]] = {}
        for part in filter(str.strip, tags.get("Piles", "").split("|")):
            m = re.match(r"\s*([A-Za-z_]+)\s*:(.*)$", part)
            if not m:
                raise NotationError("expected 'name: cards' in Piles", _short(part))
            piles[m.group(1)] = deck.parse_cards(m.group(2))
        return cls(game, parse_options(tags.get("Options", "")),
                   _seat_number(tags.get("Dealer", "0"), "dealer"),
                   _seat_number(tags["Seat"], "seat"), deck.parse_cards(tags["Hand"]),
                   piles, deck.parse_cards(tags.get("Received", "")),
                   tags.get("Moves", "").split())

    @classmethod
    def from_json(cls, obj: Any) -> View:
        obj = json_object(obj, "view")
        game = obj.get("game")
        if game not in DECKS:
            raise NotationError("unknown game", _short(str(game)))
        deck = DECKS[game]
        opts = obj.get("options") or {}
        if not isinstance(opts, dict):
            raise NotationError("options must be an object of name: value")
        piles = obj.get("piles") or {}
        if not isinstance(piles, dict):
            raise NotationError("piles must be an object of name: cards")
        moves = obj.get("moves") or []
        if isinstance(moves, str):
            moves = moves.split()
        if not isinstance(moves, list) or not all(isinstance(t, str) for t in moves):
            raise NotationError("moves must be a list of tokens")
        for name in ("dealer", "seat"):
            v = obj.get(name, 0 if name == "dealer" else None)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise NotationError(f"{name} must be a seat number", _short(str(v)))
        return cls(game, {k: tuple(v) if isinstance(v, list) else v for k, v in opts.items()},
                   obj.get("dealer", 0), obj["seat"], _cards(deck, obj.get("hand"), "hand"),
                   {str(k): _cards(deck, v, k) for k, v in piles.items()},
                   _cards(deck, obj.get("received") or [], "received"), list(moves))


def parse_view(value: str | dict) -> View:
    """A view as text (tag form), JSON text or a JSON object."""
    if isinstance(value, dict):
        return View.from_json(value)
    text = value.strip()
    return View.from_json(text) if text.startswith("{") else View.from_text(text)


_TAG = re.compile(r'\[\s*([A-Za-z]+)\s+"([^"]*)"\s*\]')


def _short(text: str, n: int = 40) -> str:
    text = text.strip()
    return text if len(text) <= n else text[:n] + "..."


def _seat_number(text: str, what: str) -> int:
    if not text.strip().isdigit():
        raise NotationError(f"{what} must be a seat number", _short(text))
    return int(text)


def _cards(deck, value: Any, what: str) -> list[int]:
    if isinstance(value, str):
        return deck.parse_cards(value)
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise NotationError(f"{what} must be a list of card tokens")
    return deck.parse_cards(" ".join(value))


# --- the view of a record ----------------------------------------------------------
SEQUENCES = ("tierce", "quarte", "quinte")


def _mask_token(game: str, token: str, obs: dict, actor: int) -> str:
    """The token as a seat sees another seat's move (``obs``: its final observation)."""
    kind, _, rest = token.partition(":")
    if kind == "discard" and game in ("tarot", "tarocchini"):
        if game == "tarot":
            card = DECKS[game].card(rest)
            if (obs.get("ecart_shown") or 0) >> card & 1:
                return token  # a trump put in the écart is shown (TAROT-DOG-2)
        return "discard:" + MASK
    if kind == "announce" and game in ("belote", "coinche"):
        sort, _, _top = rest.partition(":")
        if sort in SEQUENCES and actor not in (obs.get("shown") or {}):
            # BELOTE-ANN-5: the winning team's announced cards are shown from trick 2
            return f"announce:{sort}:{MASK}"
    return token


def view_of(record: Record, seat: int, at: int | None = None) -> View:
    """What ``seat`` knows of the record (after ``at`` moves, default all)."""
    from .games import get_game

    moves = record.moves if at is None else record.moves[:at]
    module = get_game(record.game)
    state = module.new_state(options=record.options, dealer=record.dealer, deal=record.deal)
    n = len(state.hands)
    if not 0 <= seat < n:
        raise AtoutError(f"seat {seat}: the game has seats 0..{n - 1}")
    actors, held, belote = [], state.hands[seat], set()
    auto = record.game in ("belote", "coinche") and not state.options.get("belote_optional")
    for i, tok in enumerate(moves):
        actors.append(state.to_act)
        before = _belotes(state, seat) if auto else 0
        state.play(tok)
        held |= state.hands[seat]
        if auto and _belotes(state, seat) > before and ":" not in tok:
            belote.add(i)
    obs = state.observation(seat)
    deal = record.deal
    hand = list(deal.hands[seat])
    five = deal.extras.get("_first_five")
    if five:  # Ottocento: the seat's first five (then second five) cards first
        order = five[5 * seat:5 * seat + 5]
        ten = deal.extras.get("_second_five")
        if ten:
            order += ten[5 * seat:5 * seat + 5]
        hand = order + [c for c in hand if c not in order]
    piles: dict[str, list[int]] = {}
    if record.game == "tarot" and obs.get("dog"):
        piles["dog"] = list(deal.extras["dog"])
    if record.game == "belote":
        piles["turned"] = list(deal.extras["turned"])
    if record.game == "tarocchini" and "talon" in deal.extras and seat == record.dealer:
        piles["talon"] = list(deal.extras["talon"])
    known = set(hand) | {c for p in piles.values() for c in p}
    received = [c for c in bit_list(held) if c not in known]
    toks = [t if a == seat else _mask_token(record.game, t, obs, a)
            for a, t in zip(actors, moves, strict=True)]
    toks = [f"belote:{t}" if i in belote and actors[i] != seat else t
            for i, t in enumerate(toks)]
    return View(record.game, dict(record.options), record.dealer, seat, hand, piles,
                received, toks)


# --- a full state from a view -----------------------------------------------------
def check_view(view: View):
    """Structural checks; returns the template deal (the game's pile shapes)."""
    from .games import get_game

    module = get_game(view.game)
    try:
        template = module.new_state(options=view.options, dealer=view.dealer,
                                    seed=0).to_record().deal
    except AtoutError:
        raise
    except Exception as e:  # an option value the game rejects late
        raise AtoutError(f"invalid options: {e}") from None
    n = len(template.hands)
    deck = view.deck
    if not 0 <= view.seat < n:
        raise AtoutError(f"seat {view.seat}: the game has seats 0..{n - 1}")
    if not 0 <= view.dealer < n:
        raise AtoutError(f"dealer {view.dealer}: the game has seats 0..{n - 1}")
    want = len(template.hands[view.seat])
    if len(view.hand) != want:
        raise AtoutError(f"the hand has {len(view.hand)} cards, a {view.game} hand "
                         f"has {want}")
    seen: dict[int, str] = {}
    groups = [("the hand", view.hand), ("received", view.received)]
    groups += [(f"pile {k}", v) for k, v in view.piles.items()]
    for name, cards in groups:
        for c in cards:
            if c in seen:
                raise AtoutError(f"card {deck.token(c)} seen twice ({seen[c]} and {name})")
            seen[c] = name
    for k, v in view.piles.items():
        if k not in template.extras or k.startswith("_"):
            raise AtoutError(f"no pile {k!r} in {view.game} (piles: "
                             f"{', '.join(p for p in template.extras if not p.startswith('_')) or 'none'})")
        if len(v) != len(template.extras[k]):
            raise AtoutError(f"pile {k} has {len(v)} cards, not {len(template.extras[k])}")
    return template


def _fill(view: View, template: Deal, rng: random.Random) -> Deal:
    """A deal: the view's cards where it knows them, the unseen cards shuffled."""
    deck = view.deck
    known = set(view.hand) | {c for v in view.piles.values() for c in v}
    rest = [c for c in range(deck.size) if c not in known]
    # the received cards go to other places than the seat's hand
    rng.shuffle(rest)
    hands = []
    for s, h in enumerate(template.hands):
        if s == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append([rest.pop() for _ in h])
    extras = {}
    for k, pile in template.extras.items():
        if k.startswith("_"):
            continue
        extras[k] = list(view.piles[k]) if k in view.piles else [rest.pop() for _ in pile]
    return Deal(hands, extras)


def _move_cards(state, move) -> list[int]:
    """Cards a move shows to be in the mover's hand."""
    v = move.value
    if move.kind in ("card", "belote", "show") and isinstance(v, int):
        return [v]
    if move.kind == "signal" and isinstance(v, tuple):
        return [v[0]]
    if move.kind == "decl":
        return _decl_cards(state, move)
    return []


def _decl_cards(state, move) -> list[int]:
    tok = state.move_token(move)
    parts = tok.split(":")
    if len(parts) == 3 and parts[2]:
        try:
            return [state.deck.card(t) for t in parts[2].split("+")]
        except (NotationError, KeyError):
            return []
    return []


class _Conflict(Exception):
    pass


def state_from_view(view: View, seed: int = 0):
    """A full game state consistent with ``view`` (raises AtoutError naming the problem
    when there is none). ``seed`` only chooses the unseen cards."""
    from .games import get_game

    template = check_view(view)
    module = get_game(view.game)
    rng = random.Random(f"view-{seed}")
    own_known = (set(view.hand) | set(view.received)
                 | {c for v in view.piles.values() for c in v})
    last_error = None
    deal = _fill(view, template, rng)
    for _restart in range(MAX_RESTARTS):
        try:
            state = module.new_state(options=view.options, dealer=view.dealer, deal=deal)
        except AtoutError as e:
            raise AtoutError(f"the view cannot be dealt: {e}") from None
        try:
            return _replay(view, state, rng, own_known, deal)
        except _Conflict as c:
            last_error, new_deal = c.args
            deal = new_deal if new_deal is not None else _fill(view, template, rng)
    raise AtoutError(f"the view is inconsistent: {last_error}")


def _replay(view: View, state, rng, own_known: set[int], deal: Deal):

    me = view.seat
    deck = view.deck
    public: dict[int, int] = {}
    for i, tok in enumerate(view.moves, 1):
        if state.is_over():
            msg = f"move {i} ({_short(tok, 30)}): the deal is already over"
            if not public:  # e.g. a petit sec drawn for an unseen hand: deal again
                raise _Conflict(msg, None)
            raise AtoutError(msg)
        s = state.to_act
        where = f"move {i} ({_short(tok, 30)}) by seat {s}"
        if MASK in tok:
            if s == me:
                raise AtoutError(f"{where}: the seat's own moves cannot be masked")
            prefix = tok.split(MASK)[0]
            legal = [m for m in state.legal_moves()
                     if state.move_token(m).startswith(prefix) and not _shown_kind(state, m)]
            if not legal:
                state = _redraw(view, state, i, tok, None, where)
                deal = None
                legal = [m for m in state.legal_moves()
                         if state.move_token(m).startswith(prefix)
                         and not _shown_kind(state, m)]
            state.play(rng.choice(legal))
        else:
            check = None
            if state.game in ("belote", "coinche") and s != me:
                tok, check = _belote_check(state, tok, me)
            try:
                move = state.parse_move(tok)
            except AtoutError as e:
                raise AtoutError(f"move {i}: {e}") from None
            for c in _move_cards(state, move):
                if c in public:
                    raise AtoutError(f"{where}: card {deck.token(c)} seen twice "
                                     f"(move {public[c]})")
                if s != me and c in view.hand:
                    raise AtoutError(f"{where}: {deck.token(c)} is in the seat's own hand")
            if move not in state.legal_moves() or (check and not check(state)):
                if s == me:
                    raise AtoutError(f"{where}: illegal for the seat "
                                     f"(its hand: {deck.format_cards(bit_list(state.hands[me]))})")
                state = _redraw(view, state, i, tok, move, where, check)
                deal = None
            state.play(move)
            if move.kind in ("card", "belote", "signal"):
                for c in _move_cards(state, move):
                    public[c] = i
        # the seat's hand holds only cards it knows
        strange = [c for c in bit_list(state.hands[me]) if c not in own_known]
        if strange and view.received:
            missing = [c for c in view.received if not state.hands[me] >> c & 1]
            _swap_received(view, state, deal, strange, missing, where)
    return state


def _belote_check(state, tok: str, me: int):
    """Belote automatic (the default): another seat's first trump K/Q is written
    ``belote:KH`` in a view when it declared belote with it, plain when it did not;
    the world must agree."""
    optional = state.options.get("belote_optional", False) if hasattr(state, "options") else False
    declared = tok.startswith("belote:")
    if optional:
        return tok, None
    card_tok = tok.split(":", 1)[1] if declared else tok
    try:
        card = state.deck.card(card_tok)
    except (AtoutError, KeyError):
        return tok, None
    before = _belotes(state, me)

    def check(w) -> bool:
        m = next((x for x in w.legal_moves() if x.kind == "card" and x.value == card), None)
        if m is None:
            return False
        probe = w.copy()
        probe.play(m)
        return (_belotes(probe, me) > before) == declared

    return card_tok, check


def _shown_kind(state, move) -> bool:
    """A masked move may not be one the others would have seen (a Tarot trump
    discard is shown)."""
    if state.game == "tarot" and move.kind == "discard":
        from .games import tarot as T
        return bool((T.TRUMP_MASK | T.EXCUSE_BIT) >> move.value & 1)
    return False


def _swap_received(view, state, deal, strange, missing, where):
    """Received cards the seat got in this deal are others: swap them in the deal and
    replay."""
    if deal is None or len(missing) < len(strange):
        raise AtoutError(f"{where}: the seat received cards not in Received")
    hands = [list(h) for h in deal.hands]
    extras = {k: list(v) for k, v in deal.extras.items() if not k.startswith("_")}
    places = hands + list(extras.values())

    def locate(c):
        for p in places:
            if c in p:
                return p
        return None

    for x, y in zip(strange, missing, strict=False):
        px, py = locate(x), locate(y)
        if px is None or py is None:
            raise AtoutError(f"{where}: the received cards do not fit the deal")
        ix, iy = px.index(x), py.index(y)
        px[ix], py[iy] = y, x
    hands[view.seat] = list(view.hand)
    raise _Conflict("received cards", Deal(hands, extras))


def _keeps_announces(view: View, w, i: int) -> bool:
    """A Belote world may re-choose other seats' announces; those the view names
    (shown) must stay as they are."""
    if view.game not in ("belote", "coinche"):
        return True
    for k, tok in enumerate(view.moves[:i - 1]):
        if tok.startswith("announce:") and MASK not in tok and k < len(w.history):
            if w.move_token(w.history[k]) != tok:
                return False
    return True


def _belotes(state, seat: int) -> int:
    return len(state.observation(seat).get("belotes") or ())


def _redraw(view, state, i, tok, move, where, check=None):
    """Draw the hidden cards again (card play: from the seat's observation) until
    ``move`` (or a masked move like ``tok``) is legal and ``check(world)`` holds."""
    from .constraints import game_functions

    try:
        make_hidden, make_world = game_functions(state.game)
        hid = make_hidden(state.observation(view.seat))
    except AtoutError:
        raise _Conflict(f"{where}: no deal fits", None) from None
    s = state.to_act
    rng = random.Random(f"redraw-{i}")
    cards = _move_cards(state, move) if move is not None else []
    after = None
    if cards and move.kind in ("card", "belote", "signal"):
        # the inferences this very card allows (a void...): constraints as seen after it
        try:
            probe = state.copy()
            probe._apply(move)
            probe.history.append(move)
            after = make_hidden(probe.observation(view.seat))
        except Exception:
            after = None
    for c in cards:
        if c in hid.fixed:
            if hid.fixed[c] != s:
                raise AtoutError(f"{where}: seat {s} cannot hold "
                                 f"{view.deck.token(c)} (its place is known)")
            continue
        if c not in hid.allowed or not hid.allowed[c] >> s & 1:
            raise AtoutError(f"{where}: seat {s} cannot hold {view.deck.token(c)} "
                             f"(already played, or a void shown earlier)")
        del hid.allowed[c]
        hid.fixed[c] = s
        hid.capacities[s] -= 1
        if hid.capacities[s] < 0:
            raise AtoutError(f"{where}: seat {s} has no card left to hold "
                             f"{view.deck.token(c)}")
    prefix = tok.split(MASK)[0]
    for use in ([after] if after is not None else []) + [hid]:
        try:
            sampler = use.sampler()
        except AtoutError:
            continue
        for _ in range(MAX_DRAWS if use is hid else MAX_DRAWS // 3):
            try:
                holdings = [list(x) for x in sampler.sample(rng)]
            except AtoutError:
                break
            for c, holder in use.fixed.items():
                holdings[holder].append(c)
            if use is after:
                holdings[s].extend(c for c in cards if c not in after.fixed)
            try:
                w = make_world(state, view.seat, holdings)
            except (AtoutError, IllegalMoveError):
                continue
            legal = w.legal_moves()
            if move is not None and move not in legal:
                continue
            if move is None and not any(w.move_token(m).startswith(prefix) for m in legal):
                continue
            if check is not None and not check(w):
                continue
            if not _keeps_announces(view, w, i):
                continue
            return w
    raise AtoutError(f"{where}: no deal consistent with the view allows this move "
                     f"(a void or a shown card contradicted?)")


def is_view(value: Any) -> bool:
    """Whether a request's ``record`` is in fact a view (a Seat and no Deal): so
    ``atout move FILE`` takes a view file as well."""
    if isinstance(value, dict):
        return "seat" in value and "hand" in value and "deal" not in value
    if isinstance(value, str):
        head = value.lstrip()[:1]
        if head == "{":
            return '"hand"' in value and '"deal"' not in value
        return '[Seat "' in value and '[Deal "' not in value
    return False


def request_state(req: dict[str, Any]):
    """The state of a protocol request's ``view`` (the seat to act must be the view's
    seat for ``move``); a view given as ``record`` is taken as the view."""
    if req.get("view") is None and is_view(req.get("record")):
        req = dict(req)
        req["view"] = req.pop("record")
    src = req.get("view")
    if not isinstance(src, (str, dict)):
        raise AtoutError("field 'view' must be a string or an object")
    if isinstance(src, str) and len(src) > 100_000:
        raise AtoutError("field 'view' is too long")
    view = parse_view(src)
    if req.get("record") is not None:
        raise AtoutError("give a record or a view, not both")
    state = state_from_view(view)
    if req.get("cmd") == "move":
        if req.get("seat") is None:
            req["seat"] = view.seat
        if state.to_act is not None and state.to_act != view.seat:
            raise AtoutError(f"it is seat {state.to_act}'s turn, not the view's seat "
                             f"{view.seat}'s")
    return state
