"""Words as users type them: phrases with stop words, fuzzy words and "did you mean"
over stemmed fields, and the engine's effect on garbage collection."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from index import open_engine
from index.models import Library, Paper, SearchRequest
from index.search import spelling
from index.search.engine import SearchEngine
from tests.fixtures.search.generate import TAXONOMY

TEXTS = {
    "moe": ("Sparse mixture of experts", "We train a mixture of experts model on pipelines."),
    "moe2": ("Routing tokens", "Scaling the mixture-of-experts layers of transformers."),
    "near": ("Experts everywhere", "A mixture of many experts, not in that order."),
    "quant": ("Post-training quantization", "Quantization of weights to four bits."),
    "quant2": ("Quantized kernels", "Kernels for quantized matrix multiplication."),
    "pipe": ("Pipeline parallelism", "A dynamic pipeline schedule for training."),
    "other": ("Graph compilers", "Compiling graphs with operator fusion."),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    papers = tuple(
        Paper(id=key, title=title, abstract=abstract, year=2024)
        for key, (title, abstract) in TEXTS.items()
    )
    engine = open_engine(Library(papers=papers), TAXONOMY, tmp_path_factory.mktemp("cache"))
    yield engine
    engine.close()


def ids(engine: SearchEngine, text: str, **options: object) -> set[str]:
    result = engine.search(SearchRequest(text, limit=100, **options))  # type: ignore[arg-type]
    assert result.total == len(result.hits)
    return {hit.paper.id for hit in result.hits}


@pytest.mark.parametrize(
    "text", ['"mixture of experts"', 'abstract:"mixture of experts"', '"mixture experts"']
)
def test_a_phrase_with_a_stop_word_finds_its_papers(engine: SearchEngine, text: str) -> None:
    assert ids(engine, text) == {"moe", "moe2"}


def test_a_phrase_still_needs_its_words_in_order(engine: SearchEngine) -> None:
    assert ids(engine, '"experts of mixture"') == set()
    assert ids(engine, '"mixture of many experts"') == {"near"}


def test_fuzzy_finds_the_words_of_a_misspelled_stem(engine: SearchEngine) -> None:
    assert {"quant", "quant2"} <= ids(engine, "quantizaton~")
    # The same papers as the word spelled right: "quantized" shares its stem.
    assert ids(engine, "abstract:quantizaton~") == ids(engine, "abstract:quantization")
    result = engine.search(SearchRequest("quantizaton~"))
    assert "quantization" in result.terms  # highlighted as written in the text


@pytest.mark.parametrize(
    "typed, meant",
    [("pipelne", "pipeline"), ("dynamc", "dynamic"), ("quantizaton", "quantization")],
)
def test_did_you_mean_offers_real_words(engine: SearchEngine, typed: str, meant: str) -> None:
    assert engine.search(SearchRequest(typed)).correction == meant
    assert engine.search(SearchRequest(typed + " ", as_you_type=True)).correction == meant


def test_no_correction_while_the_last_word_is_being_typed(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("pipelne", as_you_type=True))
    assert result.total == 0 and result.correction is None


def test_test_indexes_are_built_in_their_own_folder() -> None:
    """RamStorage's writer keeps temporary segments in one fixed /tmp/MAIN.tmp, which
    tests on parallel workers remove from under each other: no test may use it."""
    tests = Path(__file__).resolve().parents[2]
    users = sorted(
        str(path.relative_to(tests))
        for path in tests.rglob("*.py")
        if path != Path(__file__).resolve() and "RamStorage(" in path.read_text(encoding="utf-8")
    )
    assert users == []


def test_the_saved_words_are_read_on_first_need_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening reads no word counts: a plain search never needs them, a misspelling (or
    the app's read-ahead, `preload`) reads them, once."""
    papers = tuple(
        Paper(id=key, title=title, abstract=abstract, year=2024)
        for key, (title, abstract) in TEXTS.items()
    )
    open_engine(Library(papers=papers), TAXONOMY, tmp_path).close()
    reads: list[Path] = []
    read = spelling.read_words

    def counted(folder: Path) -> Counter[str] | None:
        reads.append(folder)
        return read(folder)

    monkeypatch.setattr(spelling, "read_words", counted)
    engine = open_engine(Library(papers=papers), TAXONOMY, tmp_path)
    assert engine.search(SearchRequest("pipeline")).total == 2  # "pipe" and "moe"
    assert reads == []
    assert engine.search(SearchRequest("pipelne")).correction == "pipeline"
    assert len(reads) == 1
    engine.preload()
    assert engine.search(SearchRequest("dynamc")).correction == "dynamic"
    assert len(reads) == 1
    engine.close()
    again = open_engine(Library(papers=papers), TAXONOMY, tmp_path)
    again.preload()
    assert len(reads) == 2
    again.close()


def test_in_place_updates_count_words_in_and_out_beside_the_builds_counts(
    tmp_path: Path,
) -> None:
    """Round after round the counts read back are those of the library as it is now (a
    word no paper holds any more is gone), and the build's own file is never rewritten."""
    papers = {
        key: Paper(id=key, title=title, abstract=abstract)
        for key, (title, abstract) in TEXTS.items()
    }
    first, second, *_ = papers
    built: Counter[str] = Counter()
    for paper in papers.values():
        spelling.count_words(built, paper)
    spelling.write_words(tmp_path, built)
    written = (tmp_path / spelling.WORDS_FILE).read_bytes()
    revised = Paper(id=first, title="Zebrafish pipelines", abstract="")
    rounds = [([revised], [papers[first]]), ([], [papers[second]]), ([papers[first]], [revised])]
    library = dict(papers)
    for added, removed in rounds:
        spelling.add_words(tmp_path, added, removed)
        for paper in removed:
            library.pop(paper.id)
        library.update((paper.id, paper) for paper in added)
        want: Counter[str] = Counter()
        for paper in library.values():
            spelling.count_words(want, paper)
        assert spelling.read_words(tmp_path) == +want
    assert (tmp_path / spelling.WORDS_FILE).read_bytes() == written
