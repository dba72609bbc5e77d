"""Which program opens a PDF, and how to tell it the page a search matched on.

`O` on a result that matched inside its PDF opens the file at that page when the viewer
takes a page on its command line. The viewer is the one the user set (`pdf_viewer` in the
config), else the desktop's default for PDFs (`xdg-mime query default application/pdf`);
a viewer that takes no page, or none known, opens the file as the desktop opener does.
Each viewer's own option, from its manual:

* zathura `--page=N`, evince `--page-index=N`, okular `--page N`, sioyek `--page N`;
* mupdf `FILE N` (the page after the file);
* Skim (macOS) has no page option (`open -a Skim` takes none): AppleScript's `go ... to
  page N`, the file and page passed as arguments, never spliced into the script.

Pages are 1-based here as in all of them.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence

__all__ = ["PAGE_VIEWERS", "default_viewer", "page_argv", "viewer_argv", "viewer_name"]

# How each viewer is told the page: argv from (program's argv, file, page).
PAGE_VIEWERS: dict[str, Callable[[list[str], str, int], list[str]]] = {
    "zathura": lambda argv, path, page: [*argv, f"--page={page}", path],
    "evince": lambda argv, path, page: [*argv, f"--page-index={page}", path],
    "okular": lambda argv, path, page: [*argv, "--page", str(page), path],
    "sioyek": lambda argv, path, page: [*argv, "--page", str(page), path],
    "mupdf": lambda argv, path, page: [*argv, path, str(page)],
}
# The Skim script: opens the file (argument 1) and goes to the page (argument 2).
SKIM_SCRIPT = (
    "on run argv",
    'tell application "Skim"',
    "open POSIX file (item 1 of argv)",
    "go document 1 to page (item 2 of argv as integer) of document 1",
    "activate",
    "end tell",
    "end run",
)
# The desktop files that name each viewer (`org.pwmt.zathura-pdf-mupdf.desktop`).
_DESKTOP_NAMES = ("zathura", "evince", "okular", "sioyek", "mupdf")


def viewer_name(argv: Sequence[str]) -> str:
    """The viewer a command runs, as `PAGE_VIEWERS` names it ("mupdf-gl" is mupdf)."""
    if not argv:
        return ""
    name = os.path.basename(argv[0]).lower().removesuffix(".exe")
    if name.startswith("mupdf"):
        return "mupdf"
    if name in ("skim", "skim.app"):
        return "skim"
    return name


def page_argv(viewer: Sequence[str], path: str, page: int | None) -> list[str] | None:
    """The command that opens `path` at `page` with `viewer`, None when it takes no page."""
    name = viewer_name(viewer)
    if page is None or page < 1:
        return None
    if name == "skim":
        script = [word for line in SKIM_SCRIPT for word in ("-e", line)]
        return ["osascript", *script, path, str(page)]
    build = PAGE_VIEWERS.get(name)
    return build(list(viewer), path, page) if build is not None else None


def default_viewer(
    which: Callable[[str], str | None] = shutil.which, timeout: float = 2.0
) -> list[str] | None:
    """The desktop's default PDF viewer as a command, when it is one `PAGE_VIEWERS` knows
    and it is installed; else None. Runs `xdg-mime` (blocks: call it off the UI thread)."""
    query = which("xdg-mime")
    if query is None:
        return None
    try:
        done = subprocess.run(
            [query, "query", "default", "application/pdf"],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    desktop = done.stdout.strip().lower()
    for name in _DESKTOP_NAMES:
        if name in desktop:
            program = which(name)
            return [program] if program else None
    return None


def viewer_argv(
    configured: str,
    path: str,
    page: int | None,
    *,
    which: Callable[[str], str | None] = shutil.which,
    platform: str = sys.platform,
    find_default: Callable[[], list[str] | None] | None = None,
) -> tuple[list[str], bool] | None:
    """The command that opens `path` and whether it opens at `page` (the viewer takes a
    page), or None: open it with the desktop's opener, as without a page.

    `configured` (the config's `pdf_viewer`, a command line) is always used when set: the
    user chose it. Otherwise the desktop's default is asked only when there is a page.
    """
    if configured.strip():
        try:
            viewer = shlex.split(configured)
        except ValueError:  # an unclosed quote: the opener, rather than a guess
            return None
        at_page = page_argv(viewer, path, page)
        if at_page is not None and (viewer_name(viewer) != "skim" or platform == "darwin"):
            return at_page, True
        if viewer_name(viewer) == "skim":
            return (["open", "-a", "Skim", path], False) if platform == "darwin" else None
        return [*viewer, path], False
    if page is None:
        return None
    found = (find_default or (lambda: default_viewer(which)))()
    at_page = page_argv(found, path, page) if found else None
    return (at_page, True) if at_page is not None else None
