"""`paperscope fulltext`: the PDFs read now, progress and problems on stderr, a JSON summary."""

from __future__ import annotations

import json
from pathlib import Path

from tests.index.fulltext.pdfs import encrypted_pdf, paper_pdf
from tests.torture.hostile import assert_terminal_safe
from tests.tui.cli.commands import run_paperscope
from tests.tui.cli.conftest import user_env


def test_fulltext_reads_the_pdfs_once_and_names_the_bad_ones(tmp_path: Path) -> None:
    good = paper_pdf(tmp_path, "good.pdf")
    locked = encrypted_pdf(tmp_path / "locked.pdf")
    evil = tmp_path / "evil\x1b[2J.pdf"
    evil.write_bytes(b"")
    entries = "".join(
        f"@article{{p{n},\n  title = {{Paper {n}}},\n  year = {{2020}},\n  file = {{:{path}:PDF}}\n}}\n"
        for n, path in enumerate((good, locked, evil))
    )
    (tmp_path / "refs.bib").write_text(entries, encoding="utf-8")
    env = user_env(tmp_path)
    args = ("--corpus", str(tmp_path / "refs.bib"), "fulltext", "--jobs", "0", "--json")
    done = run_paperscope(args, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["pdfs"], summary["read"], summary["already_read"], summary["pages"]) == (
        3,
        2,
        0,
        2,
    )
    assert [p["path"] for p in summary["problems"]] == [str(evil), str(locked)]
    problems = [line for line in done.stderr.splitlines() if "attachment" in line]
    assert len(problems) == 2 and "is encrypted" in problems[1]
    assert_terminal_safe(done.stderr)
    # Again: nothing read, the problems said again (they are still there).
    done = run_paperscope(args[:-1], env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "0 PDFs read now, 2 before (2 pages of text); 2 with a problem\n"
