"""The document's bibliography file, and writing the cited papers into it.

The file is the one the document names: `\\bibliography{refs}` or `\\addbibresource{refs.bib}`
in LaTeX, pandoc's `bibliography:` front matter, Typst's `#bibliography("refs.yml")`, Org's
`#+bibliography:`. It is written as `paperscope cited -o` writes it (the cited papers, each
under the key the document uses, in the format the extension asks for), but into a file the
user may have filled by hand: entries of other keys, comments and `@string`s are kept where
they are, an entry of a cited key is replaced in place, new ones are appended.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from index.atomic import write_text_atomic
from index.citations.export import export_text, format_for_path
from index.citations.manuscripts import key_offsets, readable_text
from index.models import Paper
from tui.cli.cited_cmds import Cited

__all__ = ["BibliographyError", "bibliography_file", "write_bibliography"]


class BibliographyError(Exception):
    """The bibliography cannot be written; the message names the file and the cause."""


_LATEX = re.compile(r"\\(?:bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")
_TYPST = re.compile(r"#bibliography\(\s*\(?\s*\"((?:[^\"\\]|\\.)*)\"")
_ORG = re.compile(r"^[ \t]*#\+bibliography:[ \t]*(\S+)", re.IGNORECASE | re.MULTILINE)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)


def _front_matter_file(text: str) -> str | None:
    match = _FRONT_MATTER.match(text)
    if match is None:
        return None
    import yaml

    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return None
    named = data.get("bibliography") if isinstance(data, dict) else None
    if isinstance(named, list):
        named = next((item for item in named if isinstance(item, str)), None)
    return named if isinstance(named, str) and named.strip() else None


def bibliography_file(text: str, syntax: str, document: Path) -> Path | None:
    """The bibliography file the document names (the first), resolved beside it; else None."""
    name: str | None = None
    if syntax == "latex":
        match = _LATEX.search(readable_text(text, syntax))
        if match is not None:
            name = match.group(1).split(",")[0].strip()
            if name and not Path(name).suffix:
                name += ".bib"  # `\bibliography{refs}` means refs.bib
    elif syntax == "markdown":
        name = _front_matter_file(text)
    elif syntax == "typst":
        match = _TYPST.search(readable_text(text, syntax))
        name = match.group(1).replace('\\"', '"') if match else None
    elif syntax == "org":
        match = _ORG.search(text)
        name = match.group(1) if match else None
    if not name:
        return None
    path = Path(name).expanduser()
    return path if path.is_absolute() else document.parent / path


_BIB_ENTRY = re.compile(r"^[ \t]*@([A-Za-z]+)\s*[{(]\s*([^,\s]*)\s*,", re.MULTILINE)
_YAML_ENTRY = re.compile(r"^([^\s#\-][^:\n]*):", re.MULTILINE)


def _blocks(
    text: str, pattern: re.Pattern[str], key_group: int
) -> tuple[str, list[tuple[str, str]]]:
    """(the text before the first entry, [(key, entry text)]): each entry runs to the next."""
    starts = [(m.start(), m.group(key_group).strip().strip("'\"")) for m in pattern.finditer(text)]
    if not starts:
        return text, []
    blocks = []
    for number, (start, key) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(text)
        blocks.append((key, text[start:end]))
    return text[: starts[0][0]], blocks


def _merge_blocks(old: str, new: str, pattern: re.Pattern[str], key_group: int) -> str:
    """`old` with the entries of `new` replacing those of the same key, the rest appended."""
    head, old_blocks = _blocks(old, pattern, key_group)
    new_head, new_blocks = _blocks(new, pattern, key_group)
    fresh = dict(new_blocks)
    out = [head or new_head]
    for key, block in old_blocks:
        replacement = fresh.pop(key, block)
        out.append(replacement if replacement.endswith("\n") else replacement + "\n")
    for block in fresh.values():
        if out and not out[-1].endswith("\n\n") and "".join(out).strip():
            out.append("\n")
        out.append(block if block.endswith("\n") else block + "\n")
    return "".join(out)


def _merge_json(old: str, new: str, path: Path) -> str:
    try:
        records = json.loads(old)
    except json.JSONDecodeError as error:
        raise BibliographyError(
            f"{path}:{error.lineno}: not valid CSL-JSON ({error.msg}); left as it was"
        ) from None
    if not isinstance(records, list):
        raise BibliographyError(f"{path}: not a CSL-JSON list of records; left as it was")
    written = json.loads(new)
    by_id = {record.get("id"): record for record in written if isinstance(record, dict)}
    merged = [by_id.pop(r.get("id"), r) if isinstance(r, dict) else r for r in records]
    merged.extend(by_id.values())
    return json.dumps(merged, ensure_ascii=False, indent=2) + "\n"


def write_bibliography(
    path: Path,
    text: str,
    syntax: str,
    find: Callable[[str], Paper | None],
    keys: dict[str, str],
    everything: Callable[[], Sequence[Paper]] = list,
) -> tuple[int, list[str]]:
    """Writes the papers `text` cites into `path` (atomically); (papers written, unknown
    keys, which are left out as `cited` leaves them out). `\\nocite{*}` adds
    `everything()`, after the papers cited by key, as `cited` does.

    Raises:
        BibliographyError: a format this cannot merge into, or a file it cannot read or write.
    """
    found = Cited()
    unknown: list[str] = []
    cites_all = False
    for key, _ in key_offsets(text, syntax):
        if key == "*":
            cites_all = True
        elif not found.add(key, find(key)) and key not in unknown:
            unknown.append(key)
    if cites_all:
        found.add_all(everything())
    fmt = format_for_path(path, "bibtex")
    if fmt not in ("bibtex", "biblatex", "csl-json", "hayagriva"):
        raise BibliographyError(
            f"{path.name}: paperscope writes .bib, .json (CSL-JSON) and .yml (Hayagriva) "
            "bibliography files, not this one"
        )
    if fmt == "hayagriva" and syntax != "typst":
        # pandoc reads a .yaml bibliography as CSL YAML, not Typst's Hayagriva.
        raise BibliographyError(
            f"{path.name}: a YAML bibliography is written for Typst (Hayagriva); for pandoc "
            "name a .bib or .json (CSL-JSON) file"
        )
    try:
        new = export_text(found.papers, fmt, found.keys(keys))
    except ValueError as error:
        raise BibliographyError(str(error)) from None
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = ""
    except (OSError, UnicodeDecodeError) as error:
        raise BibliographyError(f"{path}: cannot read ({error}); left as it was") from None
    if old.strip():
        if fmt == "csl-json":
            new = _merge_json(old, new, path)
        elif fmt == "hayagriva":
            new = _merge_blocks(old, new, _YAML_ENTRY, 1)
        else:
            new = _merge_blocks(old, new, _BIB_ENTRY, 2)
    try:
        write_text_atomic(path, new)
    except OSError as error:
        raise BibliographyError(f"{path}: cannot write ({error.strerror or error})") from None
    return len(found.papers), unknown
