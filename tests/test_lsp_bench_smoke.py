"""The language server's completion benchmark runs end to end at a tiny size.

Speed is never asserted (the machine is shared); this proves `benchmarks/lsp_completion.py`
builds the index, starts the server, types every keystroke and times both the server and
the engine baseline on the same keystrokes.
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import lsp_completion  # noqa: E402


def test_keystrokes_are_every_prefix() -> None:
    assert lsp_completion.keystrokes("ab c") == ["a", "ab", "ab ", "ab c"]


def test_a_tiny_run_times_the_server_and_the_engine(tmp_path: Path) -> None:
    result = lsp_completion.run_size(40, 2, tmp_path)
    assert result["papers"] == 40 and result["keystrokes"] > 2
    assert result["completion"]["n"] == result["engine_search"]["n"] == result["keystrokes"]
    # Typed from the library's own authors and titles: most keystrokes find papers.
    assert result["empty_answers"] < result["keystrokes"]
