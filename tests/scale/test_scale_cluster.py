"""minors.scale on a real Dask cluster: a `distributed.LocalCluster` of two worker
processes started under different PYTHONHASHSEEDs, reached by its scheduler's address as
`--scheduler` reaches one; small runs of `simulate` and `explore` there equal the runs in
this process (docs/scale.md)."""

from __future__ import annotations

import importlib
import logging
import os
import site
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from minors.scale import Campaigns, Runner, Search, explore, root_game, run_campaigns
from minors.scale.runner import Payload
from tests.paths import DATA, ROOT


def _needs(name: str) -> ModuleType:
    """The module, or a skip where the scale extra is not installed; CI installs it and
    never skips."""
    if os.environ.get("CI") == "true":
        return importlib.import_module(name)
    return pytest.importorskip(name, reason="needs the scale extra: pip install -e '.[scale]'")


dask = _needs("dask")
distributed = _needs("distributed")

BROKEN = DATA / "broken_vichy.toml"
SEEDS = ("1", "2")


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """A scheduler with two single-threaded worker processes, one started with each of
    `SEEDS` as its PYTHONHASHSEED. distributed pins one seed for every worker unless told
    otherwise, and a nanny takes the seed from this process's environment before its
    configuration, so both are set while each worker starts (and put back after)."""
    before = os.environ.get("PYTHONHASHSEED")
    with (
        distributed.LocalCluster(
            n_workers=0,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # any free port: 8787 may be taken
            silence_logs=logging.ERROR,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        try:
            for count, seed in enumerate(SEEDS, start=1):
                os.environ["PYTHONHASHSEED"] = seed
                with dask.config.set({"distributed.nanny.pre-spawn-environ.PYTHONHASHSEED": seed}):
                    cluster.scale(count)
                    client.wait_for_workers(count, timeout=120)
        finally:
            if before is None:
                os.environ.pop("PYTHONHASHSEED", None)
            else:
                os.environ["PYTHONHASHSEED"] = before
        hashes = client.run(hash, "minors")
        assert len(set(hashes.values())) == 2, "the workers hash strings alike"
        yield cluster.scheduler_address


def test_simulate_on_the_cluster_equals_this_process(address: str) -> None:
    """Eight campaigns on the two workers give the results of one process, in order."""
    spec = Campaigns.of(root_game(None, None, [], None), "1939-winter/axis/diplomacy", seed=11)
    with Runner(scheduler=address) as cluster:
        assert (cluster.setup.mode, cluster.partitions) == ("cluster", 2)
        there = run_campaigns(spec, 8, cluster)
    with Runner(workers=1) as alone:
        here = run_campaigns(spec, 8, alone)
    assert there == here


def test_explore_on_the_cluster_equals_this_process(address: str) -> None:
    """The planted bug's search, its frontier split by key over the two workers, finds the
    same positions, states and counterexample as one process."""
    root = root_game(None, "1939-fall/allies/construction", [str(BROKEN)], None)
    search = Search.of(root, kinds=["refuse_association", "surrender"], depth=4)
    with Runner(scheduler=address) as cluster:
        there = explore(search, cluster, max_states=150)
    with Runner(workers=1) as alone:
        here = explore(search, alone, max_states=150)
    assert there == here
    assert [v.invariant for v in there.violations] == ["statuses_fit"]


def dies_once(marker: str, item: int) -> int:
    """A task that kills its worker process the first time it runs item 0 (a worker lost
    in the middle of a job), and doubles its item."""
    if item == 0 and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return item * 2


def test_a_worker_that_dies_loses_nothing(address: str, tmp_path: Path) -> None:
    """A worker dying on a task loses nothing: it runs again elsewhere, results whole, in order."""
    marker = tmp_path / "died"
    with distributed.Client(address) as client:  # the workers import this module (by name)
        client.run(site.addsitedir, str(ROOT))
    with Runner(scheduler=address) as cluster:
        assert cluster.map(dies_once, Payload.of(str(marker)), [0, 1, 2, 3]) == [0, 2, 4, 6]
    assert marker.exists()  # the first run of item 0 did kill its worker
