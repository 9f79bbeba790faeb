"""Not a library: this file makes ``notebooks/`` a package only so that pytest can import its
``conftest.py`` (and, with ``--doctest-modules``, ``_build.py``) under unique names next to
``tests/conftest.py`` when both folders are collected in one run."""
