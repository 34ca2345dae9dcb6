"""The `atout` command. User errors print one line and exit with status 2."""

from __future__ import annotations

import json
import os
import random
import sys

import click

from . import __version__
from .errors import AtoutError
from .games import GAME_MODULES, get_game
from .options import parse_options

GAME_CHOICE = click.Choice(sorted(GAME_MODULES))
# seeds: what every random stream of the package takes (Python's and the C cores')
SEED = click.IntRange(0, 2**32 - 1)
SEED_HELP = "Random seed, 0 to 2**32-1: the same seed gives the same result."


def read_source(path: str) -> str:
    """The text of a SOURCE argument (a file, or - for standard input): UTF-8, else a
    one-line error naming the first bad byte."""
    if path == "-":
        name = "standard input"
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read() if stream is not None else sys.stdin.read()
    else:
        name = path
        with open(path, "rb") as f:
            data = f.read()
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise AtoutError(f"{name}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset "
                         f"{e.start}); records and deals are UTF-8 text") from None


def progress(length: int, label: str):
    """A progress bar on a terminal; plain lines ("deals: 10/100") otherwise, so a log
    file reads well."""
    if sys.stderr.isatty():
        return click.progressbar(length=length, label=label, file=sys.stderr)
    return _PlainProgress(length, label)


class _PlainProgress:
    def __init__(self, length: int, label: str):
        self.length, self.label, self.done, self.shown = length, label, 0, -1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.shown != self.done and exc[0] is None:
            self._show()

    def update(self, n: int) -> None:
        self.done += n
        step = max(1, self.length // 10)  # about ten lines a run
        if self.done // step != self.shown // step or self.done >= self.length:
            self._show()

    def _show(self) -> None:
        self.shown = self.done
        click.echo(f"{self.label}: {self.done}/{self.length}", err=True)


def game_options(players: int | None, variant: str | None, option: tuple[str, ...]) -> dict:
    """Options from --players, --variant and repeated -o key=value."""
    opts: dict = {}
    for text in option:
        opts.update(parse_options(text))
    if players is not None:
        opts["players"] = players
    if variant is not None:
        opts["game"] = variant
    return opts


def common_game_options(f):
    f = click.option("-o", "--option", multiple=True, metavar="KEY=VALUE",
                     help="Rule option (repeatable), e.g. -o misere=on.")(f)
    f = click.option("--variant", default=None,
                     help="Tarocchini variant: ottocento or terziglio.")(f)
    f = click.option("--players", type=int, default=None, help="Tarot: 3, 4 or 5 players.")(f)
    f = click.option("--dealer", type=int, default=0, show_default=True, help="Dealer seat.")(f)
    f = click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)(f)
    return f


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="atout")
def cli() -> None:
    """atout: solver and analysis engine for Tarot, Belote, Coinche and Tarocchini."""


@cli.command()
@click.argument("game", type=GAME_CHOICE)
@common_game_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def deal(game, seed, dealer, players, variant, option, as_json):
    """Deal a random hand of GAME from a seed and print it in the notation."""
    module = get_game(game)
    state = module.new_state(options=game_options(players, variant, option),
                             dealer=dealer, seed=seed)
    record = state.to_record()
    if as_json:
        click.echo(json.dumps(record.deal.to_json(record.deck)))
    else:
        click.echo(record.deal.to_text(record.deck))


@cli.command()
@click.argument("game", type=GAME_CHOICE)
@common_game_options
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
def play(game, seed, dealer, players, variant, option, as_json):
    """Play a whole deal of GAME with random legal choices; print record and scores."""
    module = get_game(game)
    state = module.new_state(options=game_options(players, variant, option),
                             dealer=dealer, seed=seed)
    rng = random.Random(f"play-{seed}")
    while not state.is_over():
        state.play_random(rng)
    record = state.to_record()
    scores = state.scores()
    if as_json:
        click.echo(json.dumps({"record": record.to_json(), "scores": scores}))
    else:
        click.echo(record.to_text())
        click.echo("scores: " + " ".join(f"{s:g}" for s in scores))


@cli.command()
@click.argument("game", type=GAME_CHOICE)
@click.option("--a", "spec_a", required=True, help="Agent A spec, e.g. pimc:worlds=100.")
@click.option("--b", "spec_b", required=True, help="Agent B spec, e.g. heuristic.")
@click.option("--deals", type=click.IntRange(1), default=100, show_default=True,
              help="Deals played, each twice (the agents swap seats).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the deals and the agents: the same seed, the same match.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Local worker processes (results do not depend on it).")
@click.option("--players", type=int, default=None, help="Tarot: 3, 4 or 5 players.")
@click.option("--variant", default=None, help="Tarocchini variant.")
@click.option("-o", "--option", multiple=True, metavar="KEY=VALUE", help="Rule option.")
@click.option("--out", "out", default=None, metavar="FILE.json",
              help="Write the full result (every deal) as JSON here (docs/OUTPUT.md).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the result as JSON (as --out writes it) instead of the text.")
@click.option("--checkpoint", default=None, metavar="FILE",
              help="Append each finished deal to FILE; the same command run again "
                   "skips them (a long match over several runs).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Play the deals on a Ray cluster instead of local jobs: 'auto' (the "
                   "cluster this machine is a node of), HOST:PORT, 'ray://HOST:PORT' or "
                   "'local' (one started here). Needs pip install 'atout[ray]', and atout "
                   "on every node; the results are the same.")
def match(game, spec_a, spec_b, deals, seed, jobs, players, variant, option, out, as_json,
          checkpoint, ray_address):
    """Duplicate match of agent A against agent B on identical deals of GAME."""
    from .agents import check_spec
    from .match import MatchConfig, check_backend, format_summary, run_match, write_json

    check_backend(jobs, ray_address)
    opts = game_options(players, variant, option)
    get_game(game).new_state(options=opts, seed=0)  # validate options before starting
    for spec in (spec_a, spec_b):  # a bad agent option: one line, before any progress
        check_spec(spec, game)
    if out:
        writable(out, "--out")  # before the match, not after hours of play
    cfg = MatchConfig(game, spec_a, spec_b, deals, seed, opts)
    done = 0
    if checkpoint:
        from .match import load_checkpoint
        done = len(load_checkpoint(cfg, checkpoint))  # a wrong file: an error before play
    if ray_address is not None and done < deals:
        from .match import connect_ray
        connect_ray(ray_address)  # an unreachable cluster is an error before the bar
    with progress(deals, "deals") as bar:
        summary = run_match(cfg, jobs=jobs, progress=bar.update, checkpoint=checkpoint,
                            ray=ray_address)
    from .schemas import SCHEMA_VERSION

    summary = {"schema": "match", "schema_version": SCHEMA_VERSION} | summary
    if as_json:
        click.echo(json.dumps(summary))
    else:
        click.echo(format_summary(summary))
    if out:
        write_json(summary, out)
        click.echo(f"result written to {out}", err=as_json)


def _horizon_value(ctx, param, value):
    """--horizon: 'auto', 'exact' (None) or a positive number of tricks (the same
    meaning as the protocol's ``horizon``)."""
    from .dd.report import parse_horizon

    try:
        return parse_horizon(value)
    except AtoutError as e:
        raise click.BadParameter(str(e).split(": ", 1)[1]) from None


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--game", type=GAME_CHOICE, default=None,
              help="Game of a plain deal (records name their game).")
@click.option("--players", type=int, default=None, help="Tarot: players of a plain deal.")
@click.option("--variant", default=None, help="Tarocchini variant of a plain deal.")
@click.option("-o", "--option", multiple=True, metavar="KEY=VALUE", help="Rule option.")
@click.option("--dealer", type=int, default=None,
              help="Dealer of a plain deal (default 0; records name their dealer).")
@click.option("--at", "at", default=None,
              help="Position: number of record moves to replay, or 'play' (first lead). "
                   "Default: after all moves, or the first lead of a finished deal.")
@click.option("--table", "want_table", is_flag=True, help="Also print the DD table.")
@click.option("--no-line", is_flag=True, help="Skip the optimal line.")
@click.option("--node-budget", type=click.IntRange(1), default=None,
              help="Stop each search after this many nodes.")
@click.option("--deadline", type=click.FloatRange(0, min_open=True), default=None,
              help="Stop after this many seconds (it then says what it proved). Default: "
                   "Tarot's and Tarocchini's exact analyses 20 s in all, other searches 120 s "
                   "each.")
@click.option("--threads", type=click.IntRange(1), default=1, show_default=True,
              help="Tarot, Tarocchini: search the cards in this many threads (same "
                   "values).")
@click.option("--tt-bits", type=click.IntRange(4, 28), default=None,
              help="Transposition table size: 2**bits entries.")
@click.option("--horizon", default="auto", show_default=True, callback=_horizon_value,
              metavar="auto|exact|N",
              help="Tarot/Tarocchini: N = search N tricks after the current one exactly, "
                   "then estimate (static evaluation); auto = exact where that is quick, "
                   "else the game's default horizon; exact = always to the end (long "
                   "deals stop at the deadline). Estimates are labelled.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def solve(source, game, players, variant, option, dealer, at, want_table, no_line,
          node_budget, deadline, threads, tt_bits, horizon, as_json):
    """Solve a deal double-dummy: value of every legal card, optimal line, DD table.

    SOURCE is a file (or - for standard input) holding a record (text or JSON) or,
    with --game, a plain deal. A plain deal has no contract: its DD table is printed.
    """
    from .cards import DECKS
    from .dd.report import (
        DEFAULT_DEADLINE,
        _variant,
        analyse,
        format_analysis,
        format_hands,
        format_table,
        position_from_record,
        table_deal,
        table_of,
    )
    from .notation import Deal, parse_record
    from .schemas import SCHEMA_VERSION

    text = read_source(source).strip()
    if not text:
        raise AtoutError("empty input: expected a record or a deal")
    result: dict = {"schema": "solve", "schema_version": SCHEMA_VERSION}
    state = None
    plain_json = None
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and "game" not in obj and "hands" in obj:
            plain_json = obj  # a deal as `atout deal --json` prints it
    if text.startswith(("[", "{")) and plain_json is None:
        record = parse_record(text)
        _check_record_flags(record, game, players, variant, option, dealer)
        state, where = position_from_record(record, at)
        result["position"] = where
        result["game"], result["variant"] = record.game, _variant(state)
        if state.is_over():
            result["over"] = True
            result["scores"] = list(state.scores())
        else:
            result["analysis"] = analyse(
                state, node_budget, deadline, tt_bits, line=not no_line, horizon=horizon,
                threads=threads,
                progress=None if as_json else (lambda s: click.echo(f"atout: {s}", err=True)))
            result["analysis"]["trick_len"] = len(getattr(state, "trick", []))
        if want_table:
            result["table"] = table_of(table_deal(record), record.game, record.options,
                                       record.dealer, node_budget, tt_bits,
                                       DEFAULT_DEADLINE if deadline is None else deadline, horizon)
        game, players_n = record.game, len(record.deal.hands)
    else:
        if game is None:
            raise AtoutError("a plain deal needs --game (records name their game)")
        if at is not None:
            raise AtoutError("--at applies to a record, not a plain deal")
        opts = game_options(players, variant, option)
        deal = (Deal.from_json(plain_json, DECKS[game]) if plain_json is not None
                else Deal.from_text(text, DECKS[game]))
        dealer = 0 if dealer is None else dealer
        get_game(game).new_state(options=opts, dealer=dealer, deal=deal)  # validates
        result["game"], result["variant"] = game, _variant(game, opts)
        result["table"] = table_of(deal, game, opts, dealer, node_budget, tt_bits,
                                   DEFAULT_DEADLINE if deadline is None else deadline, horizon)
        players_n = len(deal.hands)
    if as_json:
        click.echo(json.dumps(result, default=str))
        return
    if "position" in result:
        click.echo(f"position: {result['position']}")
    if state is not None:
        click.echo(format_hands(state))
    if result.get("over"):
        click.echo("the deal is over: scores " + ", ".join(
            f"seat {i} {s:g}" for i, s in enumerate(result["scores"])) +
            " (use --at N or --at play to analyse an earlier position)")
    if "analysis" in result:
        click.echo(format_analysis(result["analysis"], players_n, result.get("variant")))
    if "table" in result:
        click.echo(format_table(game, result["table"]))


def _check_record_flags(record, game, players, variant, option, dealer) -> None:
    """A record names its game, players, variant, options and dealer: a flag that says
    otherwise is an error (it would be silently ignored)."""
    if game is not None and game != record.game:
        raise AtoutError(f"--game {game}: the record is a {record.game} deal")
    if players is not None and players != len(record.deal.hands):
        raise AtoutError(f"--players {players}: the record's deal has "
                         f"{len(record.deal.hands)} hands")
    rec_variant = record.options.get("game") if record.game == "tarocchini" else None
    if variant is not None and (record.game != "tarocchini" or (
            rec_variant is not None and variant != rec_variant)):
        raise AtoutError(f"--variant {variant}: the record says "
                         f"{rec_variant or record.game}")
    if option:
        raise AtoutError("-o: a record carries its own options (its Options tag); -o "
                         "applies to a plain deal")
    if dealer is not None and dealer != record.dealer:
        raise AtoutError(f"--dealer {dealer}: the record's dealer is {record.dealer}")


@cli.command()
@click.argument("game", type=GAME_CHOICE)
@click.option("--hand", required=True, help='The seat\'s cards, e.g. "JH 9H AS TS KD 7C 8C QC".')
@click.option("--seat", type=int, default=0, show_default=True,
              help="The seat (0 to players-1, in the deal's seat order) whose hand is --hand.")
@click.option("--dealer", type=int, default=None, help="Dealer seat (default: the one "
              "that makes SEAT the next to speak after --auction).")
@click.option("--players", type=int, default=None, help="Tarot: 3, 4 or 5 players.")
@click.option("--variant", default=None, help="Tarocchini: ottocento or terziglio.")
@click.option("-o", "--option", multiple=True, metavar="KEY=VALUE", help="Rule option.")
@click.option("--auction", default="", help='Calls so far as move tokens, e.g. "pass bid:90:H".')
@click.option("--turned", default=None, help="Belote: the turned card.")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="Evaluator parameter (game-specific, e.g. tarot node_budget=200000).")
@click.option("--samples", type=click.IntRange(1), default=200, show_default=True,
              help="Worlds (deals of the unseen cards, consistent with the calls heard) "
                   "scored for each option.")
@click.option("--seconds", type=click.FloatRange(0, min_open=True), default=None,
              help="Time budget: the worlds scored by then make the table.")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--mode", type=click.Choice(["dd", "pimc"]), default="dd", show_default=True,
              help="dd: double-dummy over sampled worlds (fast, optimistic); "
                   "pimc: PIMC play-outs (realistic, slow).")
@click.option("--threads", type=click.IntRange(1), default=1, show_default=True,
              help="Worlds scored in parallel threads (same result for any count).")
@click.option("--all", "show_all", is_flag=True, help="List every option, not the top 12.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--plot", "plot", default=None, metavar="FILE.png",
              help="Write the score distributions of the best options as a picture "
                   "(needs matplotlib: pip install 'atout[plot]').")
def evaluate(game, hand, seat, dealer, players, variant, option, auction, turned, params,
             samples, seconds, seed, mode, threads, show_all, as_json, plot):
    """Evaluate a hand: P(make), expected score and quantiles of every candidate bid."""
    from .bidding import context_from, format_evaluation, make_evaluator
    from .bidding import evaluate as run_evaluation

    extra = {}
    for text in params:
        extra.update(parse_options(text))
    ctx = context_from(game, hand, seat, dealer, game_options(players, variant, option),
                       auction.split(), turned, extra)
    evaluator = make_evaluator(ctx)  # validates hand, seat and auction first
    if plot:
        writable(plot, "--plot")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise AtoutError("--plot needs matplotlib: pip install 'atout[plot]'") from None
    with progress(samples, "worlds") as bar:
        result = run_evaluation(ctx, samples=samples, seed=seed, mode=mode,
                                progress=bar.update, evaluator=evaluator,
                                threads=threads, seconds=seconds)
    if as_json:
        from .schemas import SCHEMA_VERSION
        click.echo(json.dumps({"schema": "evaluate", "schema_version": SCHEMA_VERSION}
                              | result.to_json(), default=str))
    else:
        click.echo(format_evaluation(result, None if show_all else 12))
    if plot:
        top = result.rows[:6]
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 4.5))
        ax.hist([r.scores for r in top], bins=20, label=[r.option for r in top])
        ax.set_xlabel("score for the seat's side")
        ax.set_ylabel("worlds")
        ax.set_title(f"{game}: score distribution per option ({samples} worlds, {mode})")
        ax.legend()
        fig.tight_layout()
        fig.savefig(plot, dpi=100)
        click.echo(f"plot written to {plot}")


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--agent", "spec", default=None,
              help="Agent spec: random, heuristic, pimc:worlds=N[,auction=1,bidding=sim...], "
                   "oracle (default: pimc:worlds=100,nodes=4000000; in Coinche and Belote with "
                   "auction=1, in Tarot 4p with evaluation=soft).")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--seconds", type=click.FloatRange(0, min_open=True), default=None,
              help="Time budget of a PIMC decision (cards; bids with bidding=sim).")
@click.option("--at", "at", type=click.IntRange(0), default=None,
              help="Decide after this many of the record's moves (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def move(source, spec, seed, seconds, at, as_json):
    """The move an agent makes for the seat to act after a record's moves.

    SOURCE is a file (or - for standard input) holding a record (text or JSON). Honest
    agents use only what the seat to act knows; the same seed gives the same move.
    """
    from .protocol import handle_line

    text = read_source(source).strip()
    if not text:
        raise AtoutError("empty input: expected a record")
    req = {"cmd": "move", "record": text, "seed": seed, "seconds": seconds, "at": at}
    if spec is not None:
        req["agent"] = spec
    reply = handle_line(json.dumps(req))
    if not reply["ok"]:
        raise AtoutError(reply["error"])
    del reply["ok"]
    reply = {"schema": "move"} | reply
    if as_json:
        click.echo(json.dumps(reply))
    else:
        click.echo(f"seat {reply['seat']} ({reply['phase']}): {reply['move']}")


@cli.command()
@click.option("--listen", metavar="HOST:PORT", default=None,
              help="Serve over TCP instead of stdin (docs/PROTOCOL.md); 127.0.0.1:PORT "
                   "by default, other hosts need --token.")
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True,
              help="Worker processes for engine requests (with --listen).")
@click.option("--token", default=None, envvar="ATOUT_TOKEN",
              help="Shared token every request must carry (with --listen).")
def serve(listen, workers, token):
    """Answer JSON requests, one per line on standard input, one reply per line on
    standard output (move, legal, solve, evaluate, new_game, observe, close, version,
    quit): the backend of a game application. See docs/PROTOCOL.md."""
    if listen is not None:
        from .server import serve_tcp

        sys.exit(serve_tcp(listen, workers=workers, token=token))
    from .protocol import serve as run

    run(sys.stdin.buffer, sys.stdout)  # bytes: a non-UTF-8 line gets an error reply


# --- issue 27: analysis for people (atout view, review, analyse) -------------------

def _read_record(source: str):
    """The record of a SOURCE argument (a file or -, text or JSON): one clear error
    for anything else."""
    return _read_record_text(read_source(source))


def _read_record_text(text: str):
    from .notation import parse_record

    text = text.strip()
    if not text:
        raise AtoutError("empty input: expected a record")
    if not text.startswith(("[", "{")):
        raise AtoutError("expected a record (text [Game ...] tags or JSON); a plain deal "
                         "has no play to show")
    return parse_record(text)


def _positions_bar(label: str):
    """A progress callback over a record's positions and the bar it draws."""
    state: dict = {}

    def update(done: int, total: int) -> None:
        if "bar" not in state:
            state["bar"] = progress(total, label).__enter__()
        state["bar"].update(done - state.get("done", 0))
        state["done"] = done
        if done >= total:
            state.pop("bar").__exit__(None, None, None)
    return update


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--out", "out", required=True, metavar="FILE.html",
              help="The page to write (one self-contained HTML file).")
@click.option("--deadline", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds per position (default 1): an early Tarot position that the "
                   "exact search does not finish in time gets labelled estimates.")
@click.option("--node-budget", type=click.IntRange(1), default=None,
              help="Stop each search after this many nodes.")
@click.option("--no-table", is_flag=True, help="Leave out the DD table and par.")
def view(source, out, deadline, node_budget, no_table):
    """Write a deal viewer: one HTML page with the hands, the auction, the play trick
    by trick (step forward/back, slider) and every legal card's double-dummy value at
    each position (= best, -n worse; estimates marked), the DD table and par.

    SOURCE is a file (or - for standard input) holding a record (text or JSON)."""
    from .analyse import POSITION_DEADLINE
    from .viewer import write_page

    record = _read_record(source)
    writable(out, "-o")
    data = write_page(record, out, POSITION_DEADLINE if deadline is None else deadline,
                      node_budget, table=not no_table, progress=_positions_bar("positions"))
    estimates = sum(1 for f in data["frames"] if f.get("values") and
                    not f["values"]["exact"])
    click.echo(f"{out}: {len(data['frames'])} positions, {estimates} with estimates, "
               f"written in {data['seconds']:.1f} s")


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--game", type=GAME_CHOICE, default=None,
              help="Game of plain deals (records name their game).")
@click.option("--players", type=int, default=None, help="Tarot: players of plain deals.")
@click.option("--variant", default=None, help="Tarocchini variant of plain deals.")
@click.option("-o", "--option", multiple=True, metavar="KEY=VALUE",
              help="Rule option of plain deals.")
@click.option("--dealer", type=int, default=0, show_default=True,
              help="Dealer of plain deals.")
@click.option("--at", "at", default=None,
              help="Every card's value at this position of each record (a move count, "
                   "'play' as atout solve --at, or 'end': after all its moves) instead of "
                   "the DD table and par.")
@click.option("--out", "out", default=None, metavar="FILE.jsonl",
              help="Write the JSON lines here (default: standard output); the same "
                   "command run again keeps the finished lines and analyses the rest.")
@click.option("--csv", "csv_path", default=None, metavar="FILE.csv",
              help="Also write the results as CSV (one row per table entry or card).")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Local worker processes (results do not depend on it).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Analyse on a Ray cluster instead (as atout match --ray: 'auto', "
                   "HOST:PORT, 'ray://HOST:PORT' or 'local'); the same results.")
@click.option("--deadline", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds per search (default: as atout solve). Results stopped by a "
                   "deadline depend on the machine; exact ones never do.")
@click.option("--node-budget", type=click.IntRange(1), default=None,
              help="Stop each search after this many nodes.")
@click.option("--horizon", default="auto", show_default=True, callback=_horizon_value,
              metavar="auto|exact|N", help="Tarot/Tarocchini horizon, as atout solve.")
def analyse(source, game, players, variant, option, dealer, at, out, csv_path, jobs,
            ray_address, deadline, node_budget, horizon):
    """Analyse many deals or records: one per line of SOURCE (JSON lines or the text
    notation), the DD table and par of each (or with --at every card's value at a
    position), as JSON lines. A bad line is reported with its number on standard
    error and the others are analysed (exit status 1 if any failed)."""
    from .analyse import BatchConfig, read_lines
    from .match import check_backend

    check_backend(jobs, ray_address)
    for path, what in ((out, "--out"), (csv_path, "--csv")):
        if path:
            writable(path, what)
    opts = game_options(players, variant, option)
    if game is not None:
        get_game(game).new_state(options=opts, dealer=dealer, seed=0)  # validate first
    elif opts:
        raise AtoutError("--players, --variant and -o apply to plain deals, with --game")
    cfg = BatchConfig(at=at, game=game, options=opts, dealer=dealer, deadline=deadline,
                      node_budget=node_budget, horizon=horizon)
    items = read_lines(source, read_source(source))
    if not items:
        raise AtoutError(f"{source}: no deal or record in it")
    _run_batch_command(cfg, items, out, csv_path, jobs, ray_address, "deals")


def _run_batch_command(cfg, items, out, csv_path, jobs, ray_address, label) -> None:
    """Run a batch (``solver.analyse.run_batch``) with a progress bar: each bad line
    reported with its number, the results as JSON lines (standard output or ``out``),
    exit status 1 if a line failed."""
    from .analyse import run_batch, write_csv
    from .match import check_backend, connect_ray

    check_backend(jobs, ray_address)
    if out:
        writable(out, "--out")
    if ray_address is not None:
        connect_ray(ray_address)  # an unreachable cluster: an error before the bar

    def bad_line(line_no: int, message: str) -> None:
        click.echo(f"atout: line {line_no}: {message}", err=True)

    with progress(len(items), label) as bar:
        results = run_batch(cfg, items, out, jobs=jobs, ray=ray_address,
                            progress=bar.update, report_error=bad_line)
    if out is None:
        for r in results:
            click.echo(json.dumps(r, default=str))
    else:
        click.echo(f"{len(results)} lines analysed into {out}", err=True)
    if csv_path:
        write_csv(results, csv_path, positions=cfg.at is not None)
    errors = sum("error" in r for r in results)
    if errors:
        click.echo(f"atout: {errors} of {len(results)} lines could not be analysed "
                   "(their errors above; the others were)", err=True)
        sys.exit(1)


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--worlds", type=click.IntRange(1), default=None,
              help="Worlds per decision for the seat's own view (PIMC; default 20).")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--deadline", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds per position of the DD search (default 1): early Tarot "
                   "positions get labelled estimates.")
@click.option("--node-budget", type=click.IntRange(1), default=None,
              help="Stop each DD search after this many nodes.")
@click.option("--html", "html_out", default=None, metavar="FILE.html",
              help="Also write the deal viewer with the review (costly decisions "
                   "highlighted); one record only.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--out", "out", default=None, metavar="FILE.jsonl",
              help="Many records: write the reviews here (resumable, as atout analyse).")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Many records: local worker processes.")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Many records: review on a Ray cluster (as atout match --ray).")
def review(source, worlds, seed, deadline, node_budget, html_out, as_json, out, jobs,
           ray_address):
    """Review a played deal: for each card and call of each seat, the best choice and
    what the one made cost double-dummy (every hand seen) and on what the seat knew
    (PIMC over worlds consistent with its view): a mistake, or bad luck. Per-seat
    totals.

    SOURCE is a file (or - for standard input) holding a record (text or JSON), or
    many records, one per line: then each one's review is a JSON line (as atout
    analyse: a bad line reported with its number, --out resumable, --jobs, --ray)."""
    from .analyse import POSITION_DEADLINE, BatchConfig, read_lines
    from .review import DEFAULT_WORLDS, format_review, page_review
    from .review import review as run_review

    text = read_source(source)
    items = read_lines(source, text)
    if len(items) > 1:
        if html_out:
            raise AtoutError("--html shows one record: the file holds "
                             f"{len(items)} lines")
        _run_batch_command(BatchConfig(deadline=deadline, node_budget=node_budget,
                                       review_worlds=worlds or DEFAULT_WORLDS, seed=seed),
                           items, out, None, jobs, ray_address, "records")
        return
    if out or jobs > 1 or ray_address:
        raise AtoutError("--out, --jobs and --ray review files of many records (one a "
                         "line); this one holds one")
    record = _read_record_text(text)
    if html_out:
        writable(html_out, "--html")
    deadline = POSITION_DEADLINE if deadline is None else deadline
    known: dict = {}  # each position's DD values, searched once for both
    result = run_review(record, worlds or DEFAULT_WORLDS, seed, deadline, node_budget,
                        progress=_positions_bar("moves"), values=known)
    if html_out:
        from .viewer import write_page

        write_page(record, html_out, deadline, node_budget, review=page_review(result),
                   progress=_positions_bar("positions"), known=known)
        click.echo(f"viewer with the review written to {html_out}", err=True)
    if as_json:
        click.echo(json.dumps(result, default=str))
    else:
        click.echo(format_review(result))


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning package errors into one line and exit 2."""
    try:
        cli.main(args=argv, prog_name="atout", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        click.echo(f"atout: error: {_one_line(e.format_message())}", err=True)
        sys.exit(e.exit_code if e.exit_code else 2)
    except click.exceptions.Abort:
        click.echo("atout: aborted", err=True)
        sys.exit(130)
    except AtoutError as e:
        click.echo(f"atout: error: {_one_line(str(e))}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
    except UnicodeDecodeError as e:  # e.g. a checkpoint file that is not UTF-8
        click.echo(f"atout: error: a file is not UTF-8 text (byte 0x{e.object[e.start]:02x}"
                   f" at offset {e.start})", err=True)
        sys.exit(2)
    except OSError as e:  # a file named on the command line cannot be read or written
        click.echo(f"atout: error: {e.filename or ''}: {e.strerror or e}", err=True)
        sys.exit(2)


def _one_line(message: str, limit: int = 300) -> str:
    """A message on one line, cut to ``limit`` characters (never a huge input back)."""
    message = " ".join(message.split())
    return message if len(message) <= limit else message[:limit - 30] + \
        f"... ({len(message)} characters)"


def writable(path: str, what: str) -> None:
    """Refuse an output file whose folder does not exist or cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise AtoutError(f"{what} {path}: is a folder, not a file")
    if not os.path.isdir(folder):
        raise AtoutError(f"{what} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path)
                                          and not os.access(path, os.W_OK)):
        raise AtoutError(f"{what} {path}: not writable")


if __name__ == "__main__":
    main()
