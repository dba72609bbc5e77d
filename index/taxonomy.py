"""PLACEHOLDER until the facets issue lands: the facet vocabulary (topics, hardware)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


class TaxonomyError(ValueError):
    """A taxonomy file that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class FacetValue:
    facet: str  # "topic" or "hardware"
    id: str
    label: str
    description: str = ""
    parent: str | None = None


@dataclass(frozen=True)
class Taxonomy:
    topics: tuple[FacetValue, ...] = ()
    hardware: tuple[FacetValue, ...] = ()


def load_taxonomy(extra_files: Sequence[Path] = ()) -> Taxonomy:
    return Taxonomy()
