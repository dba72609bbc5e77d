"""The edited entries served over the index (tui.lsp.overlay): matched as the search bar
reads a query typed so far, standing in for the index's copies of what they replace."""

from __future__ import annotations

from index.library.bib_delta import BibDelta
from index.library.loaders.bibtex import load_bibtex
from tui.lsp.overlay import Overlay

EDITED = """@article{kubler2021sparse,
  author = {K{\\"u}bler, Jonas and Field, David},
  title = {Sparse Codes Revisited},
  journal = {Vision Research},
  year = {2021},
}
@misc{,
  title = {An Entry Without a Key},
}
@book{added2024,
  author = {New, Nora},
  title = {A Book Added Today},
  year = {2024},
}
"""


def _overlay() -> Overlay:
    papers, _ = load_bibtex(EDITED, "refs.bib")
    delta = BibDelta(tuple(papers), frozenset({"kubler2021sparse", "removed1999"}))
    # The index's names: the changed entry and a removed one had ids there.
    names = {"kubler2021sparse": "kubler-id", "removed1999": "removed-id", "other": "other-id"}
    return Overlay.of([delta], names)


def test_a_changed_entry_keeps_the_indexs_id_and_hides_its_copy() -> None:
    overlay = _overlay()
    # An entry without a key names no paper of the index to hide: left to the full read.
    assert {p.id for p in overlay.papers} == {"kubler-id", "added2024"}
    assert overlay.hidden == {"kubler-id", "removed-id"}
    assert overlay.named("kubler2021sparse") is overlay.named("kubler-id")
    assert overlay.named("removed1999") is None


def test_a_query_typed_so_far_matches_words_folded_as_the_index_folds_them() -> None:
    overlay = _overlay()
    assert [p.citation_key for p in overlay.matching("kubler 202")] == ["kubler2021sparse"]
    assert [p.citation_key for p in overlay.matching("Küb spar")] == ["kubler2021sparse"]
    assert [p.citation_key for p in overlay.matching("field vision")] == ["kubler2021sparse"]
    assert [p.citation_key for p in overlay.matching("book toda")] == ["added2024"]
    assert overlay.matching("sparse 2024") == []
    assert [p.citation_key for p in overlay.keys_starting("ADD")] == ["added2024"]
