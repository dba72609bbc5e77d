"""`benchmarks/facet_report.py` reports the labelled share of a library, with a sample.

Not a speed test: it proves the report runs against the current tagger and counts what
it should: an ML-systems paper labelled, a law review article not.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import facet_report  # noqa: E402


def test_the_facet_report_counts_labels_and_samples_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = tmp_path / "mixed.bib"
    library.write_text(
        "@article{gpu, title = {Paged attention for the KV cache of LLM serving on GPUs},"
        " abstract = {We schedule CUDA kernels on NVIDIA A100 GPUs to raise inference"
        " throughput of large language models.}, author = {Ann Lee}, year = {2024}}\n"
        "@article{law, title = {Comparative negligence in tort law}, author = {Bo Kim},"
        " year = {1990}, journal = {Law Review}}\n",
        encoding="utf-8",
    )
    assert facet_report.main([str(library), "--sample", "5", "--json"]) == 0
    [found] = json.loads(capsys.readouterr().out)
    assert (found["file"], found["papers"], found["labelled"]) == ("mixed.bib", 2, 1)
    assert found["topic"] == 1 and found["hardware"] == 1
    [labelled] = found["sample"]
    assert "Paged attention" in json.dumps(labelled)
