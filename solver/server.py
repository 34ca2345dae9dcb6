"""``atout serve --listen HOST:PORT``: the JSON-lines protocol (docs/PROTOCOL.md) over TCP.

One asyncio loop reads requests from many clients; engine work (``move``, ``legal``,
``solve``, ``evaluate``, the checks behind ``new_game``/``observe``) runs in a pool of
worker processes, so one slow search never blocks the other clients. Each connection's
replies come in the order of its requests. Limits: ``max_line`` bytes per request (a
longer line is skipped up to its newline and answered with one error), ``timeout``
seconds per request (``move`` asks PIMC to stop before it; past it the reply is an error
and the worker's result is dropped), ``max_queue`` engine requests waiting or running
(beyond it: ``{"ok": false, "busy": true, ...}`` at once). Sessions live in the server
process (``solver.session``). Listening beyond the loopback needs a ``token``, which
every request then carries (``"token": T``). SIGTERM/SIGINT: stop accepting, answer the
requests in flight, close.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import os
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .errors import AtoutError
from .session import SessionStore, is_session_request

MAX_LINE = 1 << 20  # bytes per request line
TIMEOUT = 60.0  # seconds per request
LOCAL_COMMANDS = ("version", "quit")


def _work(line: str) -> dict[str, Any]:
    """Run in a worker process: one engine request."""
    from .protocol import Stop, handle_line

    try:
        return handle_line(line)
    except Stop as stop:
        return stop.args[0]
    except BaseException as e:  # never let a worker die on a request
        return {"ok": False, "error": f"internal error ({type(e).__name__})"}


def _warm() -> int:
    import solver.games  # noqa: F401
    import solver.protocol  # noqa: F401
    return os.getpid()


def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) < 65536:
        raise AtoutError(f"--listen wants HOST:PORT, got {text[:60]!r}")
    return (host.strip("[]") or "127.0.0.1"), int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Server:
    def __init__(self, host: str = "127.0.0.1", port: int = 0, workers: int = 2,
                 token: str | None = None, max_line: int = MAX_LINE,
                 timeout: float = TIMEOUT, max_queue: int | None = None,
                 sessions: SessionStore | None = None, log=None):
        if not is_loopback(host) and not token:
            raise AtoutError(f"listening on {host} (not the loopback) needs a --token")
        if workers < 1:
            raise AtoutError(f"--workers must be at least 1, got {workers}")
        self.host, self.port, self.workers, self.token = host, port, workers, token
        self.max_line, self.timeout = max_line, timeout
        self.max_queue = max_queue if max_queue is not None else 8 * workers
        self.sessions = sessions or SessionStore()
        self.log = log
        self.pending = 0  # engine requests queued or running
        self.inflight: set[asyncio.Task] = set()
        self.stats = {"requests": 0, "busy": 0, "errors": 0, "timeouts": 0}
        self.pool: ProcessPoolExecutor | None = None
        self._server: asyncio.base_events.Server | None = None
        self._stopping: asyncio.Event | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    # --- lifecycle ---------------------------------------------------------------
    async def start(self) -> int:
        import multiprocessing

        self.pool = ProcessPoolExecutor(self.workers,
                                        mp_context=multiprocessing.get_context("fork"))
        loop = asyncio.get_running_loop()
        await asyncio.gather(*[loop.run_in_executor(self.pool, _warm)
                               for _ in range(self.workers)])
        self._stopping = asyncio.Event()
        self._server = await asyncio.start_server(self._client, self.host, self.port,
                                                  limit=1 << 16)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def request_stop(self) -> None:
        if self._stopping is not None:
            self._stopping.set()

    async def serve_until_stopped(self) -> None:
        assert self._stopping is not None and self._server is not None
        await self._stopping.wait()
        self._server.close()
        await self._server.wait_closed() if sys.version_info < (3, 12) else None
        # answer the requests in flight, then close the connections
        if self.inflight:
            await asyncio.wait(list(self.inflight), timeout=self.timeout + 5)
        for w in list(self._writers):
            w.close()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    async def run(self, ready=None) -> None:
        await self.start()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self.request_stop)
            except (NotImplementedError, RuntimeError):
                pass
        if ready is not None:
            ready(self)
        if self.log:
            self.log(f"atout serving on {self.host}:{self.port} with {self.workers} "
                     f"workers")
        await self.serve_until_stopped()

    # --- one client --------------------------------------------------------------
    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self._writers.add(writer)
        buf = b""
        skipping = False
        try:
            while not self._stopping.is_set():
                nl = buf.find(b"\n")
                if nl < 0:
                    if len(buf) > self.max_line:
                        buf, skipping = b"", True
                    try:
                        chunk = await reader.read(1 << 16)
                    except (ConnectionError, OSError):
                        return
                    if not chunk:
                        return  # EOF: a half line without newline is dropped
                    buf += chunk
                    continue
                line, buf = buf[:nl], buf[nl + 1:]
                if skipping or len(line) > self.max_line:
                    skipping = False
                    reply = {"ok": False, "error": f"request too long (more than "
                                                   f"{self.max_line} bytes)"}
                elif not line.strip():
                    continue
                else:
                    task = asyncio.ensure_future(self._answer(line))
                    self.inflight.add(task)
                    try:
                        reply = await asyncio.shield(task)
                    finally:
                        self.inflight.discard(task)
                if reply is None:  # quit
                    writer.write(b'{"ok": true}\n')
                    await writer.drain()
                    return
                writer.write(json.dumps(reply, default=str).encode() + b"\n")
                await writer.drain()
        except (ConnectionError, OSError, asyncio.CancelledError):
            return
        finally:
            self._writers.discard(writer)
            try:
                writer.close()
            except Exception:
                pass

    async def _answer(self, line: bytes) -> dict[str, Any] | None:
        self.stats["requests"] += 1
        try:
            text = line.decode("utf-8")
            req = json.loads(text)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return await self._engine(line.decode("utf-8", "replace"), {})  # its error
        if not isinstance(req, dict):
            return await self._engine(text, {})
        base = {"id": req["id"]} if "id" in req and len(json.dumps(req["id"])) <= 200 else {}
        if self.token is not None:
            got = req.get("token")
            if not isinstance(got, str) or not hmac.compare_digest(got, self.token):
                return base | {"ok": False, "error": "missing or wrong token"}
        cmd = req.get("cmd")
        if cmd == "quit":
            return None
        if cmd == "move" and isinstance(req.get("seconds"), (int, float)) \
                and not isinstance(req.get("seconds"), bool):
            req["seconds"] = min(req["seconds"], self.timeout * 0.8)
        if not is_session_request(req):
            return await self._engine(json.dumps(req), base)
        try:
            work, finish = self.sessions.prepare(req)
        except AtoutError as e:
            return base | {"ok": False, "error": str(e)[:300]}
        reply = {"ok": True} if work is None else await self._engine(json.dumps(work), {})
        try:
            return base | {"ok": True} | finish(reply) if reply.get("ok") else \
                base | finish(reply)
        except AtoutError as e:
            return base | {"ok": False, "error": str(e)[:300]}
        finally:
            self.sessions.release(req) if not reply.get("ok") else None

    async def _engine(self, line: str, base: dict[str, Any]) -> dict[str, Any]:
        if self.pending >= self.max_queue:
            self.stats["busy"] += 1
            return base | {"ok": False, "busy": True,
                           "error": f"busy: {self.pending} requests queued or running, "
                                    f"try again later"}
        self.pending += 1
        t = time.perf_counter()
        try:
            fut = asyncio.get_running_loop().run_in_executor(self.pool, _work, line)
            reply = await asyncio.wait_for(fut, self.timeout)
        except TimeoutError:
            self.stats["timeouts"] += 1
            return base | {"ok": False, "error": f"time limit exceeded ({self.timeout} s)"}
        except Exception as e:  # a broken pool
            self.stats["errors"] += 1
            return base | {"ok": False, "error": f"internal error ({type(e).__name__})"}
        finally:
            self.pending -= 1
        if self.log and time.perf_counter() - t > 5:
            self.log(f"slow request: {time.perf_counter() - t:.1f} s")
        return reply


def serve_tcp(listen: str, workers: int = 2, token: str | None = None,
              max_line: int = MAX_LINE, timeout: float = TIMEOUT) -> int:
    """The CLI entry point; returns the exit status."""
    host, port = parse_listen(listen)
    server = Server(host, port, workers, token, max_line, timeout,
                    log=lambda m: print(m, file=sys.stderr, flush=True))
    asyncio.run(server.run())
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m solver.server --listen HOST:PORT [--workers N] [--token T]``."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m solver.server")
    p.add_argument("--listen", default="127.0.0.1:8765")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--token", default=os.environ.get("ATOUT_TOKEN"))
    p.add_argument("--max-line", type=int, default=MAX_LINE)
    p.add_argument("--timeout", type=float, default=TIMEOUT)
    p.add_argument("--max-queue", type=int, default=None)
    a = p.parse_args(argv)
    try:
        host, port = parse_listen(a.listen)
        server = Server(host, port, a.workers, a.token, a.max_line, a.timeout, a.max_queue,
                        log=lambda m: print(m, file=sys.stderr, flush=True))
        asyncio.run(server.run())
    except AtoutError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
