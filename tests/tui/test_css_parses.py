"""The shared CSS parses of the test apps: one parse per CSS, errors still reported."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.css.stylesheet import StylesheetParseError
from textual.widgets import Static


class Styled(App[None]):
    CSS = "Static { color: red; }"

    def compose(self) -> ComposeResult:
        yield Static("x")


class Broken(App[None]):
    CSS = "Static { colour: red; }"


async def test_two_apps_with_the_same_css_share_its_rules() -> None:
    rules = []
    for _ in range(2):
        app = Styled()
        async with app.run_test():
            assert app.query_one(Static).styles.color.rgb == (255, 0, 0)
            rules.append([rule for rule in app.stylesheet.rules if "Static" in rule.selector_names])
    first, second = rules
    assert first and [id(rule) for rule in first] == [id(rule) for rule in second]


@pytest.mark.parametrize("attempt", [1, 2])
async def test_a_css_error_fails_every_app_that_has_it(attempt: int) -> None:
    with pytest.raises(StylesheetParseError):
        async with Broken().run_test():
            pass
