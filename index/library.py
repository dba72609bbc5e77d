"""PLACEHOLDER until the paper-library issue lands: files -> tagged, merged papers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from index.models import Library
from index.taxonomy import Taxonomy


def load_library(paths: Sequence[Path] | None, taxonomy: Taxonomy) -> Library:
    return Library(papers=())
