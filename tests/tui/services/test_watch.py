"""What the watcher sees: every way a source changes, and how a reload is described."""

from __future__ import annotations

import os
from pathlib import Path

from index.models import Library, Paper, Source
from tui.services.watch import changed_files, describe_changes, sources_fingerprint


def test_fingerprint_sees_edits_replaces_additions_and_removals(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    bib = folder / "a.bib"
    bib.write_text("@misc{a, title={A}}\n", encoding="utf-8")
    before = sources_fingerprint([folder])
    assert changed_files(before, sources_fingerprint([folder])) == set()  # nothing: no change
    bib.write_text("@misc{a, title={A longer}}\n", encoding="utf-8")
    edited = sources_fingerprint([folder])
    assert changed_files(before, edited) == {str(bib)}
    temp = folder / "tmp.part"
    temp.write_text("@misc{a, title={A longer}}\n", encoding="utf-8")  # same size, new inode
    os.replace(temp, bib)
    replaced = sources_fingerprint([folder])
    assert changed_files(edited, replaced) == {str(bib)}
    (folder / "b.bib").write_text("@misc{b, title={B}}\n", encoding="utf-8")
    added = sources_fingerprint([folder])
    assert changed_files(replaced, added) == {str(folder / "b.bib")}
    (folder / "b.bib").unlink()
    assert changed_files(added, sources_fingerprint([folder], known=added)) == {
        str(folder / "b.bib")
    }


def test_describe_changes_per_file(tmp_path: Path) -> None:
    bib = str(tmp_path / "refs.bib")

    def paper(key: str, title: str = "T") -> Paper:
        return Paper(id=key, title=title, sources=(Source(bib),))

    old = Library(papers=(paper("a"), paper("b"), paper("c")))
    new = Library(papers=(paper("a", "T2"), paper("c"), paper("d"), paper("e"), paper("f")))
    assert describe_changes(old, new, [bib]) == ["refs.bib: +3, -1 papers; 1 changed"]
