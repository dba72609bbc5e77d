"""The library read again and its index updated in a process of its own.

Reading a 100,000-paper library back holds the interpreter's lock for seconds at a time
(unpickling the cache, merging, tagging); in the server's own process that stalled every
completion asked meanwhile. So a reload is what `paperscope index` does, in a spawned
interpreter (spawn, not fork: the server runs threads), and the server only opens the
index it leaves: opening a current index reads a few files, not the library.

The child keeps the app's rule for a broken file: when a file that changed now gives a
problem it did not give before, the index is left as it was and the problem said, and
the papers read before stay served until the file changes again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.connection import Connection
from pathlib import Path

from index.models import LoadWarning

__all__ = ["NICENESS", "Reload", "ReloadResult", "fresh_problem"]

NICENESS = 10  # added to the reload's scheduling niceness (POSIX)


@dataclass(frozen=True)
class ReloadResult:
    """How a reload ended.

    Attributes:
        built: the index was updated (the server opens it).
        problem: what to tell the user (a broken file kept, the library unreadable).
        warnings: the library's load problems, when it was read.
        files: every file the library was read from (what the watch polls).
    """

    built: bool
    problem: str | None = None
    warnings: tuple[LoadWarning, ...] = ()
    files: tuple[str, ...] = ()


def fresh_problem(
    warnings: tuple[LoadWarning, ...], before: set[tuple[str, str]], touched: set[str]
) -> LoadWarning | None:
    """The first problem of a changed file that the papers read before did not have."""
    for warning in warnings:
        where = os.path.realpath(warning.path)
        if where in touched and (where, warning.message) not in before:
            return warning
    return None


def _child(
    connection: Connection,
    corpus: list[Path],
    taxonomy: Path | None,
    touched: set[str],
    before: set[tuple[str, str]],
) -> None:
    """In the spawned interpreter: read, check, build; the result sent back.

    At a lower priority (with the processes it starts): on a busy machine the editor's
    requests to the server come first, the index a little later.
    """
    if hasattr(os, "nice"):
        try:
            os.nice(NICENESS)
        except OSError:  # not allowed here: the reload runs as it is
            pass
    from tui.cli.context import UserError
    from tui.lsp.context import EditorContext, joined

    context = EditorContext(corpus, taxonomy)
    context.quiet = True  # no progress on stderr
    try:
        library = context.library
        first = fresh_problem(library.warnings, before, touched)
        if first is not None:
            result = ReloadResult(
                False,
                f"paperscope: {first} — keeping the papers read before; reading "
                f"{os.path.basename(first.path)} again when it changes",
            )
        else:
            context.engine.close()
            files = tuple(str(path) for path in library.files)
            result = ReloadResult(True, None, library.warnings, files)
    except UserError as error:
        why = f" ({joined(context.said)})" if context.said else ""
        result = ReloadResult(False, f"paperscope: {error}{why}; keeping the papers read before")
    except Exception as error:  # said in the editor; the server keeps what it serves
        result = ReloadResult(False, f"paperscope: reloading the library failed: {error}")
    connection.send(result)
    connection.close()


class Reload:
    """One reload running in its own process; `result()` once `done()`."""

    def __init__(
        self,
        corpus: list[Path],
        taxonomy: Path | None,
        touched: set[str],
        before: set[tuple[str, str]],
    ) -> None:
        spawn = get_context("spawn")
        self._receive, send = spawn.Pipe(duplex=False)
        self._process = spawn.Process(
            target=_child,
            args=(send, corpus, taxonomy, touched, before),
            name="paperscope-lsp-reload",
            daemon=False,  # a big load starts worker processes of its own
        )
        self._process.start()
        send.close()
        self._result: ReloadResult | None = None

    def done(self) -> bool:
        """Whether the child has ended (its result then waits)."""
        if self._result is not None:
            return True
        if self._receive.poll():
            try:
                self._result = self._receive.recv()
            except EOFError:
                self._result = ReloadResult(False, "paperscope: the library's reload stopped")
            self._process.join()
            return True
        if not self._process.is_alive():
            self._result = ReloadResult(False, "paperscope: the library's reload stopped")
            return True
        return False

    def result(self) -> ReloadResult:
        assert self._result is not None
        return self._result

    def stop(self) -> None:
        """End the child (the server is going); an index it was writing is left unpublished."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(5)
