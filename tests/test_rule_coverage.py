"""COMMON-DOC-1: every rule ID of an implemented game is cited by at least one test."""

import importlib.util

import pytest
from rules_index import cited_ids, rule_ids

GAMES = [
    # (rules file, ID prefixes, module that implements them)
    ("tarot.md", ("TAROT",), "solver.games.tarot"),
    ("belote.md", ("BELOTE",), "solver.games.belote"),
    ("coinche.md", ("COINCHE",), "solver.games.coinche"),
    ("tarocchini.md", ("TAROC", "OTTO", "TERZ"), "solver.games.tarocchini"),
]


@pytest.mark.parametrize("filename,prefixes,module", GAMES, ids=[g[0] for g in GAMES])
def test_every_rule_id_is_cited(filename, prefixes, module):
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} not implemented yet")
    ids = rule_ids(filename, prefixes)
    assert ids, f"no rule IDs found in {filename}"
    missing = sorted(ids - cited_ids())
    assert not missing, f"rule IDs of {filename} cited by no test: {missing}"
