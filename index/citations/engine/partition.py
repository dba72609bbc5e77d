"""A large bibliography rendered in parts that cannot change each other's entries.

pandoc's citeproc takes time quadratic in the number of references that share author
names (disambiguation compares them): 2,000 items took ~18 s, 10,000 ~290 s on synthetic
data. In a bibliography, one entry depends on another only through:

* year suffixes ("2020a", "2020b"): only between items whose citations render alike, which
  begin with the same first name (author, else editor, ...; title when there are none);
* subsequent-author-substitute ("———."): only between neighbours with the same names;
* citation numbers: the position in the sorted (or given) order.

So references are grouped by their first name's family (all nameless ones together) and,
where citations print the year and no "———" joins years, by year; whole groups are packed
into requests of about `CHUNK` items, and the entries are put back in the order the style
sorts the whole bibliography, which one cheap extra request gives: the same style with its disambiguation and layout taken out, sort kept. A numeric
style is instead cut into consecutive runs of that order and each entry's label renumbered
(its number is its position, nothing else). The requests are spread over a few pandoc
processes, one per core up to four.
"""

from __future__ import annotations

import atexit
import os
import queue
import re
import shutil
import tempfile
import threading
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index.citations.engine import wire
from index.citations.engine.process import PandocProcess
from index.citations.engine.wire import BibEntry, EngineStyle, reference_id

if TYPE_CHECKING:
    from index.citations.engine.wire import Reference

__all__ = ["CHUNK", "StyleFacts", "group_key", "render_large", "style_facts"]

CHUNK = 100  # items a request: past ~100 the quadratic part outweighs the per-request cost
_NS = "http://purl.org/net/xbiblio/csl"
_NAME_VARIABLES = ("author", "editor", "translator", "director", "composer", "container-author")
_DISAMBIGUATION = (
    "disambiguate-add-year-suffix",
    "disambiguate-add-names",
    "disambiguate-add-givenname",
    "givenname-disambiguation-rule",
)


def _q(tag: str) -> str:
    return f"{{{_NS}}}{tag}"


def group_key(reference: Reference, by_year: bool = False) -> str:
    """The first name's family name, folded: references with different keys never interact.

    With `by_year` (a style whose citations print the year and that substitutes no
    repeated author), the year joins the key: "Smith 2019" and "Smith 2020" are never
    ambiguous, so they never need suffixes from each other. An error here only matters if
    it splits references that would interact, so anything unsure (a BibLaTeX entry with a
    crossref, no names, no year) goes to a common group.
    """
    if isinstance(reference, BibEntry):
        family, year = _bib_group_key(reference.text), _bib_year(reference.text)
    else:
        family, year = _csl_group_key(reference), _csl_year(reference)
    return f"{family}\0{year}" if by_year and family else family


def _csl_group_key(item: Mapping[str, Any]) -> str:
    for variable in _NAME_VARIABLES:
        names = item.get(variable)
        if names:
            first = names[0]
            family = first.get("family") or first.get("literal") or ""
            return " ".join(str(family).casefold().split())
    return ""


def _csl_year(item: Mapping[str, Any]) -> str:
    issued = item.get("issued")
    if isinstance(issued, Mapping):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return str(parts[0][0])
        return str(issued.get("literal") or issued.get("raw") or "")
    return ""


_BIB_NAME = re.compile(r"\b(?:author|editor)\s*=\s*[{\"]([^\n]*)", re.IGNORECASE)
_BIB_YEAR = re.compile(r"\b(?:year|date)\s*=\s*[{\"]?\s*(\d{4})", re.IGNORECASE)


def _bib_year(text: str) -> str:
    found = _BIB_YEAR.search(text)
    return found.group(1) if found else ""


def _bib_group_key(text: str) -> str:
    if re.search(r"\b(?:crossref|xdata)\s*=", text, re.IGNORECASE):
        return ""
    found = _BIB_NAME.search(text)
    if not found:
        return ""
    first = re.split(r"\s+and\s+", found.group(1), maxsplit=1)[0]
    first = re.sub(r"[{}\"\\]", "", first).strip().rstrip(",")
    family = first.split(",")[0] if "," in first else (first.split() or [""])[-1]
    return family.casefold()


def _cites_the_year(root: ElementTree.Element) -> bool:
    """Whether the style's citation prints the issued date (directly or through macros)."""
    macros = {m.get("name"): m for m in root.iter(_q("macro"))}
    citation = root.find(_q("citation"))
    pending, seen = [citation] if citation is not None else [], set()
    while pending:
        element = pending.pop()
        for node in element.iter():
            if node.tag == _q("date") and "issued" in (node.get("variable") or "").split():
                return True
            name = node.get("macro")
            if name and name not in seen and name in macros:
                seen.add(name)
                pending.append(macros[name])
    return False


class StyleFacts:
    """What the engine needs to know of a style: whether it sorts, whether it numbers, and
    every variable it names (what it may print)."""

    def __init__(self, path: Path) -> None:
        root = ElementTree.parse(path).getroot()
        self.variables = frozenset(
            name for element in root.iter() for name in (element.get("variable") or "").split()
        )
        bibliography = root.find(_q("bibliography"))
        self.sorts = bibliography is not None and bibliography.find(_q("sort")) is not None
        self.numbered = bibliography is not None and any(
            element.get("variable") == "citation-number" for element in bibliography.iter()
        )
        # Entries can share a suffix or a "———" only with the same first name, and a
        # suffix only with the same year too when citations print it.
        substitutes = (
            bibliography is not None
            and bibliography.get("subsequent-author-substitute") is not None
        )
        self.by_year = not substitutes and _cites_the_year(root)
        self.order_style = _order_only(root)


_temp_lock = threading.Lock()
_temp_dir: list[Path] = []


def _scratch() -> Path:
    with _temp_lock:
        if not _temp_dir:
            folder = Path(tempfile.mkdtemp(prefix="paperscope-csl-"))
            atexit.register(shutil.rmtree, folder, True)
            _temp_dir.append(folder)
        return _temp_dir[0]


def _order_only(root: ElementTree.Element) -> Path | None:
    """A copy of the style that only sorts: no disambiguation, no layout to speak of."""
    bibliography = root.find(_q("bibliography"))
    if bibliography is None or bibliography.find(_q("sort")) is None:
        return None
    ElementTree.register_namespace("", _NS)
    copy = ElementTree.fromstring(ElementTree.tostring(root))
    for section in (copy.find(_q("citation")), copy.find(_q("bibliography"))):
        if section is None:
            continue
        for attribute in (*_DISAMBIGUATION, "subsequent-author-substitute"):
            section.attrib.pop(attribute, None)
        layout = section.find(_q("layout"))
        if layout is not None:
            section.remove(layout)
        layout = ElementTree.SubElement(section, _q("layout"))
        ElementTree.SubElement(layout, _q("text"), {"value": "x"})
    handle = tempfile.NamedTemporaryFile(suffix=".csl", dir=_scratch(), delete=False)
    with handle:
        handle.write(ElementTree.tostring(copy, encoding="utf-8", xml_declaration=True))
    return Path(handle.name)


@lru_cache(maxsize=32)
def _facts(path: Path, stamp: int) -> StyleFacts:
    return StyleFacts(path)


def style_facts(path: Path) -> StyleFacts:
    """The style file's facts, read once per version of the file.

    Raises:
        OSError, ElementTree.ParseError: the file cannot be read as XML.
    """
    return _facts(path, path.stat().st_mtime_ns)


def render_large(
    references: Sequence[Reference], style: EngineStyle, fmt: str
) -> list[tuple[str, str]]:
    """`render_bibliography` for any size: one request up to `CHUNK`, parts beyond."""
    if len(references) <= CHUNK:
        return wire.request(references, style, fmt)
    try:
        facts = style_facts(style.path)
    except (OSError, ElementTree.ParseError):  # pandoc names the problem in one line
        return wire.request(references, style, fmt)
    by_id = {reference_id(reference): reference for reference in references}
    jobs: list[_Job] = []
    if facts.order_style is not None:
        jobs.append((list(by_id.values()), EngineStyle(facts.order_style, style.locale), "plain"))
    if facts.numbered:  # runs of the sorted order: the order comes first
        order = [id_ for id_, _ in _run(jobs)[0]] if jobs else list(by_id)
        return _numbered(order, by_id, style, fmt)
    groups: dict[str, list[Reference]] = {}
    for reference in by_id.values():
        groups.setdefault(group_key(reference, facts.by_year), []).append(reference)
    current: list[Reference] = []
    for group in groups.values():
        if current and len(current) + len(group) > CHUNK:
            jobs.append((current, style, fmt))
            current = []
        current.extend(group)
    if current:
        jobs.append((current, style, fmt))
    answers = _run(jobs)  # the order and the parts at once
    order = [id_ for id_, _ in answers[0]] if facts.order_style is not None else list(by_id)
    rendered: dict[str, str] = {}
    for answer in answers[1 if facts.order_style is not None else 0 :]:
        rendered.update(answer)
    return [(id_, rendered[id_]) for id_ in order if id_ in rendered]


_Job = tuple[list["Reference"], EngineStyle, str]


def _pool_size() -> int:
    """pandoc processes for one large bibliography: the cores, up to four."""
    return max(1, min(4, os.cpu_count() or 1))


def _run(jobs: list[_Job]) -> list[list[tuple[str, str]]]:
    """Every request's answer, in order, spread over a few pandoc processes.

    The shared process takes one share; the others are started for this bibliography and
    ended after it (a start costs ~0.1 s, a 10,000-paper APA bibliography ~25 s of CPU).
    """
    size = min(_pool_size(), len(jobs))
    if size <= 1:
        return [wire.request(refs, style, fmt) for refs, style, fmt in jobs]
    spare = [PandocProcess() for _ in range(size - 1)]
    free: queue.SimpleQueue[PandocProcess | None] = queue.SimpleQueue()
    for process in [None, *spare]:  # None: the shared process
        free.put(process)

    def one(job: _Job) -> list[tuple[str, str]]:
        process = free.get()
        try:
            return wire.request(job[0], job[1], job[2], process=process)
        finally:
            free.put(process)

    try:
        with ThreadPoolExecutor(size) as pool:
            return list(pool.map(one, jobs))
    finally:
        for process in spare:
            process.close()


def _numbered(
    order: list[str], by_id: dict[str, Reference], style: EngineStyle, fmt: str
) -> list[tuple[str, str]]:
    """Consecutive runs of the order, each entry's number moved on by the run's start."""
    starts = range(0, len(order), CHUNK)
    jobs: list[_Job] = [([by_id[i] for i in order[n : n + CHUNK]], style, fmt) for n in starts]
    result: list[tuple[str, str]] = []
    for start, answer in zip(starts, _run(jobs)):
        for local, (id_, text) in enumerate(answer, 1):
            result.append((id_, _renumbered(text, local, start + local)))
    return result


def _renumbered(text: str, local: int, number: int) -> str:
    """The entry with its label's number `local` replaced by `number` ("[3]" -> "[303]")."""
    if local == number:
        return text
    return re.sub(rf"^(\W*){local}(?!\d)", rf"\g<1>{number}", text, count=1)
