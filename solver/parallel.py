"""Threads for independent searches (PIMC worlds, bid-analysis samples).

The double-dummy searches run in the C core with the GIL released, so worlds solved in
threads use several cores of one process. Results come back in input order, so the
caller's aggregation (and hence every decision) is the same whatever the thread count.
Each thread keeps its own solvers (``solver.dd.<game>`` caches them per thread).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from .errors import OptionError

T = TypeVar("T")
R = TypeVar("R")

_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def check_threads(threads: Any) -> int:
    """A validated thread count (a positive integer)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise OptionError(f"threads must be a positive integer, got {threads!r}")
    return threads


def _pool(threads: int) -> ThreadPoolExecutor:
    # One pool per size for the process: creating threads per decision costs more
    # than a small search.
    with _pools_lock:
        pool = _pools.get(threads)
        if pool is None:
            pool = _pools[threads] = ThreadPoolExecutor(threads, "atout-search")
        return pool


def ordered_map(fn: Callable[[T], R], items: Iterable[T], threads: int = 1) -> Iterator[R]:
    """``map(fn, items)`` computed by ``threads`` threads, yielded in input order.

    A few items per thread are queued ahead, so a thread that finishes a quick item
    does not wait for a slow one before it; when the consumer stops early (a time
    budget), queued items are cancelled and only the running ones (one per thread)
    are waited for."""
    if threads <= 1:
        yield from map(fn, items)
        return
    pool = _pool(threads)
    pending: deque[Future[R]] = deque()
    source = iter(items)
    ahead = 4 * threads
    try:
        for item in source:
            pending.append(pool.submit(fn, item))
            if len(pending) >= ahead:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for f in pending:
            f.cancel()
        for f in pending:
            if not f.cancelled():
                f.exception()  # wait: the caller's solvers must be idle when it goes on


def per_thread(factory: Callable[[Any], R]) -> Callable[[Any], R]:
    """``factory(key)`` cached per thread and key: each thread gets its own solver
    (a core object and its transposition table must not be shared between threads)."""
    local = threading.local()

    def get(key: Any) -> R:
        cache = getattr(local, "cache", None)
        if cache is None:
            cache = local.cache = {}
        obj = cache.get(key)
        if obj is None:
            obj = cache[key] = factory(key)
        return obj

    return get
