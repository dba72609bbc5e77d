"""One bad file never takes the library down: every hostile file is one line, the rest loads.

Every input is generated here (no third-party files). The same folder is loaded in-process
(to see each warning) and through the command line's entry point as a fresh process runs it
(exit code, no traceback, nothing a terminal would act on in the bytes of stdout and stderr).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.library.loaders import files as files_module
from index.library.loaders.guards import MAX_ABSTRACT_CHARS, MAX_AUTHORS
from index.text_safety import for_terminal
from tests.torture.hostile import (
    EVIL_NAME,
    GOOD_BIB,
    GOOD_WORD,
    assert_terminal_safe,
    write_hostile_corpus,
)
from tests.tui.cli.commands import run_paperscope_bytes

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("hostile")
    return root, write_hostile_corpus(root)


def test_every_bad_file_is_one_warning_naming_it_and_the_rest_loads(
    corpus: tuple[Path, dict[str, str]], taxonomy: Taxonomy
) -> None:
    root, cases = corpus
    started = time.monotonic()
    library = load_library([root], taxonomy)
    assert time.monotonic() - started < 60
    titles = {paper.title for paper in library.papers}
    assert "Zanzibarquux pipelines for scheduling" in titles
    assert "Sixteen bit pipelines for scheduling" in titles  # UTF-16 with a BOM is read
    assert "Deep neighbour line" in titles  # the good line beside the deep one
    lines = [str(warning) for warning in library.warnings]
    quiet = {"good.bib", "utf16.bib"}
    for name, what in cases.items():
        if name in quiet:
            continue
        named = [line for line in lines if name in line]
        assert named, f"{what}: no warning names {name}: {lines}"
    by_file = {name: [line for line in lines if name in line] for name in cases}
    assert any("nested too deeply" in line for line in by_file["deep100k.json"])
    assert any("too large" in line for line in by_file["huge.json"])
    assert any("not a regular file" in line for line in by_file["fifo.json"])
    assert any("symlink loop" in line for line in by_file["loop-a.bib"])
    assert any("cut to" in line for line in by_file["huge-abstract.jsonl"])
    assert any("authors cut" in line for line in by_file["many-authors.json"])
    assert any(
        "skipped `DOI` (a list" in line and "`author` (text" in line
        for line in by_file["csl-types.json"]
    )
    huge = next(p for p in library.papers if p.title == "Huge abstract paper")
    assert len(huge.abstract) <= MAX_ABSTRACT_CHARS + 2
    many = next(p for p in library.papers if p.title == "Many authors paper")
    assert len(many.authors) == MAX_AUTHORS and not many.authors_complete
    typed = next(p for p in library.papers if p.title == "12345")
    assert typed.year == 2020 and typed.abstract == "Wrong types everywhere."


def test_an_unreadable_subfolder_is_one_warning(
    tmp_path: Path, taxonomy: Taxonomy, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "good.bib").write_text(
        "@misc{a, title={Readable paper}, year={2020}}\n", encoding="utf-8"
    )
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "secret.bib").write_text("@misc{b, title={Hidden}}\n", encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path: str = ".") -> Any:
        if Path(str(path)) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)  # root reads everything; act as a user
    library = load_library([tmp_path], taxonomy)
    assert [p.title for p in library.papers] == ["Readable paper"]
    assert [str(w) for w in library.warnings] == [
        f"{locked}: folder cannot be read (permission denied); skipped"
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can enter any folder")
def test_a_real_mode_0000_folder(tmp_path: Path, taxonomy: Taxonomy) -> None:
    (tmp_path / "good.bib").write_text("@misc{a, title={Readable paper}}\n", encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0)
    try:
        library = load_library([tmp_path], taxonomy)
    finally:
        locked.chmod(0o755)
    assert [p.title for p in library.papers] == ["Readable paper"]
    assert "permission denied" in str(library.warnings[0])


def test_a_file_changing_while_read_is_read_again_then_warned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "moving.bib"
    path.write_text("@misc{a, title={Moving}}\n", encoding="utf-8")
    real_fstat = os.fstat
    calls = [0]

    class Moved:
        def __init__(self, result: os.stat_result) -> None:
            self._result = result
            calls[0] += 1
            self.st_mtime_ns = result.st_mtime_ns + calls[0]

        def __getattr__(self, name: str) -> object:
            return getattr(self._result, name)

    monkeypatch.setattr(files_module.os, "fstat", lambda fd: Moved(real_fstat(fd)))
    text, warnings = files_module.read_text(path, "moving.bib")
    assert text is not None and "Moving" in text
    assert [w.message for w in warnings] == [
        "file changed while being read; what was read is used, reload to be sure"
    ]


def cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """The command as a fresh process would run it, in this one (tests/tui/cli/commands.py)."""
    return run_paperscope_bytes(args, env=env, cwd=REPO)


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("home")
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SSH_TTY", "SSH_CONNECTION", "TMUX")
    }
    base.update(
        PAPERSCOPE_DATA_DIR=str(home / "data"),
        PAPERSCOPE_CACHE_DIR=str(home / "cache"),
        PAPERSCOPE_CONFIG=str(home / "config.toml"),
        PYTHONPATH=str(REPO),
        PATH=str(home),
    )  # no clipboard tools
    return base


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["search", "pipeline"],
        ["search", "evil"],
        ["show", "evil1"],
        ["cite", "evil1", "--style", "apa"],
        ["cite", "evil1", "--style", "bibtex"],
        ["facets"],
        ["list", "--json"],
        ["export", "evil", "--format", "bibtex"],
        ["check"],
    ],
)
def test_cli_output_is_terminal_safe_and_complete(
    command: list[str], corpus: tuple[Path, dict[str, str]], env: dict[str, str]
) -> None:
    root, _ = corpus
    done = cli(["--corpus", str(root), *command], env)
    # `check` lists the corpus's problems on stdout, and says there are some by exit 1.
    assert done.returncode == (1 if command == ["check"] else 0), done.stderr.decode(
        "utf-8", "replace"
    )[-2000:]
    assert b"Traceback" not in done.stderr
    assert_terminal_safe(done.stderr)
    if command[-1] != "--json" and command[0] != "export":
        assert_terminal_safe(done.stdout)
    else:  # machine output: the text as it is, but never an escape sequence
        assert b"\x1b" not in done.stdout and b"\x07" not in done.stdout
    if command == ["check"]:
        assert for_terminal(str(root / EVIL_NAME), one_line=True).encode() in done.stdout
    if command == ["list"]:
        assert GOOD_WORD.capitalize().encode() in done.stdout
        warned = done.stderr.decode("utf-8")
        assert for_terminal(str(root / EVIL_NAME), one_line=True) in warned
        assert "nested too deeply" in warned and "huge.json" in warned


@pytest.mark.parametrize("named", ["the data folder", "zotero.sqlite"])
def test_a_zotero_database_that_is_a_folder_is_said_to_be_one(
    named: str, tmp_path: Path, taxonomy: Taxonomy
) -> None:
    """Issue 46: it was "folder holds no supported files", which names no cause."""
    data = tmp_path / "Zotero"
    (data / "zotero.sqlite").mkdir(parents=True)
    (data / "storage" / "ABCD1234").mkdir(parents=True)
    (data / "storage" / "ABCD1234" / "page.html").write_text("<p>a snapshot</p>")
    good = tmp_path / "good.bib"
    good.write_text(GOOD_BIB, encoding="utf-8")
    library = load_library(
        [data if named == "the data folder" else data / "zotero.sqlite", good], taxonomy
    )
    assert [str(w) for w in library.warnings] == [
        f"{data / 'zotero.sqlite'}: is a folder, not Zotero's database (a zotero.sqlite file); skipped"
    ]
    assert len(library.papers) == 1  # the snapshot in storage/ is no paper
