"""The `paperscope` command line: starts the app, or runs one command and exits.

Each command group lives in its own module with a `register(subparsers)` function; this
module only builds the parser, turns user errors into one-line messages with exit 2, and
starts the app when no command is given.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from index import __version__
from index.text_safety import for_terminal
from tui.cli.context import CliContext, UserError
from tui.startup import resume_collector

# Each command's module, in `--help` order. A command imports only its own module (a search
# on a current index must not pay ~0.1 s for the citation styles and the loaders); `--help`,
# no command or an unknown one import them all.
COMMANDS = {
    "list": "library_cmds",
    "show": "library_cmds",
    "search": "search_cmds",
    "facets": "search_cmds",
    "index": "search_cmds",
    "cite": "cite_cmds",
    "styles": "cite_cmds",
    "export": "export_cmd",
    "cited": "cited_cmds",
    "pick": "pick_cmd",
    "lsp": "lsp_cmd",
    "check": "check_cmds",
    "fulltext": "fulltext_cmd",
    "tag": "user_cmds",
    "status": "user_cmds",
    "saved": "user_cmds",
}
# The options before the command that take a value (`--corpus X`, `--taxonomy F`).
_VALUED = ("--corpus", "--taxonomy")


def command_in(argv: Sequence[str]) -> str | None:
    """The command `argv` runs (the first word that is not a global option), if any."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in _VALUED:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser(command: str | None = None, *, commands: bool = True) -> argparse.ArgumentParser:
    """The command line: every subcommand, or only `command`'s module's when it is known.

    `commands=False` registers none: the app's own start, which only reads the options
    before a command (importing and registering every command's module was ~70 ms of a
    warm start's ~0.5 s).
    """
    parser = _Parser(
        prog="paperscope",
        description="A keyboard-driven terminal browser for research-paper abstracts. "
        "With no command, starts the app.",
    )
    parser.add_argument("--version", action="version", version=f"paperscope {__version__}")
    parser.add_argument(
        "--corpus",
        action="append",
        type=Path,
        metavar="PATH",
        help="a file or folder of papers (plain-text abstracts, BibTeX, JSON, JSON Lines), "
        "or a Zotero data folder / zotero.sqlite; repeatable; replaces the bundled corpus",
    )
    parser.add_argument(
        "--zotero",
        action="store_true",
        help="add Zotero's own library from its data folder (~/Zotero, or the folder set in "
        "Zotero's preferences); works while Zotero is running",
    )
    parser.add_argument(
        "--taxonomy",
        type=Path,
        metavar="FILE",
        help="a taxonomy TOML file that extends or overrides the bundled facet vocabulary",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if not commands:
        wanted = []
    elif command in COMMANDS:
        wanted = [COMMANDS[command]]
    else:
        wanted = list(dict.fromkeys(COMMANDS.values()))
    for name in wanted:
        importlib.import_module(f"tui.cli.{name}").register(subparsers)
    # `paperscope list --corpus X` works too: every command also takes the two options after
    # its name (SUPPRESS: not given there, the values given before the command stay).
    for sub in subparsers.choices.values():
        sub.add_argument(
            "--corpus",
            action="append",
            type=Path,
            metavar="PATH",
            default=argparse.SUPPRESS,
            help="as before the command",
        )
        sub.add_argument(
            "--taxonomy",
            type=Path,
            metavar="FILE",
            default=argparse.SUPPRESS,
            help="as before the command",
        )
    return parser


def _corpus(args: argparse.Namespace) -> list[Path] | None:
    """The inputs `--corpus` names, plus Zotero's data folder for `--zotero`.

    Raises:
        UserError: `--zotero` and no Zotero data folder where Zotero keeps it.
    """
    corpus = list(args.corpus or [])
    if args.zotero:
        from index.library.loaders.zotero_prefs import data_dir_candidates, default_data_dir

        found = default_data_dir(Path.home())
        if found is None:
            looked = ", ".join(str(p) for p in data_dir_candidates(Path.home()))
            raise UserError(
                f"no Zotero library found (looked for zotero.sqlite in {looked}); "
                "name its folder with --corpus"
            )
        corpus.append(found)
    return corpus or None


def _asks_for_help(words: Sequence[str]) -> bool:
    """Whether `-h`, `--help` or an abbreviation of it is among the words (it lists every
    command, so every command's module is needed)."""
    return any(word == "-h" or (len(word) > 2 and "--help".startswith(word)) for word in words)


def main(argv: Sequence[str] | None = None) -> int:
    """Run paperscope; returns the exit code (0 success, 2 user error)."""
    words = list(sys.argv[1:] if argv is None else argv)
    command = command_in(words)
    parser = build_parser(command, commands=command is not None or _asks_for_help(words))
    args = parser.parse_args(words)
    try:
        context = CliContext(corpus=_corpus(args), taxonomy=args.taxonomy)
        if args.command is None:
            from tui.cli.run_app import run_app

            return run_app(context)
        resume_collector()
        return int(args.func(context, args))
    except UserError as error:
        print(f"paperscope: {for_terminal(str(error), one_line=True)}", file=sys.stderr)
        return 2
    except ValueError as error:
        # pandoc missing or broken: one line, not a traceback. Only a command that formats
        # citations has loaded the engine, so its module is looked up, not imported.
        engine = sys.modules.get("index.citations.engine.process")
        if engine is None or not isinstance(error, engine.EngineUnavailable):
            raise
        print(f"paperscope: {for_terminal(str(error), one_line=True)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
