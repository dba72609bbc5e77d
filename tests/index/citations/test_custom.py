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

DEPENDENT = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>Some Journal</title>
    <link href="http://www.zotero.org/styles/apa" rel="independent-parent"/></info>
</style>
"""


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
    (tmp_path / "child.csl").write_text(DEPENDENT, encoding="utf-8")
    shutil.copy(CSL_DIR / "ieee.csl", tmp_path / "apa.csl")  # shadows a built-in name
    styles, warnings = read_style_folder(tmp_path, reserved=frozenset(STYLES))
    assert styles == ["good"]
    assert warnings == [
        f"{tmp_path / 'apa.csl'}: named like the built-in style 'apa'; rename the file to use it",
        f"{tmp_path / 'child.csl'}: a dependent CSL style (it only points to "
        "http://www.zotero.org/styles/apa); download that parent style's .csl file instead",
        f"{tmp_path / 'html.csl'}: not a CSL style (the root element is <html>, not <style> "
        "in the CSL namespace)",
        f"{tmp_path / 'x.csl'}: not a CSL style (XML error at line 3)",
    ]


def test_a_missing_folder_is_no_styles_and_a_missing_file_is_an_error(tmp_path: Path) -> None:
    assert read_style_folder(tmp_path / "nowhere") == ([], [])
    with pytest.raises(StyleFileError, match=r"nope\.csl: cannot read it"):
        read_csl_style(tmp_path / "nope.csl")
    assert isinstance(CslStyle("a", tmp_path, "A"), str)
