"""``python -m budgetlab.datasets --preset NAME [--out DIR] [--force]``: regenerate a dataset.

Writes the preset's events (Parquet) and incidents (CSV) with
:func:`budgetlab.datasets.synth.write_preset`.
``--preset all`` writes every one. ``--out`` defaults to the folder :func:`budgetlab.datasets.load`
reads, ``budgetlab/datasets/`` of the budgetlab that runs the command (in a checkout: the
repository's ``budgetlab/datasets/``, from any working directory); a missing ``--out`` folder
is made, in a folder that must exist (as ``notebooks --html`` makes its folder: a missing parent is
refused with the fix, never made silently); existing files are replaced only with ``--force``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .._util.files import make_folder
from .._util.memory import format_bytes
from .._util.words import cli_words, speak
from ..cli.prose import path_label
from ..errors import BudgetlabError
from .synth import PRESETS, write_preset

#: Where the shipped datasets live and where the command writes by default.
HOME = Path(__file__).resolve().parent


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit code (2 for a budgetlab error)."""
    parser = argparse.ArgumentParser(
        prog="python -m budgetlab.datasets",
                                     description="Regenerate budgetlab's synthetic datasets."
    )
    parser.add_argument("--preset", required=True, choices=[*PRESETS, "all"])
    parser.add_argument("--out", default=None,
                        help="output folder (default: budgetlab/datasets/ of this installation, "
                             "where load() reads)")
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    args = parser.parse_args(argv)
    names = list(PRESETS) if args.preset == "all" else [args.preset]
    out = Path(args.out) if args.out is not None else HOME
    # messages name this command's flags (--force, not force=True; --out, not out:)
    with cli_words({"force": "--force", "out": "--out"}):
        try:
            make_folder(out, flag="--out")
            for name in names:
                for path in write_preset(name, out, force=args.force):
                    print(f"wrote {path_label(path)} ({format_bytes(path.stat().st_size)})")
        except BudgetlabError as exc:
            print(f"python -m budgetlab.datasets: error: {speak(str(exc))}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
