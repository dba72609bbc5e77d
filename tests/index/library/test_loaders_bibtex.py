"""The BibTeX / BibLaTeX loader on a deliberately messy file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from index.library.loaders.bibtex import load_bibtex, person_name, split_names

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "library"


@pytest.fixture(scope="module")
def loaded() -> tuple[dict, list[str]]:
    papers, warnings = load_bibtex((FIXTURES / "refs.bib").read_text("utf-8"), "refs.bib")
    by_title = {paper.title: paper for paper in papers}
    return by_title, [str(warning) for warning in warnings]


def test_every_wellformed_entry_loads_in_file_order(loaded) -> None:
    assert list(loaded[0]) == [
        "Fast GPU Kernels & More for Café Workloads",
        "First Entry With This Key",
        "Second Entry With This Key",
        "A Paper Without an Abstract",
        "A BibLaTeX Online Entry",
    ]


def test_latex_accents_and_macros_become_unicode(loaded) -> None:
    paper = loaded[0]["Fast GPU Kernels & More for Café Workloads"]
    assert paper.authors == ("Jörg Müller", "Anna Stärk")
    assert paper.authors_complete is False  # "and others"
    assert paper.abstract == (
        "We speed up kernels by 2× on GPUs with a new tiling scheme for café-sized workloads."
    )


def test_fields_map_to_the_paper(loaded) -> None:
    paper = loaded[0]["Fast GPU Kernels & More for Café Workloads"]
    assert (paper.entry_type, paper.year, paper.month) == ("inproceedings", 2021, 11)
    assert paper.booktitle == "ACM Press Proceedings of the Kernel Workshop"  # @string # "..."
    assert paper.publisher == "ACM Press"
    assert paper.pages == "10-20"
    assert paper.doi == "10.1145/1234.5678"  # the resolver prefix is not part of a DOI
    assert paper.keywords == ("kernels", "GPU")
    assert paper.citation_key == "mueller2021fast"
    assert paper.sources[0].line == 4
    online = loaded[0]["A BibLaTeX Online Entry"]
    assert (online.entry_type, online.year, online.journal) == ("online", 2022, "Systems Notes")
    assert online.authors == ("Piet van der Berg",)


def test_entry_without_abstract_loads_with_its_arxiv_id(loaded) -> None:
    paper = loaded[0]["A Paper Without an Abstract"]
    assert paper.abstract == "" and paper.arxiv == "2101.08458"
    assert paper.authors == ("Jane Doe", "Richard Roe")


def test_undefined_macro_is_kept_and_reported(loaded) -> None:
    assert loaded[0]["First Entry With This Key"].journal == "journalmacro"
    assert (
        "refs.bib:17: entry 'dup' uses undefined @string macro 'journalmacro'; kept as written"
        in loaded[1]
    )


def test_duplicate_keys_keep_both_and_warn(loaded) -> None:
    assert loaded[0]["Second Entry With This Key"].citation_key == "dup"
    assert loaded[0]["First Entry With This Key"].citation_key == "dup"
    assert any(w.startswith("refs.bib:26: duplicate BibTeX key 'dup'") for w in loaded[1])


def test_malformed_entry_is_reported_with_its_line(loaded) -> None:
    line = (FIXTURES / "refs.bib").read_text("utf-8").splitlines().index("@article{broken,") + 1
    assert any(w.startswith(f"refs.bib:{line}: malformed BibTeX entry skipped") for w in loaded[1])
    assert len(loaded[1]) == 3


def test_names() -> None:
    assert split_names("Ng, T. S. Eugene and {Barnes and Noble} and others") == (
        ("T. S. Eugene Ng", "Barnes and Noble"),
        False,
    )
    assert person_name("von Neumann, Jr., John") == "John von Neumann Jr."
    assert person_name(r"Kleindessner, Matth{\"a}us") == "Matthäus Kleindessner"


def test_garbage_is_a_warning_not_an_exception() -> None:
    papers, warnings = load_bibtex("this is not bibtex at all\n", "x.bib")
    assert papers == [] and [str(w) for w in warnings] == ["x.bib: no BibTeX entries found"]


def test_undefined_macros_of_one_entry_are_reported_in_the_same_order_in_any_process(
    tmp_path: Path,
) -> None:
    # The macros an entry uses are a set; its order follows the hash seed, which differs
    # between this process and the load's worker processes (index.library.parallel).
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@techreport{xie2003,\n  title = {Invariants},\n"
        "  institution = zeta # alpha # mid,\n  year = {2003},\n}\n",
        encoding="utf-8",
    )
    script = (
        "import sys; from pathlib import Path; from index.library.loaders import load_file; "
        "print([w.message for w in load_file(Path(sys.argv[1]), 'refs.bib').warnings])"
    )
    root = Path(__file__).resolve().parents[3]
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script, str(bib)],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(6)
    }
    assert len(outputs) == 1, outputs
    (output,) = outputs
    assert output.index("'alpha'") < output.index("'mid'") < output.index("'zeta'")


def test_isbn_and_pubmed_id_are_kept_as_a_pasted_one_is_searched() -> None:
    """A proceedings' ISBN-10 with hyphens (Papers3), a list of two, a PubMed id; a
    publisher's name typed into `pmid` (a real export) is none."""
    text = """
@inproceedings{a, title = {A}, isbn = {0-7695-2191-6}, pmid = {1452881}}
@book{b, title = {B}, isbn = {ISBN 978-0-306-40615-7, 0-306-40615-2}}
@book{c, title = {C}, isbn = {0-306-40615-3}, pmid = {Cambridge University Press}}
"""
    papers, _ = load_bibtex(text, "ids.bib")
    assert [(p.isbn, p.pmid) for p in papers] == [
        ("9780769521916", "1452881"),
        ("9780306406157", None),
        (None, None),  # a wrong check digit is no ISBN
    ]
