"""An `Input` whose bound keys (backspace, ctrl+u, arrows, enter) keep their place among
the typed characters, however fast the keys arrive.

Textual's `Input` inserts a printable key as soon as it handles it, but a bound key only
bubbles: from the input to each of its ancestors' message queues, up to the app, which then
runs the binding. Characters that arrived after it are inserted meanwhile, so the binding
acts on a later text than the one the user saw (Textual issue #6605, fix proposed in
pull request #6631, unreleased in 8.2.8). In a real terminal a paste delivers its text and
whatever is typed next in one read: a 100 KB paste into the search bar, then ctrl+u and a
word at once, left the bar empty, because ctrl+u ran after the word had been typed.

The input therefore runs its own bindings when it handles the key, in the order the keys
came. Only through public API: `Screen.active_bindings` (what the app would run, with the
user's keymap applied and `check_action` consulted) and `App.run_action`, on the node that
binds the key: the input itself, or an ancestor (the screen's esc, the app's tab).
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

__all__ = ["OrderedInput"]


class OrderedInput(Input):
    """An `Input` that runs the key bindings it meets in turn with the characters typed."""

    async def on_key(self, event: events.Key) -> None:
        """Run the binding of a non-printable key now, not after it has bubbled.

        Priority bindings never get here (the app runs them before forwarding the key); a
        printable key is left to `Input`, which inserts it.
        """
        if event.is_printable or self.screen.focused is not self:
            return  # a key that reaches a blurred input: as Textual would (it bubbles)
        active = self.screen.active_bindings.get(event.key)
        if active is None or not active.enabled or active.binding.priority:
            return
        # The binding the app would run (the input's own, or an ancestor's such as the
        # screen's esc that empties the bar), run now: "abc", esc, "def" typed at once is
        # "def", not an empty bar.
        if await self.app.run_action(active.binding.action, active.node):
            event.stop()  # handled here: the app must not run it a second time
