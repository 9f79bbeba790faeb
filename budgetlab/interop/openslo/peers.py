"""The SLO files of OpenSLO's peers, read by :func:`~.read.read_openslo` into the same documents:
Sloth's ``prometheus/v1`` specs (:mod:`.sloth`) and Pyrra's ``ServiceLevelObjective``
resources (:mod:`.pyrra`)."""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ._fields import quoted
from .model import SLODocument
from .pyrra import from_pyrra, is_pyrra
from .sloth import from_sloth, is_sloth_spec

__all__ = ["peer_documents", "unique_names"]


def peer_documents(objects: list[Any], label: str) -> list[SLODocument] | None:
    """The SLOs of a file of Sloth specs (one per YAML document) or Pyrra resources; ``None``
    for any other file (OpenSLO). A file that mixes them is refused."""
    if all(is_sloth_spec(o) for o in objects):
        return [d for o in objects for d in from_sloth(o, label)]
    if all(is_pyrra(o) for o in objects):
        return from_pyrra(objects, label)
    if any(is_sloth_spec(o) or is_pyrra(o) for o in objects):
        raise ConfigError(f"{label}: mixes Sloth or Pyrra specs with other objects; give them in files apart.")
    return None


def unique_names(docs: list[SLODocument], label: str) -> list[SLODocument]:
    """``docs``, whose names must be unique (budgetlab names an SLO by its name alone)."""
    names = [d.name for d in docs]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise ConfigError(f"{label}: two SLOs are named {quoted(dup)}; SLO names must be unique (FILE#NAME could "
                          "not tell them apart): rename one.")
    return docs
