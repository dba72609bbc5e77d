"""The language server's benchmarks run end to end at a tiny size.

Speed is never asserted (the machine is shared); this proves `benchmarks/lsp_completion.py`
builds the index, starts the server, types every keystroke and times both the server and
the engine baseline on the same keystrokes, that `benchmarks/lsp_live.py` edits an
entry and sees it offered, then served from the updated index, and that
`benchmarks/lsp_swap.py` times the swap to an index opened again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import lsp_completion  # noqa: E402
import lsp_live  # noqa: E402
import lsp_swap  # noqa: E402


def test_keystrokes_are_every_prefix() -> None:
    assert lsp_completion.keystrokes("ab c") == ["a", "ab", "ab ", "ab c"]


def test_a_tiny_run_times_the_server_and_the_engine(tmp_path: Path) -> None:
    result = lsp_completion.run_size(40, 2, tmp_path)
    assert result["papers"] == 40 and result["keystrokes"] > 2
    assert result["completion"]["n"] == result["engine_search"]["n"] == result["keystrokes"]
    # Typed from the library's own authors and titles: most keystrokes find papers.
    assert result["empty_answers"] < result["keystrokes"]


def test_a_tiny_live_run_sees_the_edit_offered_then_indexed(tmp_path: Path) -> None:
    result = lsp_live.run_size(40, tmp_path, quiet_s=0.3, timeout_s=120)
    assert result["offered_after_s"] is not None
    assert result["index_updated_after_s"] is not None
    assert result["offered_after_s"] <= result["index_updated_after_s"]
    assert result["quiet"]["n"] > 0 and result["during_reload"]["n"] > 0


def test_a_tiny_swap_run_times_the_swap_and_the_idle_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "environ", dict(os.environ))  # the script points it at its cache
    assert lsp_swap.main(["--papers", "40", "--runs", "1", "--work-dir", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "40 papers, the swap as the server does it:" in printed
    assert "idle" in printed and "during the swap" in printed
