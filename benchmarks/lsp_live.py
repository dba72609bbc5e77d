"""How soon `paperscope lsp` offers an edited `.bib` entry, and completion meanwhile.

Issue 48: "completion reflects an edited .bib within about two seconds", and completion
never blocks on a rebuild. This writes a synthetic library as one BibTeX file
(`synth.generate_papers`, with abstracts up to 20,000 papers, as Better BibTeX
exports a library; 100,000 with abstracts would pass the loader's 50 MB file limit), builds its
index (`paperscope index`), starts the server on it (`paperscope --corpus FILE lsp`, a
subprocess on stdio) and then, while a completion of a fixed query is asked every 50 ms:

1. a quiet spell (`--quiet-s`): the baseline, completion with nothing being read again;
2. one entry in the middle of the file retitled with a word no paper has, written as an
   editor saves (a new file renamed over the old one);
3. until the retitled entry is offered for that word ("offered after"), and until its item
   no longer says the index is being updated ("index updated after").

Every completion answer from the edit until the index is updated is "during the reload";
its p95 against the quiet spell's is the ratio printed. Each run retitles another entry
with another word, so `--work-dir` can keep the library and index between runs.

    python benchmarks/lsp_live.py [--papers 10000 100000] [--quiet-s 5] [--timeout-s 600]
        [--work-dir DIR] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script from anywhere, or imported by the tests
    sys.path.insert(0, str(HERE))

import lsp_completion  # noqa: E402
import measure  # noqa: E402
import synth  # noqa: E402

PROBE_S = 0.05  # seconds between completions asked while waiting
QUERY = "memory"
ABSTRACTS_UP_TO = 20_000  # papers; a bigger library is written without abstracts  # what the steady completions ask (a common title word)
_TITLE = re.compile(rb"\n  title\s*= \{")


def write_bib(papers: int, path: Path) -> None:
    """The library as one BibTeX file, keys included, abstracts up to `ABSTRACTS_UP_TO`
    papers (100,000 with abstracts would be 210 MB, over the loader's 50 MB limit)."""
    from index.citations import citation_keys
    from index.citations.export import export_text
    from index.models import replace

    generated = synth.generate_papers(papers, seed=48)
    if papers > ABSTRACTS_UP_TO:
        generated = [replace(paper, abstract="") for paper in generated]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(export_text(generated, "bibtex", citation_keys(generated)), encoding="utf-8")


def retitle(path: Path, word: str, run: int) -> str:
    """One entry near the middle of the file given `word` in its title, saved as editors
    save (written beside, renamed over); returns the entry's key."""
    data = path.read_bytes()
    titles = [m.end() for m in _TITLE.finditer(data)]
    at = titles[(len(titles) // 2 + 97 * run) % len(titles)]
    start = data.rfind(b"\n@", 0, at) + 1
    key = data[data.index(b"{", start) + 1 : data.index(b",", start)].decode()
    edited = data[:at] + word.encode() + b" " + data[at:]
    spare = path.with_suffix(".bib.new")
    spare.write_bytes(edited)
    os.replace(spare, path)
    return key


async def live(library: Path, work: Path, quiet_s: float, timeout_s: float) -> dict[str, Any]:
    """The server started on `library`, a quiet spell, the edit, and what followed."""
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("paperscope-live-bench", "1")
    env = lsp_completion.environment(work)
    await client.start_io(sys.executable, "-m", "tui", "--corpus", str(library), "lsp", env=env)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri = (work / "paper.tex").as_uri()
    version = 1
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "latex", version, ""))
    )

    async def complete(query: str) -> tuple[float, list[lsp.CompletionItem]]:
        nonlocal version
        text = "\\cite{" + query
        version += 1
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [lsp.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        began = time.perf_counter()
        found = await client.text_document_completion_async(
            lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, len(text)))
        )
        elapsed = (time.perf_counter() - began) * 1000
        return elapsed, list(found.items) if isinstance(found, lsp.CompletionList) else []

    while not (await complete(QUERY))[1]:  # the library is opened in the server's thread
        await asyncio.sleep(PROBE_S)
    quiet: list[float] = []
    until = time.perf_counter() + quiet_s
    while time.perf_counter() < until:
        quiet.append((await complete(QUERY))[0])
        await asyncio.sleep(PROBE_S)
    run = int(time.time()) % 100_000
    word = f"qzlive{run}"
    key = await asyncio.to_thread(retitle, library, word, run)
    edited = time.perf_counter()
    during: list[float] = []
    offered = updated = None
    notes: set[str] = set()
    while time.perf_counter() - edited < timeout_s:
        elapsed, _ = await complete(QUERY)
        during.append(elapsed)
        _, items = await complete(word)
        mine = [item for item in items if item.label == key]
        if mine and offered is None:
            offered = time.perf_counter() - edited
        if mine:
            detail = mine[0].detail or ""
            if "(" in detail and detail.endswith(")"):
                notes.add(detail[detail.rindex("(") + 1 : -1])
            elif updated is None:
                updated = time.perf_counter() - edited
                break
        await asyncio.sleep(PROBE_S)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {
        "key": key,
        "offered_after_s": round(offered, 2) if offered is not None else None,
        "index_updated_after_s": round(updated, 2) if updated is not None else None,
        "quiet": measure.summary(quiet),
        "during_reload": measure.summary(during),
        "notes": sorted(notes),
    }


def index_is_current(library: Path, work: Path) -> bool:
    """Whether a former run's index is current (`paperscope index` would read the whole
    library back to find out: minutes at 100,000 papers)."""
    from index import open_current_engine
    from index.facets.taxonomy import load_taxonomy

    engine = open_current_engine([library], load_taxonomy(), work / "cache")
    if engine is None:
        return False
    engine.close()
    return True


def run_size(papers: int, work: Path, quiet_s: float, timeout_s: float) -> dict[str, Any]:
    library = work / "library.bib"
    if not library.is_file():  # a library a former run left (`--work-dir`) is reused
        write_bib(papers, library)
    build_s = 0.0 if index_is_current(library, work) else lsp_completion.build_index(library, work)
    result = asyncio.run(live(library, work, quiet_s, timeout_s))
    quiet, during = result["quiet"], result["during_reload"]
    ratio = round(during["p95_ms"] / quiet["p95_ms"], 2) if quiet["p95_ms"] else None
    return {
        "papers": papers,
        "bib_mb": round(library.stat().st_size / 1e6, 1),
        "index_build_s": round(build_s, 1),
        **result,
        "p95_ratio": ratio,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--quiet-s", type=float, default=5.0, help="baseline seconds")
    parser.add_argument("--timeout-s", type=float, default=600.0, help="give up after")
    parser.add_argument("--work-dir", type=Path, help="keep the libraries and indexes here")
    parser.add_argument("--json", action="store_true", help="one JSON object per size")
    args = parser.parse_args(argv)
    base = args.work_dir or Path(tempfile.mkdtemp(prefix="lsp-live-"))
    try:
        for papers in args.papers:
            result = run_size(papers, base / f"bib{papers}", args.quiet_s, args.timeout_s)
            if args.json:
                print(json.dumps(result), flush=True)
                continue
            quiet, during = result["quiet"], result["during_reload"]
            print(
                f"{papers:>7} papers ({result['bib_mb']} MB .bib, index built in "
                f"{result['index_build_s']} s): edited entry {result['key']}\n"
                f"  offered after {result['offered_after_s']} s; index updated after "
                f"{result['index_updated_after_s']} s\n"
                f"  completion quiet   p50 {quiet['p50_ms']:7.2f}  p95 {quiet['p95_ms']:7.2f}"
                f"  max {quiet['max_ms']:7.2f} ms  (n={quiet['n']})\n"
                f"  during the reload  p50 {during['p50_ms']:7.2f}  p95 {during['p95_ms']:7.2f}"
                f"  max {during['max_ms']:7.2f} ms  (n={during['n']}); p95 ratio "
                f"{result['p95_ratio']}x\n"
                f"  said meanwhile: {'; '.join(result['notes']) or 'nothing'}",
                flush=True,
            )
    finally:
        if args.work_dir is None:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
