"""arXiv's category table, shipped as data: ids to the names arXiv shows for them."""

from __future__ import annotations

import sys

import pytest

from index.assets import assets_dir
from index.facets.taxonomy import arxiv_category_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


@pytest.mark.parametrize(
    ("category", "name"),
    [
        ("hep-ph", "High Energy Physics - Phenomenology"),
        ("cs.DC", "Distributed, Parallel, and Cluster Computing"),
        ("cs.LG", "Machine Learning"),
        ("stat.ML", "Machine Learning"),
        ("cond-mat.mes-hall", "Mesoscale and Nanoscale Physics"),
        ("q-bio.NC", "Neurons and Cognition"),
        ("eess.AS", "Audio and Speech Processing"),
        ("math.NA", "Numerical Analysis"),
        ("cs.NA", "Numerical Analysis"),  # one subject, two ids, both arXiv's
        ("  cs.AR ", "Hardware Architecture"),  # stray spaces from a source are dropped
        ("solv-int", "Exactly Solvable and Integrable Systems"),  # retired, still on old papers
        ("astro-ph", "Astrophysics"),
    ],
)
def test_known_ids_have_arxiv_names(category: str, name: str) -> None:
    assert arxiv_category_name(category) == name


@pytest.mark.parametrize("category", ["", "cs", "cs.dc", "CS.DC", "cs.XX", "physics", "test.soft"])
def test_unknown_or_misspelt_ids_have_no_name(category: str) -> None:
    assert arxiv_category_name(category) is None


def test_the_table_is_the_full_current_list() -> None:
    data = tomllib.loads((assets_dir() / "arxiv_categories.toml").read_text(encoding="utf-8"))
    current = data["categories"]
    assert len(current) == 155
    archives = {key.split(".")[0] for key in current}
    assert archives == {
        "astro-ph",
        "cond-mat",
        "cs",
        "econ",
        "eess",
        "gr-qc",
        "hep-ex",
        "hep-lat",
        "hep-ph",
        "hep-th",
        "math",
        "math-ph",
        "nlin",
        "nucl-ex",
        "nucl-th",
        "physics",
        "q-bio",
        "q-fin",
        "quant-ph",
        "stat",
    }
    assert sum(key.startswith("cs.") for key in current) == 40
    assert all(isinstance(name, str) and name.strip() == name and name for name in current.values())
    retired = data["retired"]
    assert not set(retired) & set(current)
    for key, entry in retired.items():  # a retired id points at a current one, or nowhere
        assert entry["name"] and entry.get("now") in (None, *current), key


def test_the_file_is_read_once() -> None:
    from index.facets import taxonomy

    taxonomy._arxiv_categories.cache_clear()
    arxiv_category_name("cs.DC")
    arxiv_category_name("hep-th")
    assert taxonomy._arxiv_categories.cache_info().misses == 1
