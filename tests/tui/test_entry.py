"""The `paperscope` entry point: start-up without the cyclic collector, collection after."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from types import SimpleNamespace

import pytest

import tui.cli
import tui.cli.cite_cmds
import tui.cli.context
from tui import entry, startup


@pytest.fixture(autouse=True)
def restore_gc() -> Iterator[None]:
    """The collector back on. What start-up froze stays frozen, as the suite freezes what
    outlives every test (tests/conftest.py): unfreezing the worker's whole heap made the
    next collection walk all of it (~0.4 s of CPU a test)."""
    yield
    gc.enable()


def test_a_command_runs_with_the_collector_back_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}
    real_parser = tui.cli.build_parser

    def probed_parser(command: str | None = None, *, commands: bool = True):
        seen["while starting"] = gc.isenabled()
        return real_parser(command, commands=commands)

    def styles(context: object, args: object) -> int:
        seen["while running"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()
        return 0

    monkeypatch.setattr(tui.cli, "build_parser", probed_parser)
    monkeypatch.setattr(tui.cli.cite_cmds, "styles_command", styles)
    before = gc.get_freeze_count()
    assert entry.main(["styles"]) == 0
    assert seen["while starting"] is False
    assert seen["while running"] is True
    assert isinstance(seen["frozen"], int) and seen["frozen"] > before  # start-up froze
    assert gc.isenabled()


def test_the_app_starts_with_the_collector_back_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, bool] = {}

    class FakeApp:
        return_code = 0
        load_error = None  # what the app's own load would say after it
        loaded_library = None
        load_corpus = False  # the app reads no files itself
        handed_off = False  # nor hands a start to another process
        config = SimpleNamespace(fulltext=False)  # nor reads attached PDFs

        def run(self, loop: object = None) -> None:
            seen["while running"] = gc.isenabled()

    monkeypatch.setattr(tui.cli.context.CliContext, "library", None)
    monkeypatch.setattr("tui.app.make_app", lambda *args, **kwargs: FakeApp())
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert entry.main([]) == 0
    assert seen == {"while running": True}


def test_the_collector_is_back_on_when_a_command_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(argv: Sequence[str] | None = None) -> int:
        assert not gc.isenabled()
        raise RuntimeError("boom")

    monkeypatch.setattr(tui.cli, "main", broken)
    with pytest.raises(RuntimeError):
        entry.main([])
    assert gc.isenabled()


def test_a_caller_that_turned_the_collector_off_keeps_it_off() -> None:
    gc.disable()
    startup.resume_collector()
    assert not gc.isenabled()
