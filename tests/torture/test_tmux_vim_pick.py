"""The README's Vim recipe, `:r !paperscope pick --style latex`, in a real Vim in tmux with
load problems and an unusable style present: only the citation lands in the buffer.

Vim reads stderr too (its default `shellredir` is `>%s 2>&1`): after a .bib edit, 22 load
warnings were pasted into a manuscript above the citation (issue 46)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.e2e.test_readme_recipes import _pick_section
from tests.e2e.test_tmux import PAPERSCOPE, TMUX, Terminal
from tests.torture.test_pick_streams import BIB

VIM = shutil.which("vim")
pytestmark = pytest.mark.skipif(TMUX is None or VIM is None, reason="needs tmux and vim")


def vim_recipe() -> str:
    """The Ex command the README's Vim bullet gives, as written."""
    section = _pick_section()
    match = re.search(r"- \*\*Vim\*\*: `(:r !paperscope pick[^`]*)`", section)
    assert match is not None, "the README's Vim recipe moved"
    return match.group(1)


def test_the_vim_recipe_reads_only_the_citation(tmp_path: Path) -> None:
    styles = tmp_path / "config" / "styles"
    styles.mkdir(parents=True)
    (styles / "broken.csl").write_text("<style><not closed", encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    # The user's `paperscope`, reading their .bib: the recipe is typed as the README has it.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "paperscope").write_text(
        f'#!/bin/sh\nexec {PAPERSCOPE} --corpus {bib} "$@"\n', encoding="utf-8"
    )
    (bin_dir / "paperscope").chmod(0o755)
    draft = tmp_path / "draft.tex"
    draft.write_text("As shown by\n", encoding="utf-8")
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "PAPERSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "PAPERSCOPE_DATA_DIR": str(tmp_path / "data"),
        "PAPERSCOPE_CONFIG": str(tmp_path / "config" / "config.toml"),
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
    }
    socket = f"paperscope-vim-{uuid.uuid4().hex[:8]}"
    status = tmp_path / "status"
    wrapper = f'"$@"; echo $? > {status}'
    vim = [VIM or "vim", "-u", "NONE", "-i", "NONE", "-N", "-n", str(draft)]
    subprocess.run(
        [TMUX or "tmux", "-L", socket, "-f", os.devnull, "new-session", "-d", "-s", "v"]
        + ["-x", "80", "-y", "24", "--", "env", *(f"{k}={v}" for k, v in env.items())]
        + ["sh", "-c", wrapper, "sh", *vim],
        check=True,
        timeout=20,
    )
    term = Terminal(socket, "v", status)
    try:
        term.wait_for(lambda s: "draft.tex" in s)
        term.keys(vim_recipe() + " quokka", literal=True)
        term.keys("Enter")
        term.wait_for(lambda s: "⏎ Pick" in s and "1 of 1 paper" in s, timeout=60)
        term.keys("Enter")
        term.wait_for(lambda s: "As shown by" in s and "Pick" not in s)
        term.keys(":wq", literal=True)
        term.keys("Enter")
        assert term.exit_status() == 0
    finally:
        subprocess.run(
            [TMUX or "tmux", "-L", socket, "kill-server"], capture_output=True, check=False
        )
    assert draft.read_text(encoding="utf-8") == "As shown by\n\\cite{quokka2020}\n"
