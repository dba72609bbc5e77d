"""A first start the user quit before its index was built: a process of its own finishes it.

Quitting during a first start held the terminal until the library was read and a small
library's index built in the app's own process ("finishing the search index so the next
start is quick"), and ctrl+c there threw the work away (issue 50). A big library's build
already runs in a build process that is left to publish alone (`index.store.child`,
`LeaveBuilds`); for everything before it (reading the files, merging, tagging) and for a
build in the caller's process, the caller hands the whole start to a fresh interpreter
here and exits at once:

- it reads the library through the library cache, so every file the caller parsed is
  read from there, not parsed again (a finished load is read whole);
- it waits for the build lock, so a build the caller had begun in its own process (gone
  with it: nothing of it is ever published) or another start's build is never doubled;
  a build that was finished meanwhile is opened as it is, and nothing is built;
- it builds and publishes as any start does (`index.open_engine`): killed at any point,
  the index served is the previous one or the new one, and the next start resumes.

It runs in a session of its own (the terminal's hang-up or ctrl+c does not reach it), at
a lower priority, and writes only to a log in the cache folder: the terminal is the
user's again.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from index.facets.taxonomy import Taxonomy

__all__ = ["FINISHER_NICENESS", "LOG_NAME", "finish_alone", "main"]

# The finisher's own output (a failure's one line), in the cache folder.
LOG_NAME = "finish-alone.log"
# As the load's workers (index.library.parallel): nobody waits for the finisher, and its
# start (~0.4 s of imports) came while the app it was handed from was still exiting.
FINISHER_NICENESS = 10
# As for a build process (index.store.child): the caller's import path, so the very code
# that started it finishes the start.
_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from index.store.finish_alone import main; main()"
)


def finish_alone(
    paths: Sequence[Path] | None, taxonomy: Taxonomy, cache_dir: Path
) -> subprocess.Popen[bytes] | None:
    """Starts the process that loads the library at `paths` (None: the bundled corpus)
    and builds its index under `cache_dir`, as a start would; returns it at once (None
    if it could not start: the next start builds, as before).

    `taxonomy` is sent pickled, as the load's workers get it (`index.library.parallel`):
    a fresh copy, without the rules it compiled while tagging. With them the job was
    122 KB, more than a pipe holds, and the write waited ~0.4 s for the finisher to start
    reading, while the user waited for the prompt; without them it is 25 KB.
    """
    fresh = replace(taxonomy)
    job = pickle.dumps(
        (None if paths is None else [str(path) for path in paths], fresh, str(cache_dir))
    )
    try:
        Path(cache_dir).mkdir(parents=True, exist_ok=True)
        with open(Path(cache_dir) / LOG_NAME, "ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-c", _BOOT, json.dumps(sys.path)],
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=log,
                close_fds=True,
                start_new_session=True,  # no hang-up, no ctrl+c from the terminal
            )
        assert process.stdin is not None
        with process.stdin:
            process.stdin.write(job)
    except (OSError, ValueError):
        return None
    return process


def main() -> None:
    """The finisher's entry point: read the job, load, wait for the lock, build, exit."""
    job = sys.stdin.buffer.read()  # first: the app's write never waits for the imports
    try:
        os.nice(FINISHER_NICENESS)  # before the imports: the app's exit comes first
    except (AttributeError, OSError):  # no `nice` (Windows), or not allowed: run as is
        pass
    from index import load_library, open_engine
    from index.store.locks import build_lock
    from index.store.manifest import library_dir

    names, taxonomy, cache = pickle.loads(job)
    cache_dir = Path(cache)
    paths = None if names is None else [Path(name) for name in names]
    library = load_library(paths, taxonomy, cache_dir=cache_dir / "library")
    if not library.papers:
        return
    folder = library_dir(cache_dir, library)
    folder.mkdir(parents=True, exist_ok=True)
    with build_lock(folder, wait=True):  # a build under way elsewhere ends first
        pass
    open_engine(library, taxonomy, cache_dir).close()
