"""Shared plumbing: argument checks, atomic output files, progress bars."""

from __future__ import annotations

