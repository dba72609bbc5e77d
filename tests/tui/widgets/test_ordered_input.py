"""Bound keys keep their place among typed characters, however fast they come (Textual
issue #6605): a plain `Input` runs a binding only once the key has bubbled to the app."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Input

from tui.widgets.ordered_input import OrderedInput


class Bare(App[None]):
    """One input in a container or two, as the search bar sits inside the main screen."""

    def __init__(self, input_class: type[Input], keymap: dict[str, str] | None = None) -> None:
        super().__init__()
        self._input_class = input_class
        self._keymap_wanted = keymap or {}

    def compose(self) -> ComposeResult:
        yield self._input_class(id="field")

    def on_mount(self) -> None:
        if self._keymap_wanted:
            self.set_keymap(self._keymap_wanted)
        self.query_one(Input).focus()


def post_at_once(app: App[None], *keys: str) -> None:
    """Keys as a terminal read delivers them: all queued before any is handled."""
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


async def typed(input_class: type[Input], *keys: str, keymap: dict[str, str] | None = None) -> str:
    app = Bare(input_class, keymap)
    async with app.run_test() as pilot:
        await pilot.pause()
        post_at_once(app, *keys)
        for _ in range(5):
            await pilot.pause()
        return app.query_one(Input).value


@pytest.mark.parametrize(
    "keys, expected",
    [
        (("b", "a", "backspace", "c"), "bc"),
        (("x", "y", "z", "ctrl+u", "k", "e", "y"), "key"),
        (("a", "c", "left", "b"), "abc"),
        (("a", "b", "home", "c"), "cab"),
    ],
    ids=["backspace", "ctrl+u", "left", "home"],
)
async def test_a_bound_key_acts_where_it_was_typed(keys: tuple[str, ...], expected: str) -> None:
    assert await typed(OrderedInput, *keys) == expected


async def test_a_plain_input_reorders_them_which_is_why_this_exists() -> None:
    """Textual 8.2.8's own Input: backspace runs after `c` was inserted, deleting it. When
    this starts failing, Textual has fixed it and `OrderedInput` can go."""
    assert await typed(Input, "b", "a", "backspace", "c") == "ba"


async def test_a_key_remapped_by_the_keymap_is_run_in_turn_too() -> None:
    keymap = {"delete_left_all": "ctrl+w"}

    class Remappable(OrderedInput):
        BINDINGS = [Binding("ctrl+u", "delete_left_all", "Delete all", id="delete_left_all")]

    assert await typed(Remappable, "x", "y", "ctrl+w", "o", "k", keymap=keymap) == "ok"
