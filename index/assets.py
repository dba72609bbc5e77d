"""Where the bundled corpus, its curated metadata and the facet taxonomy live.

In a source checkout (and an editable install) they are the repository's `assets/`; an
installed wheel carries the same files as `index/_assets` (see pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def assets_dir() -> Path:
    """The folder holding the bundled files, wherever paperscope was installed from."""
    packaged = _PACKAGE_DIR / "_assets"
    if packaged.is_dir():
        return packaged
    return _PACKAGE_DIR.parent / "assets"


def bundled_taxonomy() -> Path:
    """The facet taxonomy that ships with paperscope."""
    return assets_dir() / "taxonomy.toml"


def bundled_corpus_files() -> list[Path]:
    """The bundled abstract lists (and their metadata sidecar), in a stable order."""
    return sorted(assets_dir().glob("*.txt"))


def bundled_metadata() -> Path:
    """The curated facts about the bundled papers, built from the corpus's seed metadata."""
    return assets_dir() / "metadata.json"
