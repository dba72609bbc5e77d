"""The help's query syntax reads in a narrow terminal: each description wraps under itself."""

from __future__ import annotations

from tests.tui.app_pilot import plain
from tui.screens.dialogs import QUERY_SYNTAX, _two_columns


def test_query_syntax_descriptions_wrap_under_themselves_at_80_columns() -> None:
    # Written as preformatted lines, at 80 columns each long description went on at the
    # left edge under the examples ("abstract, venue, ...);" below "words").
    lines = [line for line in plain(_two_columns(QUERY_SYNTAX), width=72).splitlines() if line]
    column = max(len(shown) for shown, _ in QUERY_SYNTAX) + 2
    examples = [line for line in lines if not line.startswith(" ")]
    assert [line[:column].rstrip() for line in examples] == [shown for shown, _ in QUERY_SYNTAX]
    assert len(lines) > len(QUERY_SYNTAX)  # some descriptions did wrap
    for line in lines:
        assert line.startswith(" ") == (line[:column].strip() == ""), line
