"""Scale-out on Dask: the same analyses on histories that do not fit one machine.

``budgetlab.dask`` offers the names of the pandas
API for :class:`dask.dataframe.DataFrame` inputs, with the same arguments and the same results
(tested equal to the pandas path on a ``distributed.LocalCluster``):

=====================  ===========================================  ==============================
function               runs on the workers                          returns
=====================  ===========================================  ==============================
:func:`read_events`    :func:`budgetlab.read_events` per partition  lazy Dask events (canonical)
:func:`bin_events`     :func:`budgetlab.bin_events` per             pandas bins table (small)
                       partition, partial counts summed in a tree
:func:`replay`         shuffle by group, sort by time, the pandas   lazy Dask states
                       :func:`budgetlab.replay` kernel per group
:func:`transitions`    :func:`budgetlab.transitions` per partition  pandas transitions table
=====================  ===========================================  ==============================

The top-level ``budgetlab`` functions stay pandas-only. Needs the optional extra
``pip install 'budgetlab[dask]'``. Import it as ``import budgetlab.dask as bd``; the scheduler is
whatever Dask uses (a ``distributed.Client`` when one exists, else Dask's local threads).

**Order.** Each partition of a Dask event table is sorted stably by ``ts`` (equal times keep file
order), partitions keep file/path order, and the index restarts at 0 in every partition. For a
hive layout by date (``date=YYYY-MM-DD/part.parquet``) that is the pandas order, partition by
partition. :func:`replay` does not depend on it: it tags each event with ``event_id`` (partition
number x 2**40 + row in the partition, so sorting by it restores the event table's order), and
sorts each group by ``(ts, event_id)``: exactly the per-group order of the pandas path, ties
included.

**Limit.** :func:`replay` puts every group (every group-key combination; the whole table when
``by`` is None) in one partition: a group must fit in one worker's memory, about 90-100 bytes
per event while it is replayed (measured: 19 B of input and a 74 B peak in the kernel, which
leaves 76 B of states), on top of a worker's fixed ~370 MB.
Use finer group keys, or fewer concurrent tasks and more memory per worker, for a bigger group.

Modules: :mod:`.read`, :mod:`.bins` and :mod:`.tracker_replay`, one per pandas module they mirror.
"""

from __future__ import annotations

try:
    import dask.dataframe  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "budgetlab.dask needs Dask: install the optional extra with pip install 'budgetlab[dask]'."
    ) from exc

from .bins import bin_events
from .read import read_events
from .tracker_replay import EVENT_ID, ROW_BITS, replay, transitions

__all__ = ["read_events", "bin_events", "replay", "transitions", "EVENT_ID", "ROW_BITS"]
