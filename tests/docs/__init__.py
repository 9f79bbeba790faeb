"""Docs tests (the pages' code blocks, the Sphinx build); a package: see ``tests/__init__.py``."""
