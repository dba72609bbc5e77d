"""Dedupe's shingle index keeps only what a second text may share, and still finds every pair.

`SharedShingles` decides which shingles the index holds; a shared shingle it dropped would
lose a duplicate, so the pair search is checked against scoring every pair with a table so
small that nearly every slot is shared by unrelated shingles.
"""

from __future__ import annotations

from array import array

import pytest

import index.library.dedupe as dedupe_module
from index.library.dedupe import _scored_pairs, _shingles, _Texts
from index.library.shared_shingles import SharedShingles
from index.models import Paper
from tests.index.library.test_dedupe_scale import _brute_force, _library


def _kept(table: SharedShingles, number: int, ids: array[int]) -> frozenset[int]:
    grams, kept = table.among(number, ids)
    assert kept <= grams == _shingles(ids)
    return kept


def test_a_shingle_held_by_two_texts_is_kept_and_one_held_once_is_not() -> None:
    texts = _Texts()
    first = texts.add("alpha beta gamma delta epsilon zeta eta theta iota kappa")
    second = texts.add("lambda mu nu delta epsilon zeta xi omicron pi rho sigma")
    table = SharedShingles(1 << 20, 2)  # room for a million: a collision here is ~1e-5
    for ids in texts.ids:
        table.add(ids)
    both = first & second
    assert len(both) == 1  # "delta epsilon zeta"
    kept = [_kept(table, n, ids) for n, ids in enumerate(texts.ids)]
    assert kept[0] >= both and kept[1] >= both
    alone = (first | second) - both
    kept_alone = (kept[0] | kept[1]) - both
    assert len(kept_alone) < len(alone) / 2  # the unshared ones are (nearly all) left out


def test_a_text_counted_once_shares_nothing_with_itself() -> None:
    """Its repeated shingle ("one two three" twice) counts once, as every other."""
    texts = _Texts()
    grams = texts.add("one two three four five six seven eight nine ten one two three")
    table = SharedShingles(1 << 20, 1)
    table.add(texts.ids[0])
    assert len(_kept(table, 0, texts.ids[0])) < len(grams) / 2


def test_a_crowded_table_keeps_every_shared_shingle() -> None:
    """At 1,024 slots for thousands of shingles nearly every slot is shared; what two texts
    hold is still always kept (a slot only ever says 'maybe' too often, never too rarely)."""
    papers = _library(200, 4)
    texts = _Texts()
    grams = [texts.add(paper.abstract) for paper in papers]
    table = SharedShingles(0, len(texts.ids))
    for ids in texts.ids:
        table.add(ids)
    for n, text in enumerate(grams):
        others = frozenset().union(*grams[:n], *grams[n + 1 :])
        assert text & others <= _kept(table, n, texts.ids[n])


@pytest.mark.parametrize("seed", [1, 2])
def test_pairs_are_all_pairs_when_unrelated_shingles_collide(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        dedupe_module, "SharedShingles", lambda expected, texts: SharedShingles(0, texts)
    )
    papers = _library(400, seed)
    assert list(_scored_pairs(papers)) == _brute_force(papers)


class _EveryShingle(SharedShingles):
    """Indexing everything, as dedupe did before: the reference the filter must equal."""

    def among(self, number: int, ids: array[int]) -> tuple[frozenset[int], frozenset[int]]:
        grams = _shingles(ids)
        return grams, grams


def test_stock_phrases_count_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """With stock phrases beyond `_COMMON_SHINGLE` holders (where the pairs are not all
    pairs), the filtered index finds exactly what indexing every shingle finds."""
    papers = _library(400, 3, stock=True) + [Paper(id="empty", title="Empty")]
    found = list(_scored_pairs(papers))
    monkeypatch.setattr(dedupe_module, "SharedShingles", _EveryShingle)
    assert found == list(_scored_pairs(papers))
    monkeypatch.setattr(
        dedupe_module, "SharedShingles", lambda expected, texts: SharedShingles(0, texts)
    )
    assert list(_scored_pairs(papers)) == found


def test_shingles_of_stored_ids_are_those_add_returned() -> None:
    """The pair search recomputes each text's shingles from its word ids (none are kept)."""
    texts = _Texts()
    returned = [texts.add(paper.abstract) for paper in _library(50, 6)]
    assert [_shingles(ids) for ids in texts.ids] == returned
