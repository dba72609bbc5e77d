"""The rules of the house, checked by the tools that hold them.

- import-linter's contracts (`[tool.importlinter]` in pyproject.toml): `index` is headless,
  its layers (store, search, schema, whoosh_ext) only look down, library/facets/citations
  never reach into search or the store, tui's services and presenters have no widgets;
- no import cycles at all, counting imports deferred into functions and those made only
  for type checking;
- ruff's lint rules and formatting (`[tool.ruff]`).

Running `lint-imports`, `ruff check .` or `ruff format --check .` by hand checks the same.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_import_contracts_are_kept() -> None:
    done = _run(str(BIN / "lint-imports"), "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_imports_itself_through_others() -> None:
    graph = grimp.build_graph(
        "index", "tui", include_external_packages=False, exclude_type_checking_imports=False
    )
    cycles = set()
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported == module or imported.startswith(module + "."):
                continue  # a package's __init__ importing its own submodule is no cycle
            chain = graph.find_shortest_chain(importer=imported, imported=module)
            if chain:
                cycles.add(" -> ".join((module, *chain)))
    assert sorted(cycles) == []


def test_ruff_finds_nothing() -> None:
    done = _run(str(BIN / "ruff"), "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    done = _run(str(BIN / "ruff"), "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
