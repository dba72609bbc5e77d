"""The CSL processor test suite's bibliography fixtures through paperscope, pandoc and citeproc-py.

Run by hand (never in CI), with a checkout of citation-style-language/test-suite:

    python benchmarks/csl_suite.py PATH/TO/test-suite [--show-failures] [--only NAME]

For every fixture in `processor-tests/humans/*.txt` whose MODE is `bibliography`:

* **paperscope**: the fixture's INPUT written as a CSL-JSON file, read by paperscope's own
  loader (`index.library.loaders.json_files.load_json`, what a user's `.json` file goes
  through; not the whole `load_library`, whose duplicate merging would join the suite's
  deliberately alike items), each paper given to the engine as the citation path does
  (`index.citations.csl.engine_reference`) and rendered by paperscope's engine with the fixture's CSL as a user style;
* **pandoc**: the INPUT items as they are, through the same engine (pandoc 3.9's citeproc);
* **citeproc-py**: when `citeproc` is importable in this venv (`pip install
  citeproc-py==0.11.1`), the same items through citeproc-py's HTML formatter.

Both sides are compared after the same canonicalisation: pandoc reads the HTML (expected
and rendered) and writes each entry's inlines as Markdown, so `<i>`/`<em>` or the two ways
of writing small caps are equal; a link is its text (pandoc links URLs and DOIs, the suite's
HTML does not); whitespace is collapsed. A fixture passes when every
entry is equal, in order. "lost to paperscope's reading" counts the fixtures pandoc passes
and paperscope fails; of those, "items dropped" are the ones where the loader kept fewer
items than the INPUT held.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import citeproc_py_baseline  # noqa: E402

from index.citations.csl import engine_reference  # noqa: E402
from index.citations.engine import EngineStyle, render_bibliography  # noqa: E402
from index.citations.engine.process import pandoc_binary  # noqa: E402
from index.library.loaders.json_files import load_json  # noqa: E402

_SECTION = re.compile(r">>=+ ([A-Z-]+) =+>>\n(.*?)\n<<=+ \1 =+<<", re.DOTALL)

# Reads HTML snippets a line at a time; answers each csl-entry's inlines as Markdown.
_CANONICAL_LUA = r"""
local function flat(blocks)
  local out = pandoc.Inlines{}
  for _, b in ipairs(blocks) do
    if #out > 0 then out:insert(pandoc.Space()) end
    if b.t == 'Div' then out:extend(flat(b.content))
    else out:extend(pandoc.utils.blocks_to_inlines({b})) end
  end
  return out
end
local function entries(blocks, acc)
  for _, b in ipairs(blocks) do
    if b.t == 'Div' and b.classes:includes('csl-entry') then
      table.insert(acc, pandoc.write(pandoc.Pandoc({pandoc.Plain(flat(b.content))}), 'markdown',
        {wrap_text = 'wrap-none'}))
    elseif b.t == 'Div' then entries(b.content, acc) end
  end
  return acc
end
for line in io.lines() do
  local html = pandoc.json.decode(line, false).html
  local ok, out = pcall(function()
    -- pandoc links URLs and DOIs; the suite's HTML does not: the link text is compared.
    local doc = pandoc.read(html, 'html'):walk{Link = function(link) return link.content end}
    return entries(doc.blocks, {})
  end)
  if not ok then out = {} end
  io.write(pandoc.json.encode({entries = out}), '\n'); io.stdout:flush()
end
"""


class Canonical:
    """One pandoc process turning HTML bibliographies into comparable entry lists."""

    def __init__(self, scratch: Path) -> None:
        script = scratch / "canonical.lua"
        script.write_text(_CANONICAL_LUA, encoding="utf-8")
        self._process = subprocess.Popen(
            [str(pandoc_binary()), "lua", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def entries(self, html: str) -> list[str]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({"html": html}) + "\n")
        self._process.stdin.flush()
        answer = json.loads(self._process.stdout.readline())
        return [" ".join(entry.split()) for entry in answer["entries"]]

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait()


def _sections(text: str) -> dict[str, str]:
    return dict(_SECTION.findall(text))


def _cited_ids(sections: dict[str, str], items: list[dict[str, Any]]) -> list[str]:
    """The items a bibliography holds: those cited, in citation order, else all of INPUT."""
    order: list[str] = []
    if "CITATION-ITEMS" in sections:
        for cluster in json.loads(sections["CITATION-ITEMS"]):
            order.extend(str(cite["id"]) for cite in cluster)
    elif "CITATIONS" in sections:
        for citation in json.loads(sections["CITATIONS"]):
            order.extend(str(cite["id"]) for cite in citation[0]["citationItems"])
    if not order:
        order = [str(item["id"]) for item in items]
    return list(dict.fromkeys(order))


def _as_html(entries: list[tuple[str, str]]) -> str:
    return "".join(f'<div class="csl-entry">{text}</div>' for _, text in entries)


def _paperscope(
    items: list[dict[str, Any]], ids: list[str], style: Path, scratch: Path
) -> tuple[str, int]:
    """The bibliography through paperscope's loader and mapping; and how many items it lost."""
    path = scratch / "input.json"
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    papers, _, _ = load_json(path.read_text(encoding="utf-8"), str(path))
    by_key = {(paper.citation_key or paper.id).casefold(): paper for paper in papers}
    wanted = [i for i in ids if i.casefold() in by_key]
    csl = [engine_reference(by_key[i.casefold()], i) for i in wanted]
    return _as_html(render_bibliography(csl, EngineStyle(style), "html")), len(ids) - len(wanted)


def _pandoc(items: list[dict[str, Any]], ids: list[str], style: Path) -> str:
    by_id = {str(item["id"]): item for item in items}
    cited = [by_id[i] for i in ids if i in by_id]
    return _as_html(render_bibliography(cited, EngineStyle(style), "html"))


def _citeproc_py() -> Callable[[list[dict[str, Any]], list[str], Path], str] | None:
    if not citeproc_py_baseline.available():
        return None

    def render(items: list[dict[str, Any]], ids: list[str], style: Path) -> str:
        entries = citeproc_py_baseline.bibliography(items, ids, style, html=True)
        return "".join(f'<div class="csl-entry">{entry}</div>' for entry in entries)

    return render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", type=Path, help="a checkout of citation-style-language/test-suite")
    parser.add_argument("--only", help="run the fixtures whose name contains this")
    parser.add_argument("--show-failures", action="store_true", help="list paperscope's failures")
    args = parser.parse_args(argv)
    folder = args.suite / "processor-tests" / "humans"
    fixtures = sorted(folder.glob("*.txt"))
    if not fixtures:
        parser.error(f"{folder}: no fixtures (is this a test-suite checkout?)")
    citeproc_py = _citeproc_py()
    scores = {"paperscope": 0, "pandoc": 0, "citeproc-py": 0}
    lost, dropped, total, failures = 0, 0, 0, []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as temp:
        scratch = Path(temp)
        canonical = Canonical(scratch)
        for fixture in fixtures:
            if args.only and args.only not in fixture.stem:
                continue
            sections = _sections(fixture.read_text(encoding="utf-8"))
            if sections.get("MODE", "").strip() != "bibliography":
                continue
            total += 1
            style = scratch / f"{fixture.stem}.csl"
            style.write_text(sections["CSL"], encoding="utf-8")
            items = json.loads(sections["INPUT"])
            ids = _cited_ids(sections, items)
            expected = canonical.entries(sections["RESULT"])
            passed: dict[str, bool] = {}
            missing = 0
            renderers: dict[str, Callable[[list[dict[str, Any]], list[str], Path], str]] = {
                "paperscope": lambda i, d, s: _paperscope(i, d, s, scratch)[0],
                "pandoc": _pandoc,
            }
            if citeproc_py is not None:
                renderers["citeproc-py"] = citeproc_py
            for name, render in renderers.items():
                try:
                    passed[name] = canonical.entries(render(items, ids, style)) == expected
                except Exception:  # an engine error; citeproc-py fails in many ways
                    passed[name] = False
                scores[name] += passed[name]
            if passed["pandoc"] and not passed["paperscope"]:
                lost += 1
                missing = _paperscope(items, ids, style, scratch)[1] if items else 0
                dropped += bool(missing)
            if not passed["paperscope"]:
                failures.append(f"{fixture.stem}{' (items dropped)' if missing else ''}")
        canonical.close()
    print(f"CSL test suite, bibliography fixtures: {total} ({time.perf_counter() - started:.0f} s)")
    for name, score in scores.items():
        if name == "citeproc-py" and citeproc_py is None:
            print(f"  {name:<12} not installed (pip install citeproc-py==0.11.1 to compare)")
        else:
            print(f"  {name:<12} {score:>4} / {total} pass")
    print(f"  lost to paperscope's reading (pandoc passes, paperscope fails): {lost}")
    print(f"    of which the loader dropped items: {dropped}")
    if args.show_failures:
        print("paperscope's failures:", *failures, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
