"""budgetlab's tests. A package, with ``tests/interop`` and ``tests/docs``: their ``conftest.py``
files are imported as ``tests.interop.conftest`` and ``tests.docs.conftest`` (rootdir-relative,
like every helper import here), not both as ``conftest``, so that any set of test folders
collects (``--doctest-modules`` imports each conftest once more as a module, and two modules
named ``conftest`` clash)."""
