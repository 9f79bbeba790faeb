"""Interop tests (OpenSLO, Prometheus); a package: see ``tests/__init__.py``."""
