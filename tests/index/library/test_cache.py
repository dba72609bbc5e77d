"""The library cache: a warm load equals a fresh one, and only what changed is redone."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import index.library.labelling as labelling
import index.library.parallel as parallel
import index.library.pipeline as library_module
from index.facets.taxonomy import load_taxonomy
from index.library.cache import LibraryCache
from index.library.load import load_library
from index.models import Library
from tests.fixtures.search.generate import make_library

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "library"
TAXONOMY = load_taxonomy()


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """A folder of every format, plus a malformed file so there are warnings to keep."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in (
        "arxiv.jsonl",
        "csl.json",
        "refs.bib",
        "notes.txt",
        "notes.meta.json",
        "messy.txt",
        "malformed.json",
    ):
        shutil.copy(FIXTURES / name, folder / name)
    return folder


class Calls:
    """Counts the parser and tagger calls `load_library` makes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.files: list[str] = []
        self.tagged = 0
        load_file, tag_paper = parallel.load_file, parallel.tag_paper

        def counting_load(path: Path, shown: str):
            self.files.append(Path(path).name)
            return load_file(path, shown)

        def counting_tag(paper, taxonomy):
            self.tagged += 1
            return tag_paper(paper, taxonomy)

        monkeypatch.setattr(parallel, "load_file", counting_load)
        monkeypatch.setattr(parallel, "tag_paper", counting_tag)

    def reset(self) -> None:
        self.files, self.tagged = [], 0


def test_warm_load_equals_fresh_and_parses_nothing(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = load_library([corpus], TAXONOMY)
    assert fresh.warnings, "the malformed file should warn"
    calls = Calls(monkeypatch)
    cache = tmp_path / "cache"
    assert load_library([corpus], TAXONOMY, cache_dir=cache) == fresh
    assert calls.files and calls.tagged == len(fresh.papers)
    calls.reset()
    warm = load_library([corpus], TAXONOMY, cache_dir=cache)
    assert warm == fresh  # papers, labels, warnings and files
    assert (calls.files, calls.tagged) == ([], 0)


def _repeats(library: Library) -> dict[str, list[object]]:
    """Every author name, keyword, label and venue, one entry per paper that holds it."""
    found: dict[str, list[object]] = {"author": [], "keyword": [], "label": [], "venue": []}
    for paper in library.papers:
        found["author"] += paper.authors
        found["keyword"] += paper.keywords
        found["label"] += [*paper.topics, *paper.hardware]
        found["venue"] += [paper.venue] if paper.venue else []
    return found


@pytest.mark.parametrize("cached", [False, True])
def test_equal_values_are_one_object_fresh_and_from_the_cache(tmp_path: Path, cached: bool) -> None:
    records = [
        {**paper.to_dict(), "keywords": ["systems", f"k{n % 5}"]}
        for n, paper in enumerate(make_library(300, seed=3).papers)
    ]
    (tmp_path / "lib").mkdir()
    files = [tmp_path / "lib" / "a.jsonl", tmp_path / "lib" / "b.jsonl"]
    for file, part in zip(files, (records[:150], records[150:])):  # parsed separately
        file.write_text("".join(json.dumps(r) + "\n" for r in part), encoding="utf-8")
    cache = tmp_path / "cache" if cached else None
    if cached:
        load_library(files, TAXONOMY, cache_dir=cache)  # the next load reads the cache
    library = load_library(files, TAXONOMY, cache_dir=cache)
    assert len(library.papers) == 300
    for kind, values in _repeats(library).items():
        distinct = {id(value): value for value in values}.values()
        assert len(distinct) == len(set(values)) < len(values), kind  # repeated, yet shared


def test_records_pickle_to_equal_values_without_a_dict() -> None:
    paper = load_library(None, TAXONOMY).papers[0]
    for record in (paper, paper.sources[0], paper.topics[0]):
        assert not hasattr(record, "__dict__")  # slots: no per-object dict
        assert pickle.loads(pickle.dumps(record)) == record
    assert pickle.loads(pickle.dumps(paper)).topics == paper.topics


def test_a_first_load_reports_its_steps_and_a_cached_one_none(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(labelling, "TAG_PROGRESS_EVERY", 2)
    steps: list[tuple[str, int, int]] = []

    def record(*step: object) -> None:
        steps.append(step)  # type: ignore[arg-type]

    library = load_library([corpus], TAXONOMY, cache_dir=tmp_path, progress=record)
    files, papers = len(library.files), len(library.papers)
    assert steps[: files + 1] == [("reading files", n, files) for n in range(files + 1)]
    assert steps[files + 1] == ("merging duplicates", 0, 1)
    tagging = steps[files + 2 :]
    assert tagging == [("tagging", n, papers) for n in range(2, papers + 1, 2)] + (
        [("tagging", papers, papers)] if papers % 2 else []
    )
    steps.clear()
    assert load_library([corpus], TAXONOMY, cache_dir=tmp_path, progress=record) == library
    assert steps == []


def test_bundled_corpus_through_the_cache(tmp_path: Path) -> None:
    fresh = load_library(None, TAXONOMY)
    assert load_library(None, TAXONOMY, cache_dir=tmp_path) == fresh
    assert load_library(None, TAXONOMY, cache_dir=tmp_path) == fresh
    assert len(fresh.papers) == 47


def test_one_changed_file_is_the_only_one_parsed_and_retagged(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    load_library([corpus], TAXONOMY, cache_dir=cache)
    changed = corpus / "arxiv.jsonl"
    lines = changed.read_text(encoding="utf-8").splitlines()
    new_opening = '"abstract": "Quantized KV cache on A100 GPUs. '
    lines[0] = lines[0].replace('"abstract": "', new_opening, 1)
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    calls = Calls(monkeypatch)
    updated = load_library([corpus], TAXONOMY, cache_dir=cache)
    assert calls.files == ["arxiv.jsonl"]
    assert calls.tagged == 1  # only the paper whose text changed
    assert updated == load_library([corpus], TAXONOMY)
    assert any("Quantized KV cache" in p.abstract for p in updated.papers)


def test_a_new_file_and_a_removed_file_are_seen(corpus: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    load_library([corpus], TAXONOMY, cache_dir=cache)
    (corpus / "csl.json").unlink()
    shutil.copy(FIXTURES / "folder" / "a.txt", corpus / "extra.txt")
    assert load_library([corpus], TAXONOMY, cache_dir=cache) == load_library([corpus], TAXONOMY)


def test_same_size_and_new_mtime_is_a_change(corpus: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    load_library([corpus], TAXONOMY, cache_dir=cache)
    target = corpus / "notes.txt"
    text = target.read_text(encoding="utf-8")
    swapped = text.replace("a", "e", 1)
    assert len(swapped) == len(text)
    target.write_text(swapped, encoding="utf-8")
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert load_library([corpus], TAXONOMY, cache_dir=cache) == load_library([corpus], TAXONOMY)


def test_another_taxonomy_relabels(corpus: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    load_library([corpus], TAXONOMY, cache_dir=cache)
    extra = tmp_path / "mine.toml"
    extra.write_text(
        '[topic.looms]\nlabel = "Looms"\ndescription = "Weaving."\nsignals = ["retrieval"]\n',
        encoding="utf-8",
    )
    other = load_taxonomy([extra])
    assert other.fingerprint != TAXONOMY.fingerprint
    assert load_library([corpus], other, cache_dir=cache) == load_library([corpus], other)


def test_how_the_user_named_the_folder_shows_in_sources(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    absolute = load_library([corpus], TAXONOMY, cache_dir=cache)
    monkeypatch.chdir(corpus.parent)
    relative = load_library([Path("corpus")], TAXONOMY, cache_dir=cache)
    assert relative == load_library([Path("corpus")], TAXONOMY)
    assert relative.papers[0].sources[0].path.startswith("corpus")
    assert absolute.papers[0].sources[0].path.startswith(str(corpus))


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\x80\x05\x95 truncated pickle"])
def test_a_damaged_cache_is_ignored_and_rewritten(
    corpus: Path, tmp_path: Path, damage: bytes
) -> None:
    cache = tmp_path / "cache"
    fresh = load_library([corpus], TAXONOMY, cache_dir=cache)
    stored = sorted(cache.rglob("*.pkl"))
    assert stored
    for path in stored:
        path.write_bytes(damage)
    assert load_library([corpus], TAXONOMY, cache_dir=cache) == fresh
    assert all(path.stat().st_size > len(damage) for path in stored)  # rebuilt
    assert load_library([corpus], TAXONOMY, cache_dir=cache) == fresh


def test_an_unusable_cache_folder_is_not_an_error(corpus: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    fresh = load_library([corpus], TAXONOMY)
    assert load_library([corpus], TAXONOMY, cache_dir=blocker / "cache") == fresh


def test_new_loader_code_never_reads_old_entries(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    fresh = load_library([corpus], TAXONOMY, cache_dir=cache)
    monkeypatch.setattr("index.library.cache.code_fingerprint", lambda: "other code")
    calls = Calls(monkeypatch)
    assert load_library([corpus], TAXONOMY, cache_dir=cache) == fresh
    assert sorted(calls.files) == sorted(p.name for p in corpus.iterdir())
    assert calls.tagged == len(fresh.papers)


def test_parser_versions_in_the_fingerprint_are_the_installed_ones() -> None:
    from importlib.metadata import version

    from index.library.cache import _installed_version

    for package in ("bibtexparser", "pylatexenc"):
        assert _installed_version(package) == version(package)
    assert _installed_version("no_such_package_here") == ""


def test_header_mismatch_is_a_miss(tmp_path: Path) -> None:
    fresh = load_library(None, TAXONOMY)
    writer = LibraryCache(tmp_path, TAXONOMY.fingerprint)
    writer.write_library(None, "key", fresh, [b""] * len(fresh.papers))
    assert writer.read_library(None, "key") == fresh
    assert writer.read_library(None, "other key") is None
    assert LibraryCache(tmp_path, "another taxonomy").read_library(None, "key") is None
    assert LibraryCache(tmp_path, "another taxonomy").previous_tags(None) == {}
    assert dataclasses.is_dataclass(writer.read_library(None, "key"))


def test_code_fingerprint_covers_every_module_of_the_library_packages() -> None:
    """Walked, not listed: a module added to the library or facets packages is covered."""
    from index.library.cache import _CODE, _code_files

    root = Path(library_module.__file__).resolve().parents[1]
    files = {path.relative_to(root).as_posix() for path in _code_files(root)}
    assert "library/loaders/bibtex.py" in files
    assert "facets/tagger.py" in files
    assert {"models.py", "assets.py"} <= files
    assert all(not name.startswith(("search/", "store/")) for name in files)
    assert len(_CODE) == 4


def test_code_fingerprint_fails_loudly_when_a_listed_part_is_missing(tmp_path: Path) -> None:
    from index.library.cache import _code_files

    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "load.py").write_text("")
    with pytest.raises(RuntimeError, match="missing"):
        _code_files(tmp_path)


def test_a_warm_load_imports_neither_the_pipeline_nor_the_tagger(
    corpus: Path, tmp_path: Path
) -> None:
    """A start with nothing changed is one unpickle: parsing, dedupe and tagging stay unloaded."""
    cache = tmp_path / "cache"
    load_library([corpus], TAXONOMY, cache_dir=cache)
    script = (
        "import sys; from pathlib import Path; "
        "from index.facets.taxonomy import load_taxonomy; "
        "from index.library.load import load_library; "
        f"library = load_library([Path({str(corpus)!r})], load_taxonomy(), "
        f"cache_dir=Path({str(cache)!r})); "
        "print(library.from_cache, sorted(m for m in sys.modules if m in ("
        "'index.library.pipeline', 'index.library.dedupe', 'index.facets.tagger', "
        "'index.library.text_memory', 'index.library.loaders.sidecar')))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "[]"]
