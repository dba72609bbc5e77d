"""The keymap check and style names: mistakes are reported, common names understood."""

from __future__ import annotations

import subprocess
import sys

from index.citations import resolve_style
from tui.services.keymap import check_keymap

ROWS = [
    ("quit", "q", "Everywhere"),
    ("copy_citation", "c", "Main screen"),
    ("toggle_mark", "m", "Main screen"),
    ("results.down", "down,j", "Results"),
]


def test_a_good_keymap_passes() -> None:
    assert check_keymap({"copy_citation": "y"}, ROWS) == ({"copy_citation": "y"}, [])


def test_an_unknown_id_is_named_with_the_nearest() -> None:
    good, problems = check_keymap({"copy_citaton": "y"}, ROWS)
    assert good == {} and "'copy_citaton'" in problems[0] and "'copy_citation'" in problems[0]


def test_two_actions_on_one_key_are_refused() -> None:
    good, problems = check_keymap({"toggle_mark": "c"}, ROWS)
    assert good == {} and "copy_citation" in problems[0]


def test_the_last_way_to_quit_cannot_be_taken() -> None:
    good, problems = check_keymap({"copy_citation": "q"}, ROWS)
    assert good == {} and problems


def test_style_names_are_case_insensitive_with_aliases() -> None:
    for name, style in (
        ("APA", "apa"),
        ("apa7", "apa"),
        ("chicago-author-date", "chicago"),
        ("Chicago Author-Date", "chicago"),
        ("BibTeX", "bibtex"),
        ("CSL-JSON", "csl-json"),
    ):
        assert resolve_style(name) == style, name
    assert resolve_style("harvard") is None


def test_the_app_without_a_terminal_says_so_and_exits_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "needs a terminal" in done.stderr and "\x1b" not in done.stdout
