"""`search` and `facets` answer from a current index without loading the library.

The index's manifest records each input file's size and mtime and the taxonomy
fingerprint; when they still hold, the commands read papers from the index's stored
fields. When any of them changed, the library is loaded (and the index refreshed) as before.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import index
import index.library.load
from tui.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "library"
NEW_RECORD = {
    "id": "2401.99999",
    "title": "Zymurgical Telemetry for Sparse Kernels",
    "authors": "Ada Quill and Bo Reyes",
    "categories": "cs.DC",
    "journal-ref": None,
    "abstract": "We study zymurgical telemetry of sparse tensor kernels on GPUs.",
    "update_date": "2024-01-05",
}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "papers"
    folder.mkdir()
    for name in ("arxiv.jsonl", "csl.json"):
        shutil.copy(FIXTURES / name, folder / name)
    return folder


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts library loads (the CLI imports `load_library` where it loads, from its module)."""
    calls: list[int] = []
    real = index.library.load.load_library

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(index.library.load, "load_library", counted)
    return calls


def forbid_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the library was loaded")

    monkeypatch.setattr(index.library.load, "load_library", fail)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, _ = capsys.readouterr()
    return code, out


COMMANDS: list[tuple[str, ...]] = [
    ("search", "tensor", "--json"),
    ("search", "tensor", "programs", "--sort", "year"),
    ("search", "ansor", "--limit", "1"),
    ("facets", "--json"),
    ("facets", "tensor", "--year", "2019.."),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_current_index_answers_without_the_library_and_the_same(
    command: tuple[str, ...],
    corpus: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run(capsys, "--corpus", str(corpus), "index")[0] == 0
    # With the library loaded first (what every command did before): the reference output.
    with monkeypatch.context() as patched:
        patched.setattr(index, "open_current_engine", lambda *args: None)
        code, expected = run(capsys, "--corpus", str(corpus), *command)
    assert code == 0 and expected
    forbid_loading(monkeypatch)
    code, out = run(capsys, "--corpus", str(corpus), *command)
    assert code == 0
    assert out == expected


def test_a_changed_file_loads_the_library_and_finds_its_new_record(
    corpus: Path, capsys: pytest.CaptureFixture[str], loads: list[int]
) -> None:
    assert run(capsys, "--corpus", str(corpus), "index")[0] == 0
    assert len(loads) == 1
    assert run(capsys, "--corpus", str(corpus), "search", "zymurgical")[1] == ""
    assert len(loads) == 1  # current: answered from the index
    with (corpus / "arxiv.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(NEW_RECORD) + "\n")
    code, out = run(capsys, "--corpus", str(corpus), "search", "zymurgical", "--json")
    assert code == 0 and len(loads) == 2
    assert [json.loads(line)["title"] for line in out.splitlines()] == [NEW_RECORD["title"]]
    run(capsys, "--corpus", str(corpus), "search", "zymurgical")
    assert len(loads) == 2  # the refreshed index is current again


@pytest.mark.parametrize("change", ["touch", "add file", "remove file"])
def test_any_change_to_the_inputs_is_noticed(
    change: str, corpus: Path, capsys: pytest.CaptureFixture[str], loads: list[int]
) -> None:
    assert run(capsys, "--corpus", str(corpus), "index")[0] == 0
    changes: dict[str, Callable[[], object]] = {
        # Same size, newer mtime: a stat says it may have changed, so it is loaded.
        "touch": lambda: os.utime(
            corpus / "csl.json", ns=(0, (corpus / "csl.json").stat().st_mtime_ns + 10**9)
        ),
        "add file": lambda: (corpus / "more.jsonl").write_text(json.dumps(NEW_RECORD) + "\n"),
        "remove file": (corpus / "csl.json").unlink,
    }
    changes[change]()
    assert run(capsys, "--corpus", str(corpus), "facets")[0] == 0
    assert len(loads) == 2


def test_another_taxonomy_loads_the_library(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], loads: list[int]
) -> None:
    assert run(capsys, "--corpus", str(corpus), "index")[0] == 0
    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[topic.zymurgy]\nlabel = "Zymurgy"\n'
        'description = "Brewing science."\nsignals = ["zymurgical"]\n'
    )
    code = main(["--corpus", str(corpus), "--taxonomy", str(extra), "facets"])
    capsys.readouterr()
    assert code == 0 and len(loads) == 2


LAYERED: list[tuple[str, ...]] = [
    ("search", "tensor", "--json"),
    ("search", "tag:toread", "--json"),
    ("search", "--tag", "toread"),
    ("search", "--status", "reading", "--json"),
    ("search", "zebrafinch"),  # a word found only in a note
    ("search", "note:zebrafinch", "--json"),
    ("search", 'keyword:"kernel fusion"', "--json"),
    ("facets", "--json"),
    ("facets", "tensor", "--status", "unread"),
]


@pytest.mark.parametrize("command", LAYERED, ids=" ".join)
def test_a_user_layer_is_applied_without_the_library_and_the_same(
    command: tuple[str, ...],
    corpus: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (corpus / "keywords.bib").write_text(
        "@article{fused2023,\n  title = {Fusing Kernels},\n  author = {Ada Quill},\n"
        "  year = {2023},\n  keywords = {kernel fusion, compilers},\n"
        "  abstract = {We fuse tensor kernels across operators on accelerators.},\n}\n",
        encoding="utf-8",
    )
    assert run(capsys, "--corpus", str(corpus), "index")[0] == 0
    rows = [
        json.loads(line)
        for line in run(capsys, "--corpus", str(corpus), "list", "--json")[1].splitlines()
    ]
    first, second = rows[0]["id"], rows[1]["id"]
    assert run(capsys, "--corpus", str(corpus), "tag", first, "+toread")[0] == 0
    assert run(capsys, "--corpus", str(corpus), "status", second, "reading")[0] == 0
    notes = Path(os.environ["PAPERSCOPE_DATA_DIR"]) / "notes"
    notes.mkdir(parents=True, exist_ok=True)
    (notes / "fused2023.md").write_text("# Fusing\n\nzebrafinch\n", encoding="utf-8")
    with monkeypatch.context() as patched:
        patched.setattr(index, "open_current_engine", lambda *args: None)
        code, expected = run(capsys, "--corpus", str(corpus), *command)
    assert code == 0 and expected
    forbid_loading(monkeypatch)
    code, out = run(capsys, "--corpus", str(corpus), *command)
    assert code == 0
    assert out == expected


@pytest.mark.parametrize(
    ("keys", "loaded"),
    [
        ("never saved", True),
        ("unreadable after the header", True),
        ("saved before the table", False),
    ],
)
def test_an_index_without_usable_saved_keys_loads_the_library_for_a_layer(
    keys: str,
    loaded: bool,
    corpus: Path,
    capsys: pytest.CaptureFixture[str],
    loads: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An index built by an older paperscope saved no keys; a keys file replaced between
    the open (its header) and the layer (its rows) is not trusted either. Keys saved
    before the table of identities (index.search.key_lookup) still serve, row by row."""
    import index.search.engine
    from index.search.paper_keys import SavedKeys

    assert run(capsys, "--corpus", str(corpus), "index", "--json")[0] == 0
    data = Path(os.environ["PAPERSCOPE_DATA_DIR"])
    data.mkdir(parents=True, exist_ok=True)
    (data / "annotations.json").write_text('{"version": 1, "papers": []}', encoding="utf-8")
    if keys == "never saved":
        monkeypatch.setattr(index.search.engine, "read_saved_keys", lambda *args: None)
    else:
        monkeypatch.setattr(SavedKeys, "lookup", lambda self: None)
        if keys == "unreadable after the header":
            monkeypatch.setattr(SavedKeys, "rows", lambda self: None)
    code, out = run(capsys, "--corpus", str(corpus), "search", "tensor")
    assert code == 0 and out
    assert len(loads) == (2 if loaded else 1)


def test_a_search_on_a_current_index_imports_no_builder_or_parser(
    corpus: Path, tmp_path: Path
) -> None:
    """Every command, and every warm start of the app, opens a current index: importing
    the index writer, the sample builder or the LaTeX converter (the loaders') for it cost
    ~30 ms of a 0.36 s search, and the config's editor (tomlkit) ~12 ms more. Measured in a
    fresh interpreter, where nothing is imported."""
    import subprocess
    import sys

    env = dict(
        os.environ,
        PAPERSCOPE_CACHE_DIR=str(tmp_path / "cache"),
        PAPERSCOPE_DATA_DIR=str(tmp_path / "data"),
        PAPERSCOPE_CONFIG=str(tmp_path / "config.toml"),
    )
    script = (
        "import sys; from tui.cli import main; "
        f"code = main(['--corpus', {str(corpus)!r}, 'search', 'gpu']); "
        "print(sorted(m for m in sys.modules if m in ('index.store.writer', "
        "'index.store.preview', 'index.library.normalize', 'index.library.load', "
        "'pylatexenc', 'multiprocessing')), code, file=sys.stderr)"
    )
    run = [sys.executable, "-c", script]
    built = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
    assert "'index.store.writer'" in built.stderr  # the first one built the index
    current = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
    assert current.stderr.strip().splitlines()[-1] == "[] 0"
    # The app reads its config at every start; only a changed setting needs the editor,
    # only a user's own CSL style file the XML parser (ElementTree, ~3 ms), and only a library
    # loaded or a tag changed the identities' title folding (normalize, ~8 ms).
    app = (
        "import sys, tui.app; "
        "print(sorted({'tomlkit', 'xml.etree.ElementTree', 'index.library.normalize'} & set(sys.modules)))"
    )
    started = subprocess.run(
        [sys.executable, "-c", app], capture_output=True, text=True, check=True
    )
    assert started.stdout.strip() == "[]", started.stderr
