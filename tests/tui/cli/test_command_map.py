"""The command line imports only the module of the command it runs.

`tui.cli.COMMANDS` names each command's module without importing it; these tests hold
the table to what the modules register, and show that a search does not import the
citation styles or the file loaders (a search on a current index needs neither).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import subprocess
import sys

import pytest

from tui.cli import COMMANDS, build_parser, command_in


def _registered(module: str) -> set[str]:
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers(dest="command")
    importlib.import_module(f"tui.cli.{module}").register(subparsers)
    return set(subparsers.choices)


def _imported_in_a_fresh_interpreter(code: str, which: str) -> list[str]:
    """The modules `m` for which `which` holds, after `code` runs in a new interpreter."""
    script = f"import sys; {code}; print(sorted(m for m in sys.modules if {which}))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return list(ast.literal_eval(out.stdout.strip()))


def test_the_table_names_what_each_module_registers() -> None:
    for module in set(COMMANDS.values()):
        assert _registered(module) == {c for c, m in COMMANDS.items() if m == module}


def test_the_full_parser_has_every_command_in_the_table_order() -> None:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(action.choices) == list(COMMANDS)


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["search", "x"], "search"),
        (["--corpus", "search", "facets"], "facets"),  # a folder named "search"
        (["--taxonomy", "t.toml", "--zotero", "list"], "list"),
        (["--help"], None),
        ([], None),
        (["nonsense"], "nonsense"),
    ],
)
def test_the_command_is_the_first_word_that_is_no_global_option(
    argv: list[str], command: str | None
) -> None:
    assert command_in(argv) == command


def test_an_unknown_command_still_lists_them_all(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser(command_in(["nonsense"])).parse_args(["nonsense"])
    assert "choose from 'list', 'show', 'search'" in capsys.readouterr().err


def test_a_search_imports_neither_citations_nor_loaders() -> None:
    imported = _imported_in_a_fresh_interpreter(
        "from tui.cli import build_parser; build_parser('search'); import tui.cli.context",
        "m.startswith(('index.citations', 'index.library.loaders.bibtex', "
        "'index.library.load', 'tui.cli.cite'))",
    )
    assert imported == []


@pytest.mark.parametrize(
    ("argv", "commands"),
    [
        ([], False),  # the app's start
        (["--corpus", "refs.bib", "--zotero"], False),
        (["styles"], True),
        (["--help"], True),
        (["-h"], True),
        (["--he"], True),  # argparse takes an abbreviation of --help
        (["nonsense"], True),
    ],
)
def test_only_the_apps_start_registers_no_command(
    argv: list[str], commands: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.cli

    asked: list[bool] = []
    real = tui.cli.build_parser

    def recorded(command: str | None = None, *, commands: bool = True) -> argparse.ArgumentParser:
        asked.append(commands)
        return real(command, commands=commands)

    monkeypatch.setattr(tui.cli, "build_parser", recorded)
    monkeypatch.setattr("tui.cli.run_app.run_app", lambda context: 0)
    try:
        tui.cli.main(argv)
    except SystemExit:  # --help, and the unknown command's usage error
        pass
    assert asked == [commands]


def test_help_still_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    import tui.cli

    with pytest.raises(SystemExit):
        tui.cli.main(["--help"])
    out = capsys.readouterr().out
    assert all(command in out for command in COMMANDS)


def test_the_apps_start_imports_no_command_module() -> None:
    imported = _imported_in_a_fresh_interpreter(
        "from tui.cli import build_parser; "
        "build_parser(None, commands=False).parse_args(['--corpus', 'x'])",
        "m.startswith('tui.cli.') and m.endswith(('_cmds', '_cmd'))",
    )
    assert imported == []
