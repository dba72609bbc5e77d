"""Tags and reading status: kept by stable identity, saved atomically, never lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index.library.identity import identities
from index.models import Paper, replace
from tui.services.annotations import Annotations, normalize_status, normalize_tag

PAPER = Paper(
    id="smith2021-pipelines",
    title="Pipelines, Revisited",
    year=2021,
    doi="https://doi.org/10.1145/ABC.1",
    arxiv="2101.00001v2",
    citation_key="smith21",
)


def test_identities_strongest_first_and_normalised() -> None:
    assert identities(PAPER) == (
        "doi:10.1145/abc.1",
        "arxiv:2101.00001",
        "key:smith21",
        "title:pipelines revisited|2021",
    )
    inferred = Paper(id="x", title="We study things", title_inferred=True)
    assert identities(inferred) == ("id:x",)


def test_tags_and_status_persist(tmp_path: Path) -> None:
    path = tmp_path / "annotations.json"
    notes = Annotations(path)
    assert notes.change_tags([PAPER], add=["To Read", "#ml", ""]) is True
    notes.set_status([PAPER], "toread")
    again = Annotations(path)
    assert again.tags_of(PAPER) == ("to-read", "ml")
    assert again.status_of(PAPER) == "to-read"
    again.change_tags([PAPER], remove=["ML"])
    assert Annotations(path).tags_of(PAPER) == ("to-read",)


@pytest.mark.parametrize(
    "changed",
    [
        {"id": "renamed-by-a-new-export"},  # the id changed
        {"id": "other", "citation_key": None},  # and the key was dropped
        {"id": "other", "doi": None, "arxiv": None},  # only the citation key is left
        {"id": "other", "doi": None, "arxiv": None, "citation_key": None},  # only the title
    ],
)
def test_user_data_survives_a_reimport_with_changed_ids(
    tmp_path: Path, changed: dict[str, object]
) -> None:
    path = tmp_path / "annotations.json"
    Annotations(path).change_tags([PAPER], add=["keep"])
    Annotations(path).set_status([PAPER], "reading")
    reimported = replace(PAPER, **changed)  # type: ignore[arg-type]
    again = Annotations(path)
    assert again.tags_of(reimported) == ("keep",)
    assert again.status_of(reimported) == "reading"
    layer = again.layer([reimported])
    assert layer["tag"] == {"keep": frozenset({reimported.id})}
    assert layer["status"] == {"reading": frozenset({reimported.id})}


def test_a_paper_that_gains_a_doi_keeps_its_tags(tmp_path: Path) -> None:
    path = tmp_path / "annotations.json"
    before = Paper(id="a", title="A study", year=2020, citation_key="a20")
    Annotations(path).change_tags([before], add=["x"])
    after = replace(before, id="b", doi="10.1/a")
    store = Annotations(path)
    assert store.tags_of(after) == ("x",)
    store.change_tags([after], add=["y"])  # the record learns the DOI
    stored = json.loads(path.read_text(encoding="utf-8"))["papers"][0]["ids"]
    assert "doi:10.1/a" in stored and "key:a20" in stored


def test_damaged_file_is_warned_about_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "annotations.json"
    path.write_text('{"papers": [', encoding="utf-8")
    store = Annotations(path)
    assert store.warning is not None and str(path) in store.warning
    assert store.change_tags([PAPER], add=["x"]) is False
    assert store.save_error is not None and "damaged" in store.save_error
    assert store.tags_of(PAPER) == ("x",)  # kept for this session
    assert path.read_text(encoding="utf-8") == '{"papers": ['


def test_wrong_shape_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "annotations.json"
    path.write_text('{"papers": [{"ids": "doi:x"}]}', encoding="utf-8")
    assert Annotations(path).warning is not None


def test_unknown_status_is_refused() -> None:
    with pytest.raises(ValueError, match="unread, to-read, reading, read"):
        Annotations(None).set_status([PAPER], "skimmed")
    assert normalize_status("To Read") == "to-read" and normalize_status("x") is None
    assert normalize_tag("  +Deep  Learning ") == "deep-learning"
