"""The footer shows every change to its keys and rebuilds for nothing else."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tui.widgets.steady_footer import SteadyFooter


class Keys(App[None]):
    """Two shown keys; `s` is greyed out until `can_save` is set."""

    BINDINGS = [Binding("s", "save", "Save"), Binding("o", "open", "Open")]

    def __init__(self, footer: type[Footer]) -> None:
        super().__init__()
        self.can_save = False
        self._footer = footer

    def compose(self) -> ComposeResult:
        yield self._footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "save" and not self.can_save else True


def footer_keys(app: App[None]) -> dict[str, tuple[int, bool]]:
    """Each shown key's widget identity and whether it is greyed out."""
    return {key.key: (id(key), key.has_class("-disabled")) for key in app.query(FooterKey)}


async def shown_when(
    pilot: Pilot[None], ready: Callable[[dict[str, tuple[int, bool]]], bool]
) -> dict[str, tuple[int, bool]]:
    """The footer's keys once `ready` holds for them (a rebuild runs after a refresh)."""
    for _ in range(100):
        await pilot.pause()
        keys = footer_keys(pilot.app)
        if ready(keys):
            return keys
    raise AssertionError(f"the footer never showed the keys wanted: {keys}")


async def test_refreshed_bindings_that_show_the_same_keys_keep_the_footer() -> None:
    app = Keys(SteadyFooter)
    async with app.run_test() as pilot:
        before = await shown_when(pilot, lambda keys: {"s", "o"} <= set(keys))
        assert before["s"][1] and not before["o"][1]
        for _ in range(5):
            app.screen.refresh_bindings()
            await pilot.pause()
        assert footer_keys(app) == before


async def test_a_key_that_changes_state_is_shown_changed() -> None:
    app = Keys(SteadyFooter)
    async with app.run_test() as pilot:
        await shown_when(pilot, lambda keys: keys.get("s", (0, False))[1])
        app.can_save = True
        app.screen.refresh_bindings()
        await shown_when(pilot, lambda keys: keys.get("s", (0, True))[1] is False)
        app.can_save = False
        app.screen.refresh_bindings()
        await shown_when(pilot, lambda keys: keys.get("s", (0, False))[1] is True)


async def test_textuals_footer_rebuilds_on_every_refresh() -> None:
    """What SteadyFooter saves; when this fails, Textual's footer is steady itself."""
    app = Keys(Footer)
    async with app.run_test() as pilot:
        before = await shown_when(pilot, lambda keys: "s" in keys)
        app.screen.refresh_bindings()
        await shown_when(pilot, lambda keys: "s" in keys and keys["s"][0] != before["s"][0])


class ManyKeys(App[None]):
    """Eight keys of 11 cells in a compact footer, as the app's below 110 columns: at 80
    the last starts under the command palette's key and runs past it."""

    BINDINGS = [Binding(key, f"k{key}", f"Action {key}") for key in "abcdefgh"]

    def compose(self) -> ComposeResult:
        yield SteadyFooter(compact=True)

    def action_ka(self) -> None:  # pragma: no cover - never pressed
        pass


def last_row(app: App[None]) -> str:
    strips = app.screen._compositor.render_strips()
    return "".join(segment.text for segment in strips[-1])


async def test_keys_that_do_not_fit_are_hidden_not_drawn_under_the_palette() -> None:
    """Textual scrolls them under "^p palette": at 80 columns a hidden key's first
    letters showed after it ("^p paletteS")."""
    app = ManyKeys()
    async with app.run_test(size=(80, 5)) as pilot:
        await shown_when(pilot, lambda keys: len(keys) == 9)
        await pilot.pause()
        row = last_row(app)
        assert row.rstrip().endswith("^p palette"), row
        shown = [key.key for key in app.query(FooterKey) if key.display]
        assert shown[0] == "a" and "ctrl+p" in shown and 2 < len(shown) < 9
        assert all(f"Action {key}" in row for key in shown if key != "ctrl+p")
        await pilot.resize_terminal(200, 5)
        for _ in range(20):
            await pilot.pause()
            if all(key.display for key in app.query(FooterKey)):
                break
        row = last_row(app)
        assert all(f"Action {key}" in row for key in "abcdefgh"), row


@pytest.mark.parametrize("compact", [True, False])
async def test_new_keys_start_as_compact_as_the_footer_and_are_styled_once(
    compact: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key used to start compact and be switched by `data_bind`: restyled twice."""
    restyled: list[str] = []
    update = FooterKey.update_node_styles

    def counted(self: FooterKey, animate: bool = True) -> None:
        restyled.append(self.key)
        update(self, animate)

    monkeypatch.setattr(FooterKey, "update_node_styles", counted)
    app = ManyKeys() if compact else Keys(SteadyFooter)
    async with app.run_test(size=(200, 5)) as pilot:
        await shown_when(pilot, lambda keys: len(keys) >= 3)
        assert restyled == []
        footer = app.query_one(SteadyFooter)
        assert footer.compact is compact
        bound = [key for key in app.query(FooterKey) if not key.has_class("-command-palette")]
        assert bound and all(key.has_class("-compact") is compact for key in bound)
        assert all(key.compact is compact for key in bound)
        # The palette's key is not bound to the footer: compact, as Textual makes it.
        palette = app.query_one("FooterKey.-command-palette", FooterKey)
        assert palette.compact and palette.has_class("-compact")
        # The footer changing its mind still changes its keys.
        footer.compact = not compact
        await pilot.pause()
        bound = [key for key in app.query(FooterKey) if not key.has_class("-command-palette")]
        assert all(key.has_class("-compact") is not compact for key in bound)
