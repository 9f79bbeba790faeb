"""The suite's check for Dask clusters left running (tests/leaks.py, run after every test module
by tests/conftest.py) finds an open one and passes a closed one.

Oracle: the names distributed gives what a ``LocalCluster`` with one process worker starts: the
event loop thread ``IO loop`` (distributed/utils.py ``LoopRunner``), the nanny's worker process
``Dask Worker process (from Nanny)`` (distributed/nanny.py) and its watcher thread ``AsyncProcess
... watch process join`` (distributed/process.py); the worker's pid from its nanny.
"""

from __future__ import annotations

import pytest
from distributed import Client, LocalCluster

from tests.leaks import cluster_leftovers

# xdist_group: with -n, one worker runs the tests that start a Dask cluster
pytestmark = [pytest.mark.dask, pytest.mark.xdist_group("dask_cluster")]

WORKER = "Dask Worker process (from Nanny)"


def test_an_open_cluster_is_found_and_a_closed_one_is_not():
    assert cluster_leftovers(wait=0) == []
    with (LocalCluster(n_workers=1, threads_per_worker=1, processes=True, memory_limit="1GiB",
                       dashboard_address=":0") as cluster,
          Client(cluster)):
        left = cluster_leftovers(wait=0)
        (nanny,) = cluster.workers.values()
        assert "IO loop" in left
        assert f"AsyncProcess {WORKER} watch process join" in left
        assert [x for x in left if x.startswith(WORKER)] == [f"{WORKER} (pid {nanny.pid})"]
    assert cluster_leftovers() == []
