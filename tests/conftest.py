"""Stop at once, in one line, when the package imported has no compiled C core: e.g.
``python -m pytest`` in a source checkout imports the source folder ``solver/``, which
has the core's .so files only after an in-place build (``pip install -e``)."""

import importlib.util

import pytest

CORE = ["_bitboard", "tarot_core", "belote_core", "tarocchini_core", "sampling_core"]


def missing_core() -> tuple[str, list[str]]:
    """Where ``solver`` is imported from, and the compiled modules it lacks there."""
    spec = importlib.util.find_spec("solver")
    if spec is None or not spec.submodule_search_locations:
        return "(not found)", CORE
    where = list(spec.submodule_search_locations)[0]
    missing = [m for m in CORE if importlib.util.find_spec(f"solver.{m}") is None]
    return where, missing


def pytest_configure(config):
    where, missing = missing_core()
    if missing:
        pytest.exit(f"atout's C core is not built in {where} (missing {', '.join(missing)}): "
                    "run pip install -e '.[test]' to build it in place, or plain pytest to "
                    "test the installed package (see README)", returncode=4)
