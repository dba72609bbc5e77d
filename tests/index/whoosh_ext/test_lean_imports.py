"""Whoosh imported without urllib.request and asyncio, with every behaviour kept.

Each check runs in a fresh interpreter: the test process has long imported both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("urllib.request", "asyncio", "ssl", "http.client", "email.parser")


def run_fresh(code: str, tmp_path: Path) -> Any:
    """What `code` printed as JSON on its last line, run by a fresh interpreter."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PAPERSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "PAPERSCOPE_DATA_DIR": str(tmp_path / "data"),
        "PAPERSCOPE_CONFIG": str(tmp_path / "config.toml"),
    }
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_search_through_the_whole_index_loads_neither(tmp_path: Path) -> None:
    loaded = run_fresh(
        f"""
        import json, sys
        from index.whoosh_ext.lean_imports import import_whoosh_lean
        import_whoosh_lean()
        from index import load_library, load_taxonomy, open_engine
        from index.models import SearchRequest
        taxonomy = load_taxonomy()
        engine = open_engine(load_library(None, taxonomy), taxonomy, {str(tmp_path / "ix")!r})
        result = engine.search(SearchRequest(query="memory"))
        assert result.total > 0 and result.hits
        print(json.dumps([name for name in {HEAVY!r} if name in sys.modules]))
        """,
        tmp_path,
    )
    assert loaded == []


def test_without_it_whoosh_loads_both(tmp_path: Path) -> None:
    """The check above can fail: plain `import whoosh.query` does load them."""
    loaded = run_fresh(
        f"""
        import json, sys
        import whoosh.query
        print(json.dumps([name for name in {HEAVY[:2]!r} if name in sys.modules]))
        """,
        tmp_path,
    )
    assert loaded == ["urllib.request", "asyncio"]


def test_the_command_line_search_loads_neither(tmp_path: Path) -> None:
    loaded = run_fresh(
        f"""
        import contextlib, io, json, sys
        from tui.entry import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["search", "memory", "--limit", "3"])
        assert code == 0 and "memory" in out.getvalue().lower(), out.getvalue()
        print(json.dumps([name for name in {HEAVY!r} if name in sys.modules]))
        """,
        tmp_path,
    )
    assert loaded == []


def test_what_whoosh_bound_still_works_when_used(tmp_path: Path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("fetched")
    seen = run_fresh(
        f"""
        import json, pathlib, sys
        from index.whoosh_ext.lean_imports import import_whoosh_lean
        import_whoosh_lean()
        import_whoosh_lean()  # twice: nothing more happens
        import whoosh.compat
        from cached_property import cached_property
        before = "urllib.request" in sys.modules or "asyncio" in sys.modules

        class Plain:
            @cached_property
            def value(self):
                return 41 + 1

        target = {str(tmp_path / "copy.txt")!r}
        whoosh.compat.urlretrieve(pathlib.Path({str(source)!r}).as_uri(), target)

        import asyncio  # the real module, not the stand-in

        class Later:
            @cached_property
            async def value(self):
                return "awaited"

        async def read():
            return await Later().value

        print(json.dumps({{
            "before": before,
            "plain": Plain().value,
            "copied": pathlib.Path(target).read_text(),
            "real asyncio": hasattr(asyncio, "run") and asyncio.__file__ is not None,
            "coroutine": asyncio.run(read()),
        }}))
        """,
        tmp_path,
    )
    assert seen == {
        "before": False,
        "plain": 42,
        "copied": "fetched",
        "real asyncio": True,
        "coroutine": "awaited",
    }


@pytest.mark.parametrize("first", ["urllib.request", "asyncio"])
def test_modules_imported_before_are_left_alone(first: str, tmp_path: Path) -> None:
    same = run_fresh(
        f"""
        import importlib, json, sys
        real = importlib.import_module({first!r})
        from index.whoosh_ext.lean_imports import import_whoosh_lean
        import_whoosh_lean()
        import whoosh.compat, cached_property
        print(json.dumps(sys.modules[{first!r}] is real))
        """,
        tmp_path,
    )
    assert same is True
