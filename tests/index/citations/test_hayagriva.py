"""Hayagriva YAML (Typst's bibliography format), parsed back with PyYAML field by field."""

from __future__ import annotations

from typing import Any

import yaml

from index.citations import citation_keys
from index.citations.hayagriva import formattable, hayagriva_yaml
from index.models import Name, Paper
from tests.index.citations.citation_papers import (
    bids_apps,
    dynapipe,
    hawq_v3_from_author_line,
    sam_med,
)

INSTITUTION = Paper(
    id="report",
    title="Annual Report on $5 {Widgets} \\ Gadgets",
    entry_type="techreport",
    authors=("World Health Organization", "The Linux Foundation, Inc."),
    names=(Name(literal="World Health Organization"), Name(literal="The Linux Foundation, Inc.")),
    year=2021,
    month=3,
    publisher="WHO",
    url="not a url",
)
UNTITLED = Paper(
    id="untitled",
    title="",
    authors=("Ludwig van Beethoven", "Martin Luther King Jr."),
    entry_type="misc",
    year=None,
)


CHAPTER = Paper(
    id="chapter",
    title="Neural integrators: recurrent mechanisms and models",
    authors=("M Goldman",),
    editors=(Name(family="Squire", given="L"), Name(family="Albright", given="T")),
    entry_type="incollection",
    booktitle="New encyclopedia of neuroscience",
    publisher="Macmillan",
    year=2008,
)
EDITED = Paper(
    id="edited",
    title="Advances in Kernel Methods",
    authors=("B Scholkopf",),
    editors=(Name(family="Scholkopf", given="B"), Name(family="Smola", given="A J")),
    entry_type="book",
    publisher="MIT Press",
    year=1999,
)


def parsed(*papers: Paper) -> dict[str, dict[str, Any]]:
    data = yaml.safe_load(hayagriva_yaml(list(papers), citation_keys(list(papers))))
    assert isinstance(data, dict)
    return data


def test_a_conference_paper_is_an_article_in_proceedings() -> None:
    (entry,) = parsed(dynapipe()).values()
    assert entry == {
        "type": "article",
        "title": "{DynaPipe}: Optimizing Multi-task Training through Dynamic Pipelines",
        "author": ["Jiang, Chenyu", "Jia, Zhen", "Zheng, Shuai", "Wang, Yida", "Wu, Chuan"],
        "date": "2024",
        "page-range": "542-559",
        "serial-number": {"doi": "10.1145/3627703.3629585", "arxiv": "2311.10418"},
        "url": "https://github.com/awslabs/optimizing-multitask-training-through-dynamic-pipelines",
        "parent": {
            "type": "proceedings",
            "title": "Proceedings of the Nineteenth European Conference on Computer Systems",
            "publisher": "ACM",
        },
    }


def test_a_journal_article_has_a_periodical_parent_with_volume_and_issue() -> None:
    entries = parsed(bids_apps())
    assert list(entries) == ["gorgolewski2017bidsapps"]
    entry = entries["gorgolewski2017bidsapps"]
    assert entry["type"] == "article"
    assert entry["parent"] == {
        "type": "periodical",
        "title": "PLOS Computational Biology",
        "volume": "13",
        "issue": "3",
        "publisher": "Public Library of Science",
    }
    assert entry["serial-number"] == {"serial": "e1005209", "doi": "10.1371/journal.pcbi.1005209"}
    assert "page-range" not in entry  # an article number is not a page
    assert len(entry["author"]) == 29 and entry["author"][4] == "Capotă, Mihai"


def test_an_arxiv_preprint_is_an_article_without_parent() -> None:
    (entry,) = parsed(sam_med()).values()
    assert entry["type"] == "article" and "parent" not in entry
    assert entry["serial-number"] == {"arxiv": "2307.05617"}
    assert entry["url"] == "https://arxiv.org/abs/2307.05617"
    assert entry["publisher"] == "arXiv" and entry["date"] == "2023"


def test_institutions_are_one_name_and_markup_in_strings_is_escaped() -> None:
    (entry,) = parsed(INSTITUTION).values()
    assert entry["type"] == "report"
    # A comma or a leading lowercase word would make Hayagriva split the name: a mapping then.
    assert entry["author"] == ["World Health Organization", {"name": "The Linux Foundation, Inc."}]
    assert entry["title"] == "Annual Report on \\$5 \\{Widgets\\} \\\\ Gadgets"
    assert entry["date"] == "2021-03" and entry["publisher"] == "WHO"
    assert "url" not in entry  # Hayagriva rejects the whole file for a URL it cannot parse


def test_a_paper_with_no_title_and_names_hayagriva_would_split_differently() -> None:
    (entry,) = parsed(UNTITLED).values()
    assert "title" not in entry and "date" not in entry
    assert entry["type"] == "misc"
    assert entry["author"] == ["van Beethoven, Ludwig", "King, Jr., Martin Luther"]


def test_an_incomplete_author_list_is_said_in_the_note() -> None:
    (entry,) = parsed(hawq_v3_from_author_line()).values()
    assert entry["note"] == "Author list incomplete"
    assert entry["author"] == ["Yao, Zhewei", "Dong, Zhen", "Zheng, Zhangcheng"]


def test_no_papers_is_an_empty_mapping_and_words_are_protected_once() -> None:
    assert yaml.safe_load(hayagriva_yaml([], {})) == {}
    assert formattable("GPUs (HAWQ-V3), fast.") == "{GPUs} ({HAWQ-V3}), fast."
    assert formattable("PLOS {x} $1", protect=False) == "PLOS \\{x\\} \\$1"


def test_editors_edit_the_parent_of_a_chapter_and_the_book_itself() -> None:
    # They were left out: a chapter's entry named its book, never who edited it.
    chapter, edited = parsed(CHAPTER, EDITED).values()
    assert chapter["parent"]["editor"] == ["Squire, L", "Albright, T"]
    assert "editor" not in chapter
    assert edited["editor"] == ["Scholkopf, B", "Smola, A J"]
