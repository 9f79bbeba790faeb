"""pytest --nbmake notebooks/: the notebooks' kernels import the budgetlab of this checkout.

nbmake starts each kernel in this folder, where ``import budgetlab`` would find an installed copy
(or none at all). Putting the repository root first on the kernels' ``PYTHONPATH`` makes them test
the code next to them, as ``tests/`` does, and lets ``budgetlab.datasets`` find ``data/``.
"""

import os
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
_paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
if ROOT not in _paths:
    os.environ["PYTHONPATH"] = os.pathsep.join([ROOT, *_paths])
os.environ.setdefault("TQDM_DISABLE", "1")
