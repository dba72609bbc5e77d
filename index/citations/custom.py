"""The user's own CSL styles: `.csl` files from the CSL styles repository, by file name.

A style is named by a string everywhere (the config, `--style`, the style picker), so a
user's style is a `CslStyle`: a `str` that is its name and also carries its file, title and
what the engine renders it with. It passes through every place a built-in style name goes.

A file is checked when it is read (XML, a CSL `<style>`, with a `<bibliography>`). A
*dependent* style (most journal styles: `nature-communications.csl` only says "format as
`nature`, in this locale") is resolved as Zotero resolves it: its `independent-parent`
link names the parent's `<id>`, found among the other files in the same folder or the
built-in styles. A file that fails gives one line naming it and why; the others are used.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from index.citations.engine import EngineStyle

if TYPE_CHECKING:  # read only with a style file: the XML parser costs every start ~3 ms
    import xml.etree.ElementTree as ElementTree

__all__ = ["CslStyle", "StyleFileError", "read_csl_style", "read_style_folder"]

_NS = "{http://purl.org/net/xbiblio/csl}"


class CslStyle(str):
    """A user's CSL style: the string is its name (the file stem); `path` and `csl_title` ride along.

    Comparing and hashing are a string's, so `"my-journal" == CslStyle(...)` as the
    config and picker expect; caches that must tell two files apart key on `path`.
    `engine_style` is what is rendered: the file itself, or a dependent style's parent
    with the dependent's locale.
    """

    path: Path
    csl_title: str
    engine_style: EngineStyle

    def __new__(
        cls, name: str, path: Path, title: str, engine_style: EngineStyle | None = None
    ) -> CslStyle:
        style = super().__new__(cls, name)
        style.path = path
        style.csl_title = title
        style.engine_style = engine_style or EngineStyle(path)
        return style

    def __reduce__(self) -> tuple[type, tuple[str, Path, str, EngineStyle]]:
        return CslStyle, (str(self), self.path, self.csl_title, self.engine_style)


class StyleFileError(ValueError):
    """A `.csl` file paperscope cannot use; the message is `PATH: cause`, one line."""

    def __init__(self, path: Path, cause: str) -> None:
        super().__init__(f"{path}: {cause}")
        self.path = path
        self.cause = cause


def _parse(path: Path) -> ElementTree.Element:
    """The file's root element, or a StyleFileError (unreadable, not XML, not CSL)."""
    import xml.etree.ElementTree as ElementTree

    try:
        data = path.read_bytes()
    except OSError as error:
        raise StyleFileError(path, f"cannot read it ({error.strerror or error})") from None
    try:
        # expat expands no external entities and caps entity expansion (billion laughs).
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        line = f" at line {error.position[0]}" if error.position else ""
        raise StyleFileError(path, f"not a CSL style (XML error{line})") from None
    if root.tag != f"{_NS}style":
        local = root.tag.rpartition("}")[2]
        raise StyleFileError(
            path,
            f"not a CSL style (the root element is <{local}>, not <style> in the CSL namespace)",
        )
    return root


def _parent_link(root: ElementTree.Element) -> str | None:
    for link in root.iterfind(f"{_NS}info/{_NS}link"):
        if link.get("rel") == "independent-parent":
            return (link.get("href") or "").strip()
    return None


def _style_id(root: ElementTree.Element) -> str:
    return (root.findtext(f"{_NS}info/{_NS}id") or "").strip()


def _id_tail(style_id: str) -> str:
    """ "http://www.zotero.org/styles/nature" -> "nature" (Zotero's ids end in the file stem)."""
    return style_id.rstrip("/").rpartition("/")[2].casefold()


def _parents(folder: Path) -> dict[str, Path]:
    """Independent styles a dependent one may name: the built-in ones, then `folder`'s."""
    from index.citations.csl import CSL_DIR

    found: dict[str, Path] = {}
    for place in (CSL_DIR, folder):
        for path in sorted(place.glob("*.csl")) if place.is_dir() else []:
            try:
                root = _parse(path)
            except StyleFileError:
                continue
            if _parent_link(root) is None:
                found.setdefault(_id_tail(_style_id(root) or path.stem), path)
                found.setdefault(path.stem.casefold(), path)
    return found


def read_csl_style(
    path: Path, name: str | None = None, parents: dict[str, Path] | None = None
) -> CslStyle:
    """Reads and checks one `.csl` file; its name is the file stem unless `name` is given.

    Args:
        parents: independent styles by id tail, for a dependent style; by default the
            built-in styles and the files beside `path`.

    Raises:
        StyleFileError: unreadable, not XML, not CSL, no bibliography, or a dependent style
            whose parent is neither built in nor in the same folder.
    """
    root = _parse(path)
    title = (root.findtext(f"{_NS}info/{_NS}title") or "").strip() or path.stem
    link = _parent_link(root)
    engine_style = EngineStyle(path)
    if link is not None:
        known = parents if parents is not None else _parents(path.parent)
        parent = known.get(_id_tail(link))
        if parent is None:
            raise StyleFileError(
                path,
                f"a dependent CSL style whose parent ({link}) is not built in; put the parent "
                f"style's .csl file ({_id_tail(link)}.csl) in the same folder",
            )
        engine_style = EngineStyle(parent, root.get("default-locale"))
        root = _parse(parent)
    if root.find(f"{_NS}bibliography") is None:
        raise StyleFileError(
            path, "this CSL style has no <bibliography>, which is what paperscope prints"
        )
    return CslStyle(name or path.stem, path, title, engine_style)


def read_style_folder(
    folder: Path, reserved: frozenset[str] = frozenset()
) -> tuple[list[CslStyle], list[str]]:
    """Every usable `.csl` file in `folder`, by name, and one warning per file that is not.

    Args:
        folder: the user's styles folder; a missing folder is simply no styles.
        reserved: built-in style names; a file named like one (in any case) is skipped,
            and said, so `apa` always means the same style in every document and machine.
    """
    if not folder.is_dir():
        return [], []
    styles: list[CslStyle] = []
    warnings: list[str] = []
    folded_reserved = {name.casefold() for name in reserved}
    parents = _parents(folder)
    seen: set[str] = set()
    for path in sorted(folder.glob("*.csl")):
        folded = path.stem.casefold()
        if folded in folded_reserved:
            warnings.append(
                f"{path}: named like the built-in style {folded!r}; rename the file to use it"
            )
            continue
        if folded in seen:
            warnings.append(f"{path}: another style file has the same name in another case")
            continue
        try:
            styles.append(read_csl_style(path, parents=parents))
            seen.add(folded)
        except StyleFileError as error:
            warnings.append(str(error))
    return styles, warnings
