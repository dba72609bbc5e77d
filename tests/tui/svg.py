"""SVG screenshots that keep their spaces: a test helper, not production rendering code.

Each segment of a screenshot becomes a `<text>` stretched to its cell width, and
renderers such as rsvg-convert drop the spaces at its ends, so "Using " + "GPUs" +
" During" drew as "Using  GPUsDuring" and an indented line lost its indent. The
`keep_svg_spaces` fixture splits every recorded segment's edge spaces into segments of
their own just before Rich writes the SVG (the terminal itself never sees this).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style

__all__ = ["keep_svg_spaces", "split_edge_spaces"]

_EDGE = Style.from_meta({"edge_space": True})  # invisible; keeps the pieces apart


def split_edge_spaces(segments: Iterable[Segment]) -> list[Segment]:
    """The same cells, with spaces at a segment's ends moved into segments of their own."""
    out: list[Segment] = []
    for segment in segments:
        text, style, control = segment
        core = text.strip(" ")
        if control or core == text:
            out.append(segment)
            continue
        edge = (style or Style()) + _EDGE
        if not core:
            out.append(Segment(text, edge))
            continue
        start = text.index(core)
        for piece, piece_style in (
            (text[:start], edge),
            (core, style),
            (text[start + len(core) :], edge),
        ):
            if piece:
                out.append(Segment(piece, piece_style))
    return out


@pytest.fixture
def keep_svg_spaces(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Screenshots taken in the test keep every space (see the module docstring)."""
    export = Console.export_svg

    def export_svg(self: Console, *args: object, **kwargs: object) -> str:
        with self._record_buffer_lock:
            self._record_buffer[:] = split_edge_spaces(self._record_buffer)
        return export(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Console, "export_svg", export_svg)
    yield
