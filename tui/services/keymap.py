"""Checking the user's `[keymap]` before it is applied: mistakes are reported, never silent.

Textual's `set_keymap` ignores an id it does not know and lets two bindings share a key
(the one found first wins), so a typo or a clash just makes a key do nothing or the
wrong thing. This module takes the bindings as plain rows, with no Textual import, and
says what is wrong; what it refuses is left out of the keymap that is applied.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

__all__ = ["QUIT_ID", "SHARED_CONTEXTS", "BindingRow", "check_keymap"]

BindingRow = tuple[str, str, str]  # (binding id, default keys "a,b", context)
QUIT_ID = "quit"
# Bindings of these contexts are active wherever the others are (app, main screen).
SHARED_CONTEXTS = ("Everywhere", "Main screen")


def _keys(keys: str) -> set[str]:
    return {key.strip() for key in keys.split(",") if key.strip()}


def check_keymap(
    keymap: Mapping[str, str], rows: Iterable[BindingRow]
) -> tuple[dict[str, str], list[str]]:
    """The keymap to apply, and one line per problem found in the user's.

    Args:
        keymap: binding id -> keys, as written in the config.
        rows: every binding the app has.

    Returns:
        The entries that are safe to apply, and the problems: an unknown binding id (with
        the nearest known one), a key given to two actions that are active together, and
        a remap that would leave no key for quitting (refused).
    """
    rows = list(rows)
    contexts: dict[str, str] = {}
    defaults: dict[str, set[str]] = {}
    for (
        binding_id,
        keys,
        context,
    ) in rows:  # an id listed twice (a screen's and the detail's) keeps the first
        contexts.setdefault(binding_id, context)
        defaults.setdefault(binding_id, _keys(keys))
    problems: list[str] = []
    good: dict[str, str] = {}
    for binding_id, keys in keymap.items():
        if binding_id not in contexts:
            near = difflib.get_close_matches(binding_id, list(contexts), n=1)
            hint = (
                f" (did you mean {near[0]!r}?)" if near else " (the help screen, ?, lists the ids)"
            )
            problems.append(f"keymap: unknown binding id {binding_id!r}{hint}; ignored")
            continue
        good[binding_id] = keys

    def effective(entries: Mapping[str, str]) -> dict[str, set[str]]:
        return {
            binding_id: _keys(entries[binding_id]) if binding_id in entries else keys
            for binding_id, keys in defaults.items()
        }

    def together(a: str, b: str) -> bool:
        return (
            contexts[a] == contexts[b]
            or contexts[a] in SHARED_CONTEXTS
            or contexts[b] in SHARED_CONTEXTS
        )

    for binding_id in list(good):
        now = effective(good)
        clashes = sorted(
            other
            for other in now
            if other != binding_id and together(binding_id, other) and now[other] & now[binding_id]
        )
        if clashes:
            taken: set[str] = set().union(*(now[c] for c in clashes))
            shared = ", ".join(sorted(now[binding_id] & taken))
            problems.append(
                f"keymap: {binding_id} = {good[binding_id]!r} takes {shared}, already used by "
                f"{', '.join(clashes)}; ignored"
            )
            del good[binding_id]
    if QUIT_ID in defaults:
        final = effective(good)
        shadowed: set[str] = set().union(
            *(
                final[other]
                for other in final
                if other != QUIT_ID and contexts[other] == "Main screen"
            )
        )
        if not final[QUIT_ID] or final[QUIT_ID] <= shadowed:
            problems.append(
                f"keymap: {good.get(QUIT_ID, '')!r} for quit would leave no key to quit; refused"
            )
            good.pop(QUIT_ID, None)
    return good, problems
