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
