"""Making a finished build the index every process serves: the one step after a build.

A full build is written into `build-<token>/`, renamed to `gen-<token>/` and published by
atomically replacing `current.json` (`finish_build`). The process that built it does this:
the caller's own when it built in place, else the build process itself
(`index.store.child_main`), which may still be running after the app that started it quit
(`index.store.child`): the build is then never lost, and never half-published.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from index.atomic import write_text_atomic
from index.store import integrity
from index.store.locks import in_use, sweep_previews
from index.store.manifest import read_current

__all__ = ["finish_build", "publish"]


def publish(folder: Path, gen: str, manifest: dict[str, Any], recorded: Any = None) -> None:
    """Makes generation `gen` the current one; `recorded`: its checksums before an
    in-place update (the files it did not write are not hashed again)."""
    previous = read_current(folder)
    sums = integrity.recorded_checksums(folder / gen, recorded)
    write_text_atomic(
        folder / "current.json",
        json.dumps({"dir": gen, "manifest": manifest, "checksums": sums}),
    )
    keep = {gen, previous["dir"] if previous else None}  # a reader may still use the last one
    sweep_previews(folder)
    for old in folder.glob("gen-*"):
        if old.name not in keep and not in_use(old):  # an open app keeps its generation
            shutil.rmtree(old, ignore_errors=True)


def finish_build(folder: Path, token: str, manifest: dict[str, Any]) -> Path:
    """Renames the complete build `build-<token>` to `gen-<token>` and publishes it."""
    final = folder / f"gen-{token}"
    os.replace(folder / f"build-{token}", final)
    publish(folder, final.name, manifest)
    return final
