"""The user's own CSL files as styles: read, checked, rendered, and said when unusable."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from index.citations import STYLES, CslStyle, StyleFileError, format_citation, style_label
from index.citations.csl import CSL_DIR
from index.citations.custom import read_csl_style, read_style_folder
from tests.index.citations.citation_papers import dynapipe

# As the CSL repository's dependent styles are: a title, a parent, maybe a locale.
DEPENDENT = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0" default-locale="{locale}">
  <info><title>{title}</title>
    <id>http://www.zotero.org/styles/{name}</id>
    <link href="http://www.zotero.org/styles/{name}" rel="self"/>
    <link href="http://www.zotero.org/styles/{parent}" rel="independent-parent"/></info>
</style>
"""


def _dependent(folder: Path, name: str, parent: str, locale: str = "en-US") -> Path:
    path = folder / f"{name}.csl"
    text = DEPENDENT.format(title=name.title(), name=name, parent=parent, locale=locale)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_csl_file_is_a_style_named_after_its_file(tmp_path: Path) -> None:
    path = tmp_path / "my-ieee.csl"
    shutil.copy(CSL_DIR / "ieee.csl", path)
    style = read_csl_style(path)
    assert style == "my-ieee" and isinstance(style, str) and style.path == path
    assert style_label(style) == style.csl_title and "IEEE" in style.csl_title
    assert format_citation([dynapipe()], style) == format_citation([dynapipe()], "ieee")
    assert pickle.loads(pickle.dumps(style)).path == path


def test_broken_files_give_one_line_each_and_the_rest_still_load(tmp_path: Path) -> None:
    shutil.copy(CSL_DIR / "apa.csl", tmp_path / "good.csl")
    (tmp_path / "x.csl").write_text(
        "<?xml version='1.0'?>\n<style>\n<oops a=></style>\n", encoding="utf-8"
    )
    (tmp_path / "html.csl").write_text("<html><body/></html>", encoding="utf-8")
    _dependent(tmp_path, "orphan", "nature")  # its parent is nowhere
    shutil.copy(CSL_DIR / "ieee.csl", tmp_path / "APA.csl")  # shadows a built-in name
    styles, warnings = read_style_folder(tmp_path, reserved=frozenset(STYLES))
    assert styles == ["good"]
    assert warnings == [
        f"{tmp_path / 'APA.csl'}: named like the built-in style 'apa'; rename the file to use it",
        f"{tmp_path / 'html.csl'}: not a CSL style (the root element is <html>, not <style> "
        "in the CSL namespace)",
        f"{tmp_path / 'orphan.csl'}: a dependent CSL style whose parent "
        "(http://www.zotero.org/styles/nature) is not built in; put the parent style's "
        ".csl file (nature.csl) in the same folder",
        f"{tmp_path / 'x.csl'}: not a CSL style (XML error at line 3)",
    ]


def test_a_dependent_style_renders_as_its_parent_in_the_folder_or_built_in(
    tmp_path: Path,
) -> None:
    """As Zotero resolves it: the `independent-parent` link names the parent's id."""
    nature = (CSL_DIR / "ieee.csl").read_text(encoding="utf-8")
    nature = nature.replace(
        "http://www.zotero.org/styles/ieee<", "http://www.zotero.org/styles/nature<"
    )
    (tmp_path / "nature.csl").write_text(nature, encoding="utf-8")
    _dependent(tmp_path, "nature-communications", "nature")
    _dependent(tmp_path, "some-journal", "ieee", locale="en-GB")
    styles, warnings = read_style_folder(tmp_path, reserved=frozenset(STYLES))
    assert warnings == [] and styles == ["nature-communications", "nature", "some-journal"]
    child = styles[0]
    assert child.engine_style.path == tmp_path / "nature.csl"
    assert style_label(child) == "Nature-Communications"
    paper = dynapipe()
    assert format_citation([paper], child) == format_citation([paper], "ieee")
    british = styles[2]  # a built-in parent, in the dependent style's own locale
    assert british.engine_style.path == CSL_DIR / "ieee.csl"
    assert british.engine_style.locale == "en-GB"
    assert "\u2018DynaPipe" in format_citation([paper], british)  # British single quotes
    assert "\u201cDynaPipe" in format_citation([paper], "ieee")


def test_a_missing_folder_is_no_styles_and_a_missing_file_is_an_error(tmp_path: Path) -> None:
    assert read_style_folder(tmp_path / "nowhere") == ([], [])
    with pytest.raises(StyleFileError, match=r"nope\.csl: cannot read it"):
        read_csl_style(tmp_path / "nope.csl")
    assert isinstance(CslStyle("a", tmp_path, "A"), str)
