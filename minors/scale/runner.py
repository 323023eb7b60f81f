"""Where the work of `simulate`, `explore` and `verify-many` runs: in this process, on a
`distributed.LocalCluster`, or on a Dask cluster by its scheduler's address. A job's shared
object is sent once to each worker, checked by digest (docs/scale.md)."""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
import threading
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from attrs import frozen

from ..errors import ScaleError, ScaleInputError

__all__ = ["Advance", "Payload", "Runner", "Setup", "local_workers"]

T = TypeVar("T")
R = TypeVar("R")

Advance = Callable[[int, int], None]
"""Called with (tasks done, tasks in all) as the work goes on (a progress bar)."""

Mode = Literal["sync", "threads", "local", "cluster"]


def local_workers() -> int:
    """The worker processes a local cluster starts by default: one per core."""
    return max(1, os.cpu_count() or 1)


@frozen
class Setup:
    """How the work runs: `mode` is `sync` (this process, one task at a time), `threads`
    (this process, Dask's threaded scheduler), `local` (a LocalCluster of `workers`
    processes, one thread each) or `cluster` (the Dask cluster at `address`)."""

    mode: Mode
    workers: int
    address: str | None = None

    def describe(self) -> str:
        """One line for the reader: where the work ran."""
        if self.mode == "cluster":
            return f"the Dask cluster at {self.address} ({self.workers} workers)"
        if self.mode == "local":
            return f"a local Dask cluster of {self.workers} worker processes"
        if self.mode == "threads":
            return f"this process (Dask's threaded scheduler, {self.workers} threads)"
        return "this process (one task at a time)"


@frozen
class Payload:
    """The shared object as sent: its pickle and the pickle's SHA-256."""

    blob: bytes
    digest: str

    @classmethod
    def of(cls, value: Any) -> Payload:
        """`value` pickled (the highest protocol), with the pickle's digest."""
        blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        return cls(blob, hashlib.sha256(blob).hexdigest())


_UNPACKED: dict[str, Any] = {}
_LOCK = threading.Lock()
_KEEP = 4
"""How many shared objects a worker keeps unpickled (a level of `explore` sends one)."""


def unpack(blob: bytes, digest: str) -> Any:
    """The shared object of a payload, unpickled once per worker process and digest
    (`ScaleError` if the bytes do not digest as the client said)."""
    with _LOCK:
        if digest in _UNPACKED:
            return _UNPACKED[digest]
    if hashlib.sha256(blob).hexdigest() != digest:
        raise ScaleError(f"the shared payload does not digest as sent ({digest[:12]}...)")
    value = pickle.loads(blob)
    with _LOCK:
        while len(_UNPACKED) >= _KEEP:
            _UNPACKED.pop(next(iter(_UNPACKED)))
        _UNPACKED[digest] = value
    return value


def _call(fn: Callable[[Any, T], R], blob: bytes, digest: str, item: T) -> R:
    """A task: `fn(shared, item)` on a worker."""
    return fn(unpack(blob, digest), item)


def _reachable(address: str, wait: float = 5.0) -> None:
    """Fail at once (`ScaleError`) when nothing listens at a `tcp://host:port` scheduler
    address, where a client would retry until its timeout; other protocols are left to it."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    if parts.scheme != "tcp" or parts.hostname is None or parts.port is None:
        return
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=wait):
            pass
    except OSError as exc:
        raise ScaleError(
            f"--scheduler {address}: cannot reach the scheduler: {exc.strerror or exc}"
        ) from None


class Runner:
    """Runs tasks in this process, on a local cluster, or on a Dask cluster (a context
    manager: a cluster it started is shut down when the block ends).

    Args:
        workers: local worker processes (1: this process; None: one per core, or this
            process's threads when the job is `small`, sparing a cluster's start-up).
        scheduler: the address of an existing Dask scheduler, whose workers do the work.
        progress: told (done, total) as tasks finish.
        cluster: start a local cluster even for one worker (a benchmark's baseline).
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        scheduler: str | None = None,
        small: bool = False,
        progress: Advance | None = None,
        cluster: bool = False,
    ) -> None:
        if workers is not None and workers < 1:
            raise ScaleInputError(f"--workers {workers}: give one worker or more")
        if workers is not None and scheduler is not None:
            raise ScaleInputError(
                "--workers and --scheduler: a cluster has its own workers; give one of them"
            )
        self.progress = progress
        self._sent: dict[str, Any] = {}  # by digest: a search sends its spec once, not a level
        self._client: Any = None
        self._cluster: Any = None
        if scheduler is not None:
            self.setup = Setup("cluster", 0, scheduler)
        elif workers == 1 and not cluster:
            self.setup = Setup("sync", 1)
        elif workers is None and small and not cluster:
            self.setup = Setup("threads", local_workers())
        else:
            self.setup = Setup("local", workers or local_workers())

    def __enter__(self) -> Runner:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the local cluster, or connect to the scheduler (nothing in this process)."""
        if self._client is not None or self.setup.mode in ("sync", "threads"):
            return
        from distributed import Client, LocalCluster

        if self.setup.mode == "local":
            self._cluster = LocalCluster(
                n_workers=self.setup.workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: 8787 may be taken
                silence_logs=logging.ERROR,
            )
            self._client = Client(self._cluster)
            return
        address = str(self.setup.address)
        _reachable(address)
        try:
            self._client = Client(address, timeout="30s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise ScaleError(
                f"--scheduler {self.setup.address}: cannot reach the scheduler: {exc}"
            ) from None
        workers = len(self._client.scheduler_info(n_workers=-1).get("workers", {}))
        self.setup = Setup("cluster", workers, self.setup.address)

    def close(self) -> None:
        """Disconnect, and shut down the cluster this runner started."""
        self._sent.clear()
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    @property
    def partitions(self) -> int:
        """Into how many parts a job splits its work: the number of workers (at least 1)."""
        return max(1, self.setup.workers)

    def map(self, fn: Callable[[Any, T], R], shared: Payload, items: Sequence[T]) -> list[R]:
        """`[fn(shared object, item) for item in items]`, run where this runner runs work;
        `fn` must be a module-level function (it is pickled by reference)."""
        if not items:
            return []
        if self.setup.mode in ("sync", "threads"):
            return self._local(fn, shared, items)
        self.start()
        return self._distributed(fn, shared, items)

    def _local(self, fn: Callable[[Any, T], R], shared: Payload, items: Sequence[T]) -> list[R]:
        from dask.callbacks import Callback
        from dask.local import get_sync
        from dask.threaded import get

        keys = [f"task-{i}" for i in range(len(items))]
        # each task a bare callable, so that Dask never looks inside an item for keys
        graph = {
            key: (functools.partial(_call, fn, shared.blob, shared.digest, item),)
            for key, item in zip(keys, items, strict=True)
        }
        done = [0]

        def finished(*_: object) -> None:
            done[0] += 1
            if self.progress is not None:
                self.progress(done[0], len(items))

        with Callback(posttask=finished):
            if self.setup.mode == "sync":
                return list(get_sync(graph, keys))
            return list(get(graph, keys, num_workers=self.setup.workers))

    def _distributed(
        self, fn: Callable[[Any, T], R], shared: Payload, items: Sequence[T]
    ) -> list[R]:
        from concurrent.futures import CancelledError

        from distributed import KilledWorker, as_completed
        from distributed.comm.core import CommClosedError

        client = self._client
        try:
            blob = self._sent.get(shared.digest)
            if blob is None:
                blob = self._sent[shared.digest] = client.scatter(
                    shared.blob, broadcast=True, hash=False
                )
            futures = client.map(
                _call,
                [fn] * len(items),
                [blob] * len(items),
                [shared.digest] * len(items),
                list(items),
                pure=False,
            )
            for done, _ in enumerate(as_completed(futures), start=1):
                if self.progress is not None:
                    self.progress(done, len(items))
            results: list[R] = client.gather(futures)
        except KilledWorker as exc:
            # the scheduler ran the task again on other workers, and each died with it
            raise ScaleError(
                f"the workers of {self.setup.describe()} kept dying on one task: "
                f"{exc.allowed_failures + 1} workers died running {exc.task!r} (out of "
                "memory? see the workers' logs; distributed.scheduler.allowed-failures)"
            ) from None
        except (CancelledError, CommClosedError) as exc:
            raise ScaleError(
                f"the work was lost: the connection to {self.setup.describe()} failed "
                f"({type(exc).__name__}: {exc})"
            ) from None
        return results
