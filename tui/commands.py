"""The command palette's paperscope commands, and the table of every key binding.

Every action a key can reach is also offered by name in the palette (ctrl+p), so a user
who forgot a key, or remapped it, can still find it. The help screen and the palette
read the same table, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.screens.library_actions import LIBRARY_COMMANDS

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["COMMANDS", "PaperscopeCommands", "binding_rows", "binding_table"]

# (name in the palette, what it does, action; "app." runs on the app, else on the screen)
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("Copy citation", "Copy the current paper's citation in the current style", "copy_citation"),
    (
        "Copy citation keys",
        "Copy the marked (else current) papers' keys in the last key format",
        "copy_keys",
    ),
    ("Mark paper", "Mark or unmark the current paper", "toggle_mark"),
    (
        "Copy marked bibliography",
        "Copy every marked paper as one bibliography",
        "copy_bibliography",
    ),
    (
        "Export marked bibliography",
        "Write the marked papers' bibliography to a file",
        "export_bibliography",
    ),
    ("Clear marks", "Unmark every paper (asks first)", "clear_marks"),
    ("Marked only", "Show only the marked papers, or every paper again", "marked_only"),
    ("Open link", "Open the paper's DOI, arXiv or URL in a browser", "open_link"),
    ("Citation style", "Pick the citation style, with a preview", "app.pick_style"),
    ("Search", "Move to the search bar", "focus_search"),
    (
        "Sort: next order",
        "Relevance, year (newest), year (oldest), title, first author",
        "cycle_sort",
    ),
    ("Sort by relevance", "Best match first", "sort('relevance')"),
    ("Sort by year, newest first", "Newest first", "sort('year')"),
    ("Sort by year, oldest first", "Oldest first", "sort('year-asc')"),
    ("Sort by title", "A to Z", "sort('title')"),
    ("Sort by first author", "By the first author's family name", "sort('author')"),
    ("Compact view", "One line per paper, or the cards again", "toggle_compact"),
    (
        "Show or hide the filters",
        "Hide the facet panel for more room (narrow terminals)",
        "toggle_facets",
    ),
    ("Results", "Move to the results", "focus_results"),
    ("Filters", "Move to the facet panel", "focus_facets"),
    ("Clear filters", "Unselect every facet value", "clear_filters"),
    ("Did you mean", "Search for the suggested spelling", "accept_correction"),
    (
        "Pick",
        "Print the marked (else highlighted) papers' citation and leave (paperscope pick)",
        "app.pick",
    ),
    ("Cancel pick", "Leave paperscope pick without printing anything", "app.cancel_pick"),
    (
        "Load problems",
        "List every problem found in your files while loading them",
        "app.show_load_warnings",
    ),
    ("Help", "Every key and the query syntax", "app.help"),
    ("Quit", "Leave paperscope", "app.quit"),
) + LIBRARY_COMMANDS  # tags, status, saved searches, notes, files


def _available(app: object, screen: object, action: str) -> bool:
    target, _, name = action.partition("(")[0].rpartition(".")
    node = app if target == "app" else screen
    return hasattr(node, f"action_{name.split('(')[0]}")  # `name('arg')` takes parameters


class PaperscopeCommands(Provider):
    """Offers every paperscope action that makes sense on the current screen.

    `self.screen` is the screen the palette was opened from (the palette is a screen of
    its own), so screen actions are looked up and run there.
    """

    def _commands(self) -> Iterator[tuple[str, str, str]]:
        for name, help_text, action in COMMANDS:
            if _available(self.app, self.screen, action):
                yield name, help_text, action

    async def _run(self, action: str) -> None:
        await self.screen.run_action(action)

    async def discover(self) -> Hits:
        for name, help_text, action in self._commands():
            yield DiscoveryHit(name, partial(self._run, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, action in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(name), partial(self._run, action), help=help_text
                )


def binding_rows(app: App[object], classes: tuple[type, ...]) -> list[tuple[str, str, str]]:
    """(keys as remapped, description, id) for every binding with an id, in class order.

    Args:
        app: its keymap overrides the default keys.
        classes: the app, screens and widgets whose `BINDINGS` to list.
    """
    keymap: dict[str, str] = dict(getattr(app, "_keymap", {}))
    rows: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for cls in classes:
        for binding in getattr(cls, "BINDINGS", []):
            if not isinstance(binding, Binding) or not binding.id or binding.id in seen:
                continue
            seen.add(binding.id)
            keys = keymap.get(binding.id, binding.key)
            shown = ", ".join(
                app.get_key_display(Binding(key.strip(), "")) for key in keys.split(",")
            )
            rows.append((shown, binding.tooltip or binding.description, binding.id))
    return rows


def binding_table(contexts: dict[str, tuple[type, ...]]) -> list[tuple[str, str, str]]:
    """(binding id, default keys, context) for every binding with an id: the keymap check's input."""
    rows: list[tuple[str, str, str]] = []
    for context, classes in contexts.items():
        for cls in classes:
            for binding in getattr(cls, "BINDINGS", []):
                if isinstance(binding, Binding) and binding.id:
                    rows.append((binding.id, binding.key, context))
    return rows
