"""Rule IDs of ../shared/rules and the IDs cited by the test files (for coverage tests)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ID_RE = re.compile(r"\b([A-Z]+-[A-Z]+-\d+)\b")


def rules_dir() -> Path:
    """The authoritative rules folder: ../shared/rules beside the repository."""
    for base in [TESTS.parent, *TESTS.parents]:
        cand = base.parent / "shared" / "rules"
        if cand.is_dir():
            return cand
        cand = base / "shared" / "rules"
        if cand.is_dir():
            return cand
    raise FileNotFoundError("cannot find shared/rules next to the repository")


def rule_ids(filename: str, prefixes: tuple[str, ...]) -> set[str]:
    text = (rules_dir() / filename).read_text(encoding="utf-8")
    return {m for m in ID_RE.findall(text) if m.split("-")[0] in prefixes}


def cited_ids() -> set[str]:
    out: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        out |= set(ID_RE.findall(path.read_text(encoding="utf-8")))
    return out
