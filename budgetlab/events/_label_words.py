"""The refusal of outcome labels nothing gives a meaning, and the fix it proposes: the labels
with their counts (those that look like personal data hidden), and the exact ``outcomes=`` /
``--outcomes`` to paste, each unknown label as ``label=?``: budgetlab never guesses a meaning.
"""

from __future__ import annotations

import re

import numpy as np

from .._util.words import counted, say
from ..errors import OutcomeError
from ._messages import personal_mask

__all__ = ["NON_FINAL_STATES", "show_labels", "outcomes_fix", "unknown_labels_error"]

#: At most this many ``label=meaning`` pairs are proposed; then ``,...``.
_MAX_SUGGESTED = 30
_PLAIN = re.compile(r"[^\s,=']+")  # a label written bare in --outcomes
#: Labels that often name states that are not final (a job still running): the refusal says so,
#: the suggestion stays ``label=?`` (the user chooses).
NON_FINAL_STATES = frozenset({"pending", "processing", "queued", "running", "in_progress",
                              "started", "scheduled", "waiting", "retrying", "cancelled",
                              "canceled", "created", "submitted", "accepted", "active", "new",
                              "open", "in_queue"})


def show_labels(labels: list[str], counts: list[int]) -> str:
    """Labels with counts for a message; labels that look like personal data are not shown."""
    hidden = personal_mask(np.asarray(labels, dtype=object))
    out = [f"{lab[:40]!r} ({c:,})" for lab, c, h in zip(labels, counts, hidden, strict=True)
           if not h]
    text = ", ".join(out[:20]) + (f" and {len(out) - 20} more" if len(out) > 20 else "")
    if hidden.any():
        text += (", and " if text else "") + f"{counted(int(hidden.sum()), 'label')} hidden as " \
            "possible personal data"
    return text


def outcomes_fix(known: dict[str, str], unknown: list[str]) -> str:
    """The exact ``--outcomes`` and ``outcomes=`` to pass: the labels already understood, then
    the unknown ones with ``?``: always ``?``, never a guessed meaning (``accepted`` is a success
    in an SSH log, a state that is not final in a job queue)."""
    pairs = [*known.items(), *((u, "?") for u in unknown)]
    more = ",..." if len(pairs) > _MAX_SUGGESTED else ""
    pairs = pairs[:_MAX_SUGGESTED]
    cli = ",".join(f"{k if _PLAIN.fullmatch(k) else repr(k)}={v}" for k, v in pairs)
    api = ", ".join(f"{k!r}: {v!r}" for k, v in pairs)
    return say(f"outcomes={{{api}{more.replace(',', ', ')}}}", f"--outcomes {cli}{more}")


def unknown_labels_error(norm: list[str], counts: np.ndarray, unknown: list[int],
                         known: dict[str, str], hidden: np.ndarray, mapping: bool) -> OutcomeError:
    """The refusal of labels nothing gives a meaning (``unknown``: their positions in ``norm``),
    with the exact fix; ``mapping``: an ``outcomes=`` mapping was given."""
    visible = [norm[i] for i in unknown if not hidden[i]]
    listed = show_labels([norm[i] for i in unknown], [int(counts[i]) for i in unknown])
    states = [u for u in visible if u in NON_FINAL_STATES]
    skip_hint = (f" Labels such as {', '.join(map(repr, states[:3]))} look like states that are "
                 "not final: if they are, map them to skip to leave those rows out."
                 if states else "")
    it = "it" if len(unknown) == 1 else "them"
    where = f"outcomes= does not list {it}" if mapping else "the built-in vocabulary does not " \
        f"know {it}, and budgetlab gives no label a meaning it cannot know"
    fix = outcomes_fix(known, visible)
    todo = "; replace each ? by success, a failure bucket name, or skip" if "=?" in fix else ""
    return OutcomeError(f"{counted(len(unknown), 'unknown outcome label')} ({where}): {listed}. "
                        f"Say what each means: {fix}{todo}.{skip_hint}")
