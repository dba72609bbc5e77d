"""The command `O` runs to open a PDF at a page, for each viewer that takes one."""

from __future__ import annotations

from pathlib import Path

from tui.services.config import load_config
from tui.services.viewer import viewer_argv


def test_skim_goes_to_the_page_by_applescript_on_macos_only() -> None:
    command = viewer_argv("skim", "/p/a b.pdf", 7, platform="darwin")
    assert command is not None
    argv, at_page = command
    assert at_page and argv[0] == "osascript" and argv[-2:] == ["/p/a b.pdf", "7"]
    assert "go document 1 to page (item 2 of argv as integer) of document 1" in argv
    assert viewer_argv("skim", "/p/a.pdf", None, platform="darwin") == (
        ["open", "-a", "Skim", "/p/a.pdf"],
        False,
    )
    assert viewer_argv("skim", "/p/a.pdf", 7, platform="linux") is None


def test_a_viewer_without_a_page_option_or_no_page_opens_the_file() -> None:
    assert viewer_argv("qpdfview --unique", "/p/a.pdf", 3) == (
        ["qpdfview", "--unique", "/p/a.pdf"],
        False,
    )
    assert viewer_argv("zathura", "/p/a.pdf", None) == (["zathura", "/p/a.pdf"], False)
    assert viewer_argv("/usr/bin/mupdf-gl", "/p/a.pdf", 4) == (
        ["/usr/bin/mupdf-gl", "/p/a.pdf", "4"],
        True,
    )
    # Nothing configured and no page: the desktop's opener, as before (no default asked).
    assert viewer_argv("", "/p/a.pdf", None, find_default=lambda: ["zathura"]) is None
    assert viewer_argv("", "/p/a.pdf", 2, find_default=lambda: None) is None
    assert viewer_argv('zathura "--x', "/p/a.pdf", 2) is None  # an unclosed quote


def test_the_settings_are_read_and_a_wrong_one_said(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('fulltext = false\npdf_viewer = " zathura "\n')
    config, warnings = load_config(path)
    assert (config.fulltext, config.pdf_viewer, warnings) == (False, "zathura", [])
    path.write_text('fulltext = "no"\npdf_viewer = 3\n')
    config, warnings = load_config(path)
    assert (config.fulltext, config.pdf_viewer) == (True, "")
    assert [w.split(": ", 1)[1] for w in warnings] == [
        "`fulltext` must be true or false; using true",
        "`pdf_viewer` must be a string (a program); using the default",
    ]
