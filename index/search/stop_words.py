"""A stop word among a query's words is no requirement: "memory for training" finds the
papers about memory and training.

The prose fields (title, abstract) drop stop words when indexed (index.schema.analysis),
but the short fields that keep every word (authors, venue, short name) do not. Whoosh's
multi-field parser drops a word only from the fields whose analyzer drops it, so a bare
"for" became `(authors:for OR venue:for OR short_name:for)`, AND-ed with the rest: a
natural query with "for", "of" or "the" in it matched only papers whose venue or authors
held that word (0 of 47 bundled papers for "memory for training", 0 of 11,454 real ones
for "programming for psychological").

`OptionalStopWords` is a Whoosh parser plugin: before the multi-field step it removes a
bare stop word (no field, not quoted, not next to an operator such as `NOT`, `-` or `OR`),
or a group of nothing but such words (`(for) memory`), from its group when the group keeps
another word. A query of stop words only is left as it is (it then finds the venues and
names that hold them), as are phrases, whose stop words the prose analyzer already
handles by position, and `venue:of`-style field words.
"""

from __future__ import annotations

from collections.abc import Collection

from whoosh.qparser import QueryParser, syntax
from whoosh.qparser.plugins import Plugin

__all__ = ["OptionalStopWords"]

# After FieldsPlugin (100) gave fielded words their field, before MultifieldPlugin (110)
# copies a bare word into every field.
_PRIORITY = 105


class OptionalStopWords(Plugin):
    """Drops bare stop words from a parsed group that holds other words (see the module)."""

    def __init__(self, stop_words: Collection[str]) -> None:
        self.stop_words = frozenset(word.lower() for word in stop_words)

    def filters(self, parser: QueryParser) -> list[tuple[object, int]]:
        return [(self.drop_stop_words, _PRIORITY)]

    def drop_stop_words(self, parser: QueryParser, group: syntax.GroupNode) -> syntax.GroupNode:
        nodes = list(group)
        kept = group.empty_copy()
        for position, node in enumerate(nodes):
            if isinstance(node, syntax.GroupNode):
                if not self._droppable(nodes, position):
                    kept.append(self.drop_stop_words(parser, node))
            elif not self._droppable(nodes, position):
                kept.append(node)
        if len(kept) == len(nodes) or not any(_is_word(node) for node in kept):
            return group  # nothing dropped, or nothing but stop words: as typed
        return kept

    def _droppable(self, nodes: list[syntax.SyntaxNode], position: int) -> bool:
        if not self._stop_word(nodes[position]):
            return False
        return not any(
            isinstance(neighbour, syntax.Operator | syntax.MarkerNode)
            for neighbour in _neighbours(nodes, position)
        )

    def _stop_word(self, node: syntax.SyntaxNode) -> bool:
        """A bare stop word, or a group of nothing else (`(for)`, `(the OR for)`)."""
        if isinstance(node, syntax.GroupNode):
            words = [child for child in node if _is_word(child)]
            return bool(words) and all(self._stop_word(child) for child in words)
        if type(node) is not syntax.WordNode or node.fieldname is not None:
            return False
        # As the analyzers see it: "al." or "for," is the word "al" or "for".
        return str(node.text).lower().rstrip(".,;:") in self.stop_words


def _neighbours(nodes: list[syntax.SyntaxNode], position: int) -> list[syntax.SyntaxNode]:
    """The nearest node before and after `position` that is not whitespace."""
    found = []
    for step in (-1, 1):
        index = position + step
        while 0 <= index < len(nodes) and nodes[index].is_ws():
            index += step
        if 0 <= index < len(nodes):
            found.append(nodes[index])
    return found


def _is_word(node: syntax.SyntaxNode) -> bool:
    """Something the group searches for (not whitespace or an operator)."""
    return not node.is_ws() and not isinstance(node, syntax.Operator | syntax.MarkerNode)
