"""Parsed CSS shared by every test app in a process, instead of parsed again by each.

Textual caches a stylesheet's parsed rules per app: each of the suite's few hundred
Pilot apps parsed the same CSS (app.tcss and every widget's `DEFAULT_CSS`) afresh, about
a tenth of an app's start-up CPU. `shared_css_parses` keeps what Textual's own
`Stylesheet._parse_rules` returned, keyed by everything that call's result depends on
(the CSS, where it was read from, its flags and scope, and the theme's variables), so a
later app with the same CSS and theme gets the same rules. A CSS error is still raised
by the first parse of it in each test process; rules are read, never changed, once
parsed (Textual shares them the same way between re-parses of one stylesheet).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

__all__ = ["shared_css_parses"]

_parse_rules = Stylesheet._parse_rules
_parsed: dict[tuple[Any, ...], Any] = {}


def _shared(
    self: Stylesheet,
    css: str,
    read_from: Any,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> Any:
    """Textual's parse, once per CSS, place, flags, scope and theme in this process."""
    key = (css, read_from, is_default_rules, tie_breaker, scope, frozenset(self._variables.items()))
    rules = _parsed.get(key)
    if rules is None:
        rules = _parsed[key] = _parse_rules(
            self, css, read_from, is_default_rules, tie_breaker, scope
        )
    return rules


@pytest.fixture
def shared_css_parses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test apps reuse the rules parsed for an earlier app (see the module docstring)."""
    monkeypatch.setattr(Stylesheet, "_parse_rules", _shared)
