"""One line of a paper's authors, as every display shows it ("A, B, C, et al.").

Apart from `index.citations` (which re-exports it) so that a search's output, which shows
authors, does not import the citation engine and its styles.
"""

from __future__ import annotations

from collections.abc import Callable

from index.models import Paper

__all__ = ["author_list"]


def author_list(
    paper: Paper,
    limit: int | None = None,
    *,
    et_al: str = ", et al.",
    last: str = ", ",
    unknown: str = "",
    each: Callable[[str], str] | None = None,
) -> str:
    """The paper's authors as one line: "A, B, C, et al." when cut or known to be incomplete.

    Every display of an author list (result rows, the detail, `paperscope show`, the
    Markdown and plain lines) goes through here, so "et al." means the same everywhere:
    more names than shown, or a source that said "and others".

    Args:
        paper: the paper whose `authors` and `authors_complete` are shown.
        limit: at most this many names (None: all of them).
        et_al: appended after the names when some are left out.
        last: between the last two names of a complete list (" and " in prose).
        unknown: the line when the paper has no authors.
        each: applied to each shown name (the TUI makes untrusted names terminal-safe).
    """
    shown = paper.authors if limit is None else paper.authors[:limit]
    names = [each(name) for name in shown] if each is not None else list(shown)
    if not names:
        return unknown
    if len(paper.authors) > len(names) or not paper.authors_complete:
        return ", ".join(names) + et_al
    return last.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
