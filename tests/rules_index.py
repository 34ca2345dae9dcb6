"""Rule IDs of docs/rules and the IDs cited by the test files (for coverage tests)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ID_RE = re.compile(r"\b([A-Z]+-[A-Z]+-\d+)\b")
REPO = TESTS.parent
RULES = REPO / "docs" / "rules"


def rules_dir() -> Path:
    """The rules folder: docs/rules in the repository (a copy of the shared rules source)."""
    if not RULES.is_dir():
        raise FileNotFoundError(f"the rules folder {RULES} is missing")
    return RULES


def rule_ids(filename: str, prefixes: tuple[str, ...]) -> set[str]:
    text = (rules_dir() / filename).read_text(encoding="utf-8")
    return {m for m in ID_RE.findall(text) if m.split("-")[0] in prefixes}


def cited_ids() -> set[str]:
    out: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        out |= set(ID_RE.findall(path.read_text(encoding="utf-8")))
    return out
