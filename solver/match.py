"""Duplicate matches between two agents on identical cards.

Partnership games (Belote, Coinche, Ottocento): each deal is played twice, A as team
{0,2} then as team {1,3}; the deal's result is A's mean margin over B. Individual games
(Tarot, Terziglio): A takes each seat in turn against B in the others, compared with B
in that same seat (the all-B table); the deal's result is the mean of those differences.
Every deal is reproducible from (seed, deal index); where the deals are played (in
this process, in ``jobs`` local processes or on a Ray cluster) only changes the speed.
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
import os
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from .agents import make_agent
from .errors import OptionError
from .games import get_game


@dataclass
class MatchConfig:
    game: str
    spec_a: str
    spec_b: str
    deals: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)


def is_partnership(game: str, options: dict[str, Any]) -> bool:
    if game in ("belote", "coinche"):
        return True
    return game == "tarocchini" and options.get("game", "ottocento") == "ottocento"


def num_players(game: str, options: dict[str, Any]) -> int:
    if game == "tarot":
        return int(options.get("players", 4))
    if game == "tarocchini" and options.get("game", "ottocento") == "terziglio":
        return 3
    return 4


def play_deal(cfg: MatchConfig, index: int, seats_a: set[int]) -> dict[str, Any]:
    """Play deal ``index`` with agent A in ``seats_a`` and B elsewhere."""
    module = get_game(cfg.game)
    n = num_players(cfg.game, cfg.options)
    deal_seed = cfg.seed * 1_000_003 + index
    state = module.new_state(options=cfg.options, dealer=index % n, seed=deal_seed)
    agents = {}
    for seat in range(n):
        spec = cfg.spec_a if seat in seats_a else cfg.spec_b
        agent = make_agent(spec)
        agent.reset(deal_seed * 16 + seat)
        agents[seat] = agent
    while not state.is_over():
        seat = state.to_act
        state.play(agents[seat].choose(state, seat))
    made = state.contract_made() if hasattr(state, "contract_made") else None
    taker = getattr(state, "taker", None)
    return {"scores": list(state.scores()), "taker": taker, "made": made}


def deal_result(cfg: MatchConfig, index: int) -> dict[str, Any]:
    """All plays of one deal and A's margin over B on it."""
    n = num_players(cfg.game, cfg.options)
    if is_partnership(cfg.game, cfg.options):
        p1 = play_deal(cfg, index, {0, 2})
        p2 = play_deal(cfg, index, {1, 3})
        per_team = [p1["scores"][0] - p1["scores"][1], p2["scores"][1] - p2["scores"][0]]
        plays = [dict(p1, a_seats=[0, 2]), dict(p2, a_seats=[1, 3])]
        return {"index": index, "diff": sum(per_team) / 2, "per_seat": per_team, "plays": plays}
    base = play_deal(cfg, index, set())
    per_seat, plays = [], [dict(base, a_seats=[])]
    for s in range(n):
        p = play_deal(cfg, index, {s})
        per_seat.append(p["scores"][s] - base["scores"][s])
        plays.append(dict(p, a_seats=[s]))
    return {"index": index, "diff": sum(per_seat) / n, "per_seat": per_seat, "plays": plays}


def _job(args):
    cfg, index = args
    return index, deal_result(cfg, index)


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (normal approximation)."""
    if not values:
        return (0.0, 0.0, 0.0)
    m = sum(values) / len(values)
    if len(values) < 2:
        return (m, m, m)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))
    half = 1.96 * sd / math.sqrt(len(values))
    return (m, m - half, m + half)


def load_checkpoint(cfg: MatchConfig, path: str) -> dict[int, dict[str, Any]]:
    """Finished deals of an earlier run of the same match, whatever its number of deals
    (``path``: JSON lines, the first the config); an empty dict when the file does not
    exist yet (it is then created)."""
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"config": asdict(cfg)}) + "\n")
        return {}
    done: dict[int, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f if ln.strip()]
    try:
        head = json.loads(lines[0]) if lines else {}
        recs = [json.loads(ln) for ln in lines[1:]]
        found = {k: v for k, v in head["config"].items() if k != "deals"}
        for rec in recs:
            if int(rec["index"]) < cfg.deals:
                done[int(rec["index"])] = rec["result"]
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise OptionError(f"checkpoint {path} is not a match checkpoint "
                          f"({type(e).__name__}: {e})") from None
    # deal i is seeded by i: a longer match of the same config extends a shorter one
    same = {k: v for k, v in json.loads(json.dumps(asdict(cfg))).items() if k != "deals"}
    if found != same:
        raise OptionError(f"checkpoint {path} belongs to another match ({found}); "
                          "use another file")
    return done


def run_match(cfg: MatchConfig, jobs: int = 1,
              progress: Callable[[int], None] | None = None,
              checkpoint: str | None = None, ray: str | None = None) -> dict[str, Any]:
    """Play the match; returns the summary (and every deal) as a JSON-ready dict.

    ``checkpoint``: a file where each finished deal is appended; running the same match
    again with it skips those deals (long matches over several sessions). ``ray``: the
    address of a Ray cluster to play the deals on (see ``play_on_ray``) instead of
    ``jobs`` local processes. Results do not depend on ``jobs``, ``ray`` or the
    interruptions: each deal is seeded by its index."""
    check_backend(jobs, ray)
    make_agent(cfg.spec_a)  # fail fast on a bad spec
    make_agent(cfg.spec_b)
    done = load_checkpoint(cfg, checkpoint) if checkpoint else {}
    if progress and done:
        progress(len(done))
    tasks = [(cfg, i) for i in range(cfg.deals) if i not in done]

    def finished(index: int, r: dict[str, Any]) -> None:
        done[index] = r
        if checkpoint:
            with open(checkpoint, "a", encoding="utf-8") as f:
                f.write(json.dumps({"index": index, "result": r}) + "\n")
        if progress:
            progress(1)

    if ray is not None and tasks:
        play_on_ray(ray, tasks, finished)
    elif jobs > 1 and tasks:
        # one deal per task, recorded as soon as it is done (in any order): a deal takes
        # seconds, and larger chunks held finished deals back from the checkpoint until
        # their whole chunk (and every earlier one) was done, so an interrupted long match
        # lost them
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for i, r in pool.imap_unordered(_job, tasks, chunksize=1):
                finished(i, r)
    else:
        for t in tasks:
            finished(*_job(t))
    return summarize(cfg, [done[i] for i in range(cfg.deals)])


def _ray_module():
    try:
        import ray
    except ImportError:
        raise OptionError("playing on a Ray cluster needs the ray package: "
                          "pip install 'atout[ray]'") from None
    return ray


def check_backend(jobs: int, ray: str | None) -> None:
    """Where the deals are played: ``jobs`` local processes or the Ray cluster at
    ``ray`` (an error, before any play, when both are asked or ray is missing)."""
    if ray is None:
        return
    if jobs > 1:
        raise OptionError("use either local jobs or a Ray cluster, not both")
    if not ray:
        raise OptionError("the Ray cluster's address is empty (use 'auto', 'local', "
                          "HOST:PORT or 'ray://HOST:PORT')")
    _ray_module()


def connect_ray(address: str) -> bool:
    """Join the Ray cluster at ``address`` unless this process already has: ``auto``
    (the cluster this machine is a node of), ``local`` (start one here), ``HOST:PORT``
    or ``ray://HOST:PORT`` (a client). True if this call connected. A cluster that
    cannot be reached is a clear error (Ray itself would retry for minutes)."""
    ray = _ray_module()
    if ray.is_initialized():
        return False
    if address not in ("auto", "local"):
        host, _, port = address.removeprefix("ray://").rpartition(":")
        if not host or not port.isdigit():
            raise OptionError(f"bad Ray cluster address {address!r} (use 'auto', "
                              "'local', HOST:PORT or 'ray://HOST:PORT')")
        try:
            socket.create_connection((host, int(port)), timeout=5).close()
        except OSError as e:
            raise OptionError(f"cannot reach the Ray cluster at {address!r}: {e}") from None
    # Ray puts the driver's working directory first on its workers' sys.path: a source
    # checkout there (no compiled cores) would shadow the installed package. So the
    # cluster is joined from the folder holding the package this process runs.
    cwd = os.getcwd()
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    except (ConnectionError, ValueError, RuntimeError) as e:
        raise OptionError(f"cannot use the Ray cluster at {address!r}: {e}") from None
    finally:
        os.chdir(cwd)
    return True


def play_on_ray(address: str, tasks: list, finished: Callable[[int, dict], None],
                job: Callable[[Any], tuple[int, dict]] | None = None) -> None:
    """Play ``tasks`` (one deal each, one CPU each) on the Ray cluster at ``address``
    (docs/DESIGN.md "Scale"; ``connect_ray``). Every node must have the same version of atout
    installed (the deals are played by its ``_job``, or ``job``: another task of the
    package returning ``(index, result)``, e.g. ``atout analyse``'s). Deals are recorded
    as they finish, in any order, like local jobs."""
    ray = _ray_module()
    started = connect_ray(address)
    try:
        job = ray.remote(num_cpus=1)(job or _job)
        pending = [job.remote(t) for t in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            finished(*ray.get(ready[0]))
    finally:
        if started:
            ray.shutdown()


def summarize(cfg: MatchConfig, results: list[dict[str, Any]]) -> dict[str, Any]:
    diffs = [r["diff"] for r in results]
    mean, lo, hi = mean_ci(diffs)
    k = len(results[0]["per_seat"]) if results else 0
    per_seat = [mean_ci([r["per_seat"][s] for r in results]) for s in range(k)]
    made = {"a": [0, 0, 0.0], "b": [0, 0, 0.0]}  # contracts taken, made, taker's points
    for r in results:
        for p in r["plays"]:
            if p["taker"] is None or p["made"] is None:
                continue
            side = "a" if p["taker"] in p["a_seats"] else "b"
            made[side][0] += 1
            made[side][1] += int(bool(p["made"]))
            made[side][2] += p["scores"][p["taker"]]
    return {
        "config": asdict(cfg),
        "deals": len(results),
        "mean_diff": mean, "ci95": [lo, hi],
        "per_seat": [{"mean": m, "ci95": [a, b]} for m, a, b in per_seat],
        "per_seat_label": "team of A (as {0,2}, as {1,3})"
        if is_partnership(cfg.game, cfg.options) else "A's seat",
        # the contracts each agent took, and the taker's own deal score on them
        "contracts": {side: {"taken": t, "made": m, "made_rate": (m / t if t else None),
                             "taker_score": (pts / t if t else None)}
                      for side, (t, m, pts) in made.items()},
        "results": results,
    }


def format_summary(summary: dict[str, Any]) -> str:
    cfg = summary["config"]
    lines = [f"{cfg['game']}: {cfg['spec_a']} (A) vs {cfg['spec_b']} (B), "
             f"{summary['deals']} deals, seed {cfg['seed']}",
             f"A - B per deal: {summary['mean_diff']:+.2f}  95% CI "
             f"[{summary['ci95'][0]:+.2f}, {summary['ci95'][1]:+.2f}]"]
    for s, row in enumerate(summary["per_seat"]):
        lines.append(f"  {summary['per_seat_label']} {s}: {row['mean']:+.2f} "
                     f"[{row['ci95'][0]:+.2f}, {row['ci95'][1]:+.2f}]")
    for side in ("a", "b"):
        c = summary["contracts"][side]
        if c["taken"]:
            lines.append(f"  contracts taken by {side.upper()}: {c['taken']}, made "
                         f"{100 * c['made_rate']:.1f}%, taker's mean score "
                         f"{c['taker_score']:+.1f}")
    return "\n".join(lines)


def write_json(summary: dict[str, Any], path: str) -> None:
    with open(path, "w") as f:
        json.dump(summary, f, indent=1)
