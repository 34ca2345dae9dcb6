"""The repository stands alone: the rules it cites are in docs/rules/, no file points
outside the clone, every relative link of the docs resolves inside it, and every rule ID
cited by code, tests or docs exists in docs/rules/ (the repository's own copy of the
rules; nothing here reads outside the clone)."""

import re
from pathlib import Path

from rules_index import ID_RE, REPO, RULES

SKIP_DIRS = {".git", ".venv", "venv", "build", "dist", "__pycache__", ".pytest_cache",
             ".hypothesis", ".ruff_cache", "node_modules"}
TEXT_SUFFIXES = {".py", ".pyx", ".pxd", ".md", ".toml", ".cfg", ".txt", ".ini", ".sh", ".yml",
                 ".yaml", ""}
# the workspace folder beside the clone that the rules and the design were copied from
OUTER = "shared"
# a path into it: up-level paths to it, or its rules/, DESIGN, seeds/, hooks/
OUTSIDE = re.compile(rf"(?:\.\./)+{OUTER}\b|\b{OUTER}/(?:rules|DESIGN|seeds|hooks)\b")
# the copies say where they were made from, in their opening note (a "> " block quote)
PROVENANCE = {"docs/rules/README.md", "docs/DESIGN.md"}
PREFIXES = {"COMMON", "TAROT", "BELOTE", "COINCHE", "TAROC", "OTTO", "TERZ"}
RULE_FILES = ["README.md", "belote.md", "coinche.md", "tarocchini.md", "tarot.md"]


def repo_files():
    """The repository's text files (walked, so that an sdist or a copy is checked too)."""
    for path in sorted(REPO.rglob("*")):
        rel = path.relative_to(REPO)
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path.name != Path(__file__).name:
            yield rel.as_posix(), path


def test_rules_are_in_the_repository():
    assert [f for f in RULE_FILES if not (RULES / f).is_file()] == []


def test_no_file_points_outside_the_repository():
    bad = []
    for rel, path in repo_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if not OUTSIDE.search(line):
                continue
            if rel in PROVENANCE and line.startswith(">"):
                continue
            bad.append(f"{rel}:{n}: {line.strip()}")
    assert bad == [], "references to files outside the repository:\n" + "\n".join(bad)


def test_outside_pattern_catches_the_old_references():
    for s in [f"../{OUTER}/rules/tarot.md", f"`../{OUTER}/DESIGN.md`",
              f"rules: {OUTER}/rules/x.md", f"../../{OUTER}/seeds/"]:
        assert OUTSIDE.search(s), s
    for s in ["shared parts in belote_common.py", "one shared table", "the shared machine"]:
        assert not OUTSIDE.search(s), s


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_relative_doc_link_resolves_inside_the_repository():
    bad = []
    for rel, path in repo_files():
        if path.suffix != ".md":
            continue
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue                                    # URL or anchor
            dest = (path.parent / target.split("#")[0]).resolve()
            if not dest.exists() or REPO.resolve() not in [dest, *dest.parents]:
                bad.append(f"{rel}: {target}")
    assert bad == []


def test_every_cited_rule_id_exists_in_docs_rules():
    defined = set()
    for f in RULE_FILES:
        defined |= set(ID_RE.findall((RULES / f).read_text(encoding="utf-8")))
    missing = []
    for rel, path in repo_files():
        if rel.startswith(("docs/rules/", "benchmarks/")) or path.suffix not in {".py", ".pyx", ".md"}:
            continue
        for rid in set(ID_RE.findall(path.read_text(encoding="utf-8"))):
            if rid.split("-")[0] in PREFIXES and rid not in defined:
                missing.append(f"{rel}: {rid}")
    assert sorted(missing) == []


def test_pytest_without_the_compiled_core_stops_at_once_in_one_line(tmp_path):
    """``python -m pytest`` in a source checkout that was not built in place imports the
    source folder, which has no compiled core: conftest.py stops the run in one line."""
    import shutil
    import subprocess
    import sys

    (tmp_path / "solver").mkdir()
    (tmp_path / "solver" / "__init__.py").write_text("")
    (tmp_path / "tests").mkdir()
    shutil.copy(REPO / "tests" / "conftest.py", tmp_path / "tests" / "conftest.py")
    (tmp_path / "tests" / "test_x.py").write_text("def test_x():\n    pass\n")
    code = ("import sys; sys.path.insert(0, '');"
            # an editable install's finder would find the core of this checkout instead
            "sys.meta_path = [f for f in sys.meta_path if 'editable' not in repr(f).lower()];"
            "import pytest; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', 'tests']))")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    lines = [ln for ln in (run.stdout + run.stderr).splitlines() if ln.strip()]
    assert run.returncode == 4, lines
    assert len(lines) == 1 and "C core is not built" in lines[0], lines
    assert "pip install -e '.[test]'" in lines[0]
