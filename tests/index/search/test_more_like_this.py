"""More like this: the similar papers under a paper, found by abstracts and by titles.

The pattern comes from a lab's shared .bib (cdl.bib in the real exports): most entries have
a title and no abstract, so similar papers looked for in abstracts alone never found them,
and a title-only paper was shown whatever abstracts shared a word or two with its title.
"""

from __future__ import annotations

from index.models import Paper
from index.search.engine import SearchEngine
from tests.index.search.small_engines import engine_on

PAPERS = (
    Paper(id="olshausen", title="Sparse coding of sensory inputs", year=2004),
    Paper(id="mairal", title="Online dictionary learning for sparse coding", year=2009),
    Paper(
        id="vinje",
        title="Sparse coding and decorrelation in primary visual cortex during natural vision",
        year=2000,
    ),
    Paper(
        id="presense",
        title="PreSense: interaction techniques for finger sensing input devices",
        abstract="Touch sensing input devices give sensory feedback to the fingers. We present "
        "interaction techniques that use sensory input from capacitive sensing.",
        year=2003,
    ),
    Paper(
        id="canon",
        title="Canon and archive: the Stanford literary lab",
        abstract="Quantitative formalism reads novels at scale.",
        year=2017,
    ),
    Paper(
        id="critics",
        title="Marxist criticism today",
        abstract="What formalism misses in novels.",
        year=2016,
    ),
    Paper(id="encyclopedia", title="The Stanford encyclopedia of philosophy", year=1995),
    Paper(
        id="kernels",
        title="Fusing GPU kernels for transformer inference",
        abstract="Kernel fusion removes memory traffic between GPU kernels of a transformer.",
        year=2022,
    ),
    Paper(
        id="pipelines",
        title="Pipeline parallel training of large models",
        abstract="Pipeline parallelism splits a model into stages trained on many devices.",
        year=2021,
    ),
    # Input and sensory are common words of the library (an HCI lab's, here): they say less
    # about a paper than sparse and coding do.
    *(
        Paper(id=f"hci{n}", title=f"Sensory {thing} for touch input", year=2010 + n)
        for n, thing in enumerate(("feedback", "gloves", "displays", "tables", "pens", "walls"))
    ),
    Paper(id="stopwords", title="On the", year=1990),
)


engine = engine_on(PAPERS, "more-like-this")


def _ids(engine: SearchEngine, paper_id: str, limit: int = 5) -> list[str]:
    return [paper.id for paper in engine.more_like_this(paper_id, limit=limit)]


def test_a_paper_with_only_a_title_finds_the_titles_on_its_subject(engine: SearchEngine) -> None:
    # Abstracts alone gave PreSense (sensing, input) and nothing about sparse coding.
    assert set(_ids(engine, "olshausen", limit=2)) == {"mairal", "vinje"}


def test_a_paper_with_an_abstract_ranks_a_shared_subject_above_a_shared_title_word(
    engine: SearchEngine,
) -> None:
    # One title word in common ("Stanford") must not outweigh two abstract words (formalism,
    # novels): with the title's field boost kept, a title word counts three times as much.
    assert _ids(engine, "canon")[0] == "critics"


def test_the_paper_itself_is_never_similar_and_the_limit_holds(engine: SearchEngine) -> None:
    for paper in PAPERS:
        similar = _ids(engine, paper.id, limit=3)
        assert paper.id not in similar and len(similar) <= 3


def test_a_title_of_stop_words_and_an_unknown_id_find_nothing(engine: SearchEngine) -> None:
    assert _ids(engine, "stopwords") == []
    assert _ids(engine, "no-such-paper") == []
