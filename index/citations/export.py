"""Bibliography files: the format a file name asks for, and the text written into it.

The app's export dialog and `paperscope export -o FILE` both decide the format here, so
`refs.ris` means RIS in both: `.bib` BibTeX (BibLaTeX when that is the current style),
`.ris` RIS, `.json` CSL-JSON, `.yml`/`.yaml` Hayagriva, `.jsonl` paperscope's own records,
`.md` a Markdown list; any other name is written in the current citation style, key
formats (`key`, `latex:citep`, ...) included, which write the exported papers' keys.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath

from index.citations import (
    CslStyle,
    citation_keys,
    format_citation,
    resolve_style,
    style_label,
)
from index.citations.keyformats import split_key_style
from index.models import Paper
from index.text_safety import strip_controls

__all__ = [
    "EXPORT_ONLY",
    "FILE_FORMATS",
    "export_label",
    "export_only_format",
    "export_text",
    "extension_for",
    "format_for_path",
]

# Formats that are files rather than citations: `cite` has no use for them.
EXPORT_ONLY = ("hayagriva", "jsonl")
# The interchange formats, in the order the dialog's format switch offers them.
FILE_FORMATS = ("bibtex", "biblatex", "ris", "csl-json", "hayagriva", "jsonl")

# The extension a format is saved with; a format not named here is saved as `.txt`.
_EXTENSIONS = {
    "bibtex": "bib",
    "biblatex": "bib",
    "ris": "ris",
    "csl-json": "json",
    "hayagriva": "yml",
    "jsonl": "jsonl",
    "markdown": "md",
    "latex": "tex",
    "typst": "typ",
    "org": "org",
}
# Extension -> the format it means, whatever the current style.
_BY_EXTENSION = {
    "bib": "bibtex",
    "ris": "ris",
    "json": "csl-json",
    "yml": "hayagriva",
    "yaml": "hayagriva",
    "jsonl": "jsonl",
    "md": "markdown",
}
# Comment syntax of the formats whose files can carry the provenance header.
_COMMENT = {"bibtex": "% ", "biblatex": "% ", "hayagriva": "# "}
_LABELS = {"hayagriva": "Hayagriva (Typst)", "jsonl": "paperscope JSON Lines"}
# What an empty export holds, so the file still parses as its format.
_EMPTY = {"csl-json": "[]", "hayagriva": "{}"}


def export_only_format(name: str) -> str | None:
    """`hayagriva` or `jsonl` for a name meaning one (case-insensitive, `yaml` too), else None."""
    folded = name.strip().casefold()
    if folded in ("yml", "yaml"):
        return "hayagriva"
    return folded if folded in EXPORT_ONLY else None


def format_for_path(path: PurePath | str, style: str) -> str:
    """The format a file name asks for: by its extension, else `style` (the current one).

    A `.bib` file keeps BibLaTeX when that is the current style; a `latex:citep` style
    stays itself for any name its extension does not claim.
    """
    extension = PurePath(path).suffix.lower().lstrip(".")
    wanted = _BY_EXTENSION.get(extension)
    if wanted is None or (wanted == "bibtex" and style == "biblatex"):
        return style
    return wanted


def extension_for(fmt: str) -> str:
    """The extension (no dot) a file of `fmt` gets: `bib`, `yml`, `tex` for `latex:citep`."""
    if isinstance(fmt, CslStyle):
        return "txt"
    return _EXTENSIONS.get(split_key_style(fmt)[0], "txt")


def export_label(fmt: str) -> str:
    """The format's name for people: "BibTeX", "Hayagriva (Typst)", "LaTeX \\citep"."""
    return _LABELS.get(fmt) or style_label(fmt)


def export_text(
    papers: Sequence[Paper],
    fmt: str,
    keys: Mapping[str, str],
    provenance: Iterable[str] = (),
) -> str:
    """The whole file: `papers` in `fmt`, ending in a newline when it holds anything.

    Args:
        papers: in the order they are written (numbered styles number them so).
        fmt: one of `FILE_FORMATS`, any citation style (`apa`, a key format such as
            `latex:citep`, which writes the papers' keys), or a user's `CslStyle`.
        keys: citation keys by paper id over the whole library, so they match `cite`.
        provenance: lines said in a comment at the top, where the format has comments.

    Raises:
        UnknownStyleError, KeyFormatError, StyleFileError: as `format_citation` does.
    """
    plain_name = not isinstance(fmt, CslStyle) and split_key_style(fmt)[1] is None
    if plain_name and fmt not in EXPORT_ONLY:
        fmt = resolve_style(fmt) or fmt  # `BibTeX`, `apa7`; unknown ones fail below
    comment = _COMMENT.get(fmt)
    header = "".join(f"{comment}{line}\n" for line in provenance) if comment else ""
    if fmt == "jsonl":
        return "".join(
            strip_controls(json.dumps(paper.to_dict(), ensure_ascii=False)) + "\n"
            for paper in papers
        )
    if fmt == "hayagriva":
        # PyYAML is imported only when someone writes Typst's format.
        from index.citations.hayagriva import hayagriva_yaml

        return header + hayagriva_yaml(list(papers), dict(keys))
    if fmt == "csl-json" and papers:
        # Imported here: only an export writes it. Copies CSL-JSON items as read.
        from index.citations.csl_export import csl_export

        resolved = dict(citation_keys(papers))
        resolved.update({k: v for k, v in keys.items() if k in resolved})
        body = csl_export(papers, resolved)
    else:
        body = format_citation(papers, fmt, keys=keys) if papers else _EMPTY.get(fmt, "")
    if header:
        header += "\n"
    return header + body + ("\n" if body and not body.endswith("\n") else "")
