"""Incremental dedupe: a changed file's texts are compared with the remembered others, and
the result is what a full run gives.

`index.library.text_memory` keeps each run's texts (as word ids) and text pairs, so the
next run tokenises and scores only the texts it has not seen. These tests change a
library the ways a user's files change (records added, removed, edited into and out of
being a duplicate of a record in another file) and compare with a run from nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import index.library.dedupe as dedupe_module
from index.facets.taxonomy import load_taxonomy
from index.library.dedupe import _scored_pairs, dedupe
from index.library.load import load_library
from index.library.text_memory import TextMemory, remembered_pairs
from index.models import Paper, replace
from tests.index.library.test_dedupe_scale import _library

TAXONOMY = load_taxonomy()


def _changed(papers: list[Paper], seed: int) -> list[Paper]:
    """`papers` after an edit: some removed, some rewritten, copies of others added."""
    rng = random.Random(seed)
    kept = [p for p in papers if rng.random() > 0.1]
    for n in rng.sample(range(len(kept)), len(kept) // 10):
        words = kept[n].abstract.split()
        rng.shuffle(words)  # no longer a copy of anything
        kept[n] = replace(kept[n], abstract=" ".join(words))
    for n in range(len(papers) // 10):  # new copies (whole, cut, edited) and new texts
        base = rng.choice(papers).abstract.split()
        cut = base[: rng.randint(1, len(base))] if base else []
        if cut and rng.random() < 0.5:
            cut[rng.randrange(len(cut))] = "edited"
        kept.insert(
            rng.randrange(len(kept) + 1),
            Paper(id=f"new{n}", title=f"New {n}", abstract=" ".join(cut)),
        )
    return kept


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_remembered_pairs_after_a_change_equal_a_full_run(seed: int) -> None:
    before = _library(300, seed)
    pairs, memory = remembered_pairs(before, None)
    assert pairs == list(_scored_pairs(before))
    after = _changed(before, seed)
    found, following = remembered_pairs(after, memory)
    expected = list(_scored_pairs(after))
    assert found == expected
    assert any(score >= 0.6 for *_, score in expected)  # merges and links both occur
    assert any(score < 0.6 for *_, score in expected)
    # ...and the memory it leaves is as good as a full run's, for the next change.
    again = _changed(after, seed + 10)
    assert remembered_pairs(again, following)[0] == list(_scored_pairs(again))


def test_only_new_texts_are_tokenised(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _library(200, 4)
    _, memory = remembered_pairs(before, None)
    after = [*before, Paper(id="x", title="X", abstract=before[3].abstract + " and more")]
    added: list[str] = []
    add = dedupe_module._Texts.add_evidence

    def counting(self: dedupe_module._Texts, abstract: str) -> frozenset[int]:
        added.append(abstract)
        return add(self, abstract)

    monkeypatch.setattr(dedupe_module._Texts, "add_evidence", counting)
    found, _ = remembered_pairs(after, memory)
    assert added == [after[-1].abstract]
    assert found == list(_scored_pairs(after))
    assert dedupe(after, scored=found) == dedupe(after)


def test_two_texts_in_alternating_records_pair_once() -> None:
    """Records x, y, x: the two texts are one remembered pair, each record pair once."""
    base = _library(40, 8)
    text = next(p.abstract for p in base if len(p.abstract.split()) > 40)
    x = Paper(id="x", title="X", abstract=text)
    y = Paper(id="y", title="Y", abstract=" ".join(text.split()[:30]))
    papers = [*base, x, y, replace(x, id="x2")]
    _, memory = remembered_pairs(papers, None)
    again = [*papers, Paper(id="z", title="Z", abstract="a new text " * 5)]
    found, _ = remembered_pairs(again, memory)
    assert found == list(_scored_pairs(again))
    assert len(found) == len(set(found))


def test_an_empty_memory_is_a_run_over_new_texts() -> None:
    papers = _library(150, 6)
    assert remembered_pairs(papers, TextMemory())[0] == list(_scored_pairs(papers))


# ---- through load_library: ten files, one of them changed ---------------------------------

_WORDS = [f"term{n}" for n in range(3000)]


def _abstract(rng: random.Random) -> str:
    return " ".join(rng.choices(_WORDS, k=rng.randint(40, 90)))


def _record(number: int, title: str, abstract: str) -> dict[str, object]:
    return {  # no arXiv id: these records are one paper by their texts alone
        "authors": f"Author {number}, Other Person",
        "title": title,
        "abstract": abstract,
        "categories": "cs.DC",
        "update_date": "2024-01-02",
    }


def _write(path: Path, records: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_ten_files_one_changed_equal_a_full_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(7)
    folder = tmp_path / "library"
    folder.mkdir()
    files: list[list[dict[str, object]]] = []
    number = 0
    for _ in range(10):
        records = []
        for _ in range(12):
            records.append(_record(number, f"Study number {number}", _abstract(rng)))
            number += 1
        files.append(records)
    # A record of file 5 that starts as a copy of one in file 2 (a duplicate, merged).
    files[5][7] = dict(files[2][4])
    for n, records in enumerate(files):
        _write(folder / f"part-{n}.jsonl", records)
    cache = tmp_path / "cache"
    first = load_library([folder], TAXONOMY, cache_dir=cache)
    assert len(first.papers) == 10 * 12 - 1
    assert first == load_library([folder], TAXONOMY)

    changed = files[5]
    changed.append(_record(900, "A record added later", _abstract(rng)))  # added
    del changed[0]  # removed
    # Now a duplicate of a paper in file 8: the same text, cut short (a listing's opening).
    target = files[8][3]
    changed[2] = _record(901, str(target["title"]), " ".join(str(target["abstract"]).split()[:30]))
    changed[6] = {**changed[6], "abstract": _abstract(rng)}  # the twin: no longer a copy
    _write(folder / "part-5.jsonl", changed)

    tokenised: list[str] = []
    add = dedupe_module._Texts.add_evidence

    def counting(self: dedupe_module._Texts, abstract: str) -> frozenset[int]:
        tokenised.append(abstract)
        return add(self, abstract)

    monkeypatch.setattr(dedupe_module._Texts, "add_evidence", counting)
    updated = load_library([folder], TAXONOMY, cache_dir=cache)
    assert len(tokenised) == 3  # the added, the cut copy and the rewritten twin
    monkeypatch.undo()
    fresh = load_library([folder], TAXONOMY)
    assert updated == fresh
    assert len(updated.papers) == 10 * 12 - 1  # +1 added, -1 removed, +1 twin, -1 cut copy
    cut = next(p for p in updated.papers if str(target["title"]) == p.title)
    assert len(cut.sources) == 2 and cut.merge_reasons
    assert not any(len(p.sources) > 1 for p in updated.papers if p is not cut)
