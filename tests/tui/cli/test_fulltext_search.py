"""`paperscope search` finds words inside attached PDFs, with the page, in JSON and text."""

from __future__ import annotations

import json
from pathlib import Path

from index import load_library, load_taxonomy
from index.fulltext import sync_fulltext
from index.fulltext.pool import ExtractionPool, Job
from tests.index.fulltext.pdfs import paper_pdf
from tests.tui.cli.commands import run_paperscope
from tests.tui.cli.conftest import user_env

BIB = """@inproceedings{kwon23,
  title = {Efficient Memory Management for Serving},
  author = {Kwon, Woosuk},
  year = {2023},
  file = {:pdfs/paper.pdf:PDF}
}
@article{other,
  title = {Quokka biology},
  author = {Smith, Ann},
  year = {2020}
}
"""


def test_search_json_shows_the_page_a_pdf_matched_on(tmp_path: Path) -> None:
    (tmp_path / "pdfs").mkdir()
    pdf = paper_pdf(tmp_path / "pdfs")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    env = user_env(tmp_path)
    corpus = ("--corpus", str(bib))
    built = run_paperscope((*corpus, "index"), env=env, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    # What the app does in the background: read the PDFs, then sync the page index.
    cache = Path(env["PAPERSCOPE_CACHE_DIR"])
    for _ in ExtractionPool(cache, workers=0).read([Job(str(pdf))]):
        pass
    library = load_library([bib], load_taxonomy())
    assert sync_fulltext(cache, library.papers).pages == 2

    done = run_paperscope((*corpus, "search", "--json", "quokkas"), env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["id"] for row in rows] == ["other", "kwon23"]
    assert "page_match" not in rows[0]
    found = rows[1]["page_match"]
    assert found["page"] == 1 and found["path"] == str(pdf)
    assert "marker sentence about quokkas" in found["snippet"]

    done = run_paperscope((*corpus, "search", 'fulltext:"kv cache"'), env=env, cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0].split()[1] == "kwon23"
    assert lines[-1].strip().startswith("p. 1: Efficient finite-state fixtures The *KV* *cache*")
