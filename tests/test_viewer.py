"""The deal viewer (`atout view`, issue 27) in a real browser: the page of an example
deal of every game is opened in headless Chromium (Debian's package, which .ci/run
installs), stepped through with its forward and back buttons, and the values it shows
are read from the DOM and compared with `atout solve --at K` at those positions; a
screenshot of each page is saved (and checked to be a real picture).

Without a chromium binary the browser tests skip, saying so (CI has one)."""

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.analyse import loss_text
from solver.cli import cli, main
from solver.notation import parse_record
from solver.viewer import page_data, render

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# a node budget per search keeps the pages quick to write and the same on a loaded
# machine (a wall-clock deadline would not): early Tarot and Tarocchini positions get
# labelled estimates, late ones exact values
NODES = 300_000
LIMITS = ["--deadline", "60", "--node-budget", str(NODES)]
BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(b)), None)
# CI (.ci/run installs Chromium) must run the browser tests; elsewhere they skip
needs_browser = pytest.mark.skipif(
    BROWSER is None and not os.environ.get("CI"),
    reason="no chromium binary on PATH (CI installs Debian's chromium: apt-get install -y "
    "chromium)")

GAMES = ["coinche_deal", "belote_ex10", "tarot4", "tarocchini_ottocento",
         "tarocchini_terziglio"]
MORE = ["tarot3", "tarot5", "tarocchini_terziglio_solo"]


def browse(url: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-extensions", "--window-size=1500,1000", *extra, url],
        capture_output=True, text=True, timeout=120)


def write(tmp_path, name: str) -> tuple[Path, dict]:
    out = tmp_path / f"{name}.html"
    res = CliRunner().invoke(cli, ["view", str(EXAMPLES / f"{name}.txt"), "-o", str(out),
                                   *LIMITS])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script id="deal-data" type="application/json">(.*?)'
                                r"</script>", text, re.S).group(1).replace("<\\/", "</"))
    return out, data


def solve_at(name: str, k: int) -> dict:
    res = CliRunner().invoke(cli, ["solve", str(EXAMPLES / f"{name}.txt"), "--at", str(k),
                                   "--no-line", "--json", "--deadline", "60",
                                   "--node-budget", "3000000"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["analysis"]


def check_page_in_browser(tmp_path, name: str) -> None:
    assert BROWSER, "CI runs the browser tests: .ci/run installs Debian's chromium"
    page, data = write(tmp_path, name)
    card_positions = [k for k, f in enumerate(data["frames"]) if f.get("values")]
    assert card_positions, "no card position"
    middle = card_positions[len(card_positions) // 2]
    # one browser run: the page opens at the linked position (#pos=K), steps through
    # every position with its forward button, then one back, and returns to K, where
    # the screenshot is taken
    shot = tmp_path / f"{name}.png"
    dom = browse(page.as_uri() + f"#pos={middle}&walk", "--dump-dom",
                 f"--screenshot={shot}")
    assert dom.returncode == 0, dom.stderr[-2000:]
    m = re.search(r'<pre id="walk"[^>]*>(.*?)</pre>', dom.stdout, re.S)
    assert m, "the page did not step through the play: " + dom.stdout[-500:]
    walked = json.loads(html.unescape(m.group(1)))
    frames = walked["frames"]
    n = len(data["moves"])
    assert walked["start"] == middle and f'data-pos="{middle}"' in dom.stdout
    assert [f["pos"] for f in frames] == list(range(n + 1))
    assert walked["back"] == n - 1
    assert [f["pos"] for f in frames if f["rows"]] == card_positions
    for f in frames:
        if not f["rows"]:
            continue
        # the seat's cards carry the marks of the table's rows ("=", "-n"; "~" estimate)
        shown = {r["move"].split(":")[0]: r["shown"] for r in reversed(f["rows"])}
        assert sorted(map(tuple, f["marks"])) == sorted(shown.items())
        for r in f["rows"]:
            assert r["label"] == ("exact" if r["exact"] == "1" else
                                  "estimate" if r["value"] else "stopped")
            if r["value"]:
                assert r["shown"].removeprefix("~") == loss_text(float(r["loss"]))
                assert r["shown"].startswith("~") == (r["exact"] == "0")
    # compare with atout solve at positions spread over the play where the page has
    # exact values: a value the page calls exact is the solver's exact value
    exact_positions = [f["pos"] for f in frames
                       if any(r["exact"] == "1" for r in f["rows"])]
    assert exact_positions, f"{name}: no exact value on the page"
    picks = sorted({exact_positions[i * (len(exact_positions) - 1) // 3] for i in range(4)})
    compared = 0
    for k in picks:
        rows = {r["move"]: r for r in frames[k]["rows"]}
        solved = solve_at(name, k)
        assert set(rows) == {c["move"] for c in solved["cards"]}
        for c in solved["cards"]:
            exact = c.get("exact", c["complete"] and not solved.get("estimate"))
            r = rows[c["move"]]
            if r["exact"] == "1" and exact:
                assert float(r["value"]) == c["value"], (name, k, c["move"])
                compared += 1
    assert compared, f"{name}: no exact value compared with atout solve"
    # the screenshot a person reads (looked at: benchmarks/RESULTS.md, issue 27)
    assert shot.exists(), dom.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


@needs_browser
@pytest.mark.parametrize("name", GAMES)
def test_viewer_page_in_a_browser(tmp_path, name):
    check_page_in_browser(tmp_path, name)


@needs_browser
@pytest.mark.slow
@pytest.mark.parametrize("name", MORE)
def test_viewer_page_in_a_browser_more(tmp_path, name):
    check_page_in_browser(tmp_path, name)


def test_page_is_self_contained_and_labels_estimates():
    record = parse_record((EXAMPLES / "tarocchini_terziglio.txt").read_text())
    data = page_data(record, deadline=60, node_budget=NODES, table=False)
    page = render(data)
    # nothing fetched from a network: no external address, script or stylesheet
    assert not re.search(r"(src|href)\s*=\s*\"(https?:)?//", page)
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page
    frames = [f for f in data["frames"] if f.get("values")]
    # early Terziglio positions are out of reach of the exact search: estimates,
    # labelled on every card; the last ones are exact
    assert not frames[0]["values"]["exact"]
    assert all(not c["exact"] for c in frames[0]["values"]["cards"])
    assert frames[-1]["values"]["exact"]
    # the loss is against the best card for the seat to act: the best is 0, none < 0
    # (a card a limit stopped has no value: "stopped", no loss)
    for f in frames:
        losses = [c["loss"] for c in f["values"]["cards"] if c["loss"] is not None]
        assert not losses or min(losses) == 0
        assert all(c["loss"] is None for c in f["values"]["cards"] if c["value"] is None)


def test_coinche_page_values_equal_the_solver():
    """Belote/Coinche are exact at every position: the page's values are those of
    `atout solve --at K` (without a browser, on the page's data)."""
    record = parse_record((EXAMPLES / "coinche_deal.txt").read_text())
    data = page_data(record, deadline=5.0, table=True)
    assert data["table"]["par"] is not None
    for k in (6, 20, 33):
        values = data["frames"][k]["values"]
        assert values["exact"]
        solved = solve_at("coinche_deal", k)
        assert {c["move"]: c["value"] for c in values["cards"]} == \
            {c["move"]: c["value"] for c in solved["cards"]}


def test_view_bad_input_is_one_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "coinche"][Deal "JS 9S"]')
    for args in (["view", str(bad), "-o", str(tmp_path / "x.html")],
                 ["view", str(EXAMPLES / "coinche_deal.txt"), "-o",
                  str(tmp_path / "no" / "x.html")]):
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("atout: error: ") and err.count("\n") == 1


@needs_browser
def test_review_page_in_a_browser_highlights_the_costly_decisions(tmp_path):
    page = tmp_path / "review.html"
    res = CliRunner().invoke(cli, ["review", str(EXAMPLES / "coinche_deal.txt"), "--worlds",
                                   "2", "--json", "--html", str(page), *LIMITS])
    assert res.exit_code == 0, res.output
    verdicts = [d["verdict"] for d in json.loads(res.stdout)["decisions"]]
    assert "mistake" in verdicts
    k = json.loads(res.stdout)["decisions"][-1]["k"]
    dom = browse(page.as_uri() + f"#pos={k}", "--dump-dom").stdout
    rows = re.findall(r'<tr class="(\w*)( now)?" data-k="(\d+)"', dom)
    assert [v or "ok" for v, _, _ in rows] == verdicts
    assert [kk for _, now, kk in rows if now] == [str(k)]  # the position's own row
