"""The citation benchmarks run at their smallest and report what they promise.

Not speed tests: each proves its script still works against the current engine and
loader. The CSL suite's fixture here is written for the test in the suite's own format
(the suite's files stay out of the repository).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import citation_speed  # noqa: E402
import compare_pandoc  # noqa: E402
import csl_suite  # noqa: E402

STYLE = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>test</id><title>test</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography>
    <layout>
      <names variable="author"><name/></names>
      <text variable="title" prefix=", "/>
    </layout>
  </bibliography>
</style>"""

FIXTURE = f""">>===== MODE =====>>
bibliography
<<===== MODE =====<<

>>===== RESULT =====>>
<div class="csl-bib-body">
  <div class="csl-entry">John Doe, A Book</div>
</div>
<<===== RESULT =====<<

>>===== CSL =====>>
{STYLE}
<<===== CSL =====<<

>>===== INPUT =====>>
[{{"id": "ITEM-1", "type": "book", "title": "A Book",
   "author": [{{"family": "Doe", "given": "John"}}]}}]
<<===== INPUT =====<<
"""


def test_the_csl_suite_runner_scores_a_fixture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    humans = tmp_path / "processor-tests" / "humans"
    humans.mkdir(parents=True)
    (humans / "name_Simple.txt").write_text(FIXTURE, encoding="utf-8")
    assert csl_suite.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "bibliography fixtures: 1 " in out
    assert "paperscope      1 / 1 pass" in out and "pandoc          1 / 1 pass" in out
    assert "lost to paperscope's reading (pandoc passes, paperscope fails): 0" in out


def test_the_pandoc_comparison_counts_every_style(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{doe2020,\n  author = {Doe, John},\n  title = {A study},\n"
        "  journal = {Journal},\n  year = {2020},\n  volume = {3},\n  pages = {1--9},\n}\n",
        encoding="utf-8",
    )
    assert compare_pandoc.main([str(bib), "--limit", "5"]) == 0
    out = capsys.readouterr().out
    for style in ("apa", "ieee", "acm", "chicago", "mla"):
        assert f"{style:<8} 1 entries: identical 1 (100.0%)" in out, out


def test_the_citation_speed_benchmark_reports_its_baselines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert citation_speed.main(["--papers", "60", "--unsplit", "", "--styles", "ieee"]) == 0
    out = capsys.readouterr().out
    assert "baseline pandoc --citeproc per citation" in out
    assert "bibliography (ieee)" in out
