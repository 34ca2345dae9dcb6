"""The README's Python example runs as printed (documentation that cannot rot)."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has a Python example"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "ended the deal" in out
    # the double-dummy part printed one line per legal card with its value
    assert len(re.findall(r"^\S+ \d+ \d+$", out, re.M)) >= 2


def test_ci_runs_exactly_the_readme_test_command():
    text = README.read_text(encoding="utf-8")
    start = text.index("Install and run the tests")
    command = re.search(r"```sh\n(.*?)\n```", text[start:], re.S).group(1).strip()
    lines = (README.parent / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert lines[-1] == command
    # before it, only the set-up and Debian's Chromium for the viewer's browser test
    # (tests/test_viewer.py): no other test is run
    before = [ln for ln in lines[:-1] if ln.strip() and not ln.startswith("#")]
    assert before == ["set -euo pipefail", 'cd "$(dirname "$0")/.."',
                      "command -v chromium >/dev/null || { apt-get update -q && "
                      "DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium "
                      ">/dev/null; }"]
    # parallel workers (pytest-xdist, in the test extra) and the slowest tests printed
    assert "pytest -q -n auto --durations=15" in command


def test_test_extra_has_what_the_test_command_needs():
    import tomllib
    extra = tomllib.loads((README.parent / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["test"]
    assert any(req.startswith("pytest-xdist") for req in extra)


def test_readme_shows_view_review_and_analyse():
    """issue 27: one example of each of the analysis commands, and each in the table."""
    text = README.read_text(encoding="utf-8")
    for cmd in ("view", "review", "analyse"):
        assert f"$ atout {cmd} examples/" in text or f"$ atout {cmd} benchmarks/" in text
        assert f"| `atout {cmd} " in text
