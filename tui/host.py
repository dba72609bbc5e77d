"""What screens may ask of the app: a small typed protocol instead of the concrete class.

Screens and the settings mixin used to cast `self.app` to `PaperscopeApp`, which made
`tui/app.py` and every screen import each other. They now see the app as a `Host`: the
shared state (engine, marks, history, papers, settings) and the few services the app
offers (copying, worker errors, the keys the user has). `LibraryHostView` is what the
main screen's library keys (tui/screens/library_actions.py) ask of the app's living-library
half (tui/library_host.py). `PaperscopeApp` satisfies both structurally (tests/tui/test_host.py
has mypy check it); nothing here imports the app, a screen or a widget.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from index.facets.taxonomy import Taxonomy
from index.models import Paper
from tui.services.annotations import Annotations
from tui.services.config import AppSettings, Config
from tui.services.papers import PaperData
from tui.services.saved_searches import SavedSearches
from tui.services.styles import StyleBook
from tui.services.user_data import Marks, QueryHistory

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen, ScreenResultCallbackType
    from textual.widget import AwaitMount
    from textual.worker import Worker

    from index.search.engine import SearchEngine

__all__ = ["Host", "LibraryHostView", "Notices"]

_Result = TypeVar("_Result")
_Params = ParamSpec("_Params")


class Notices(Protocol):
    """Textual's `App.notify`, which every view of the app may call."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


class Host(Notices, Protocol):
    """The app as the screens know it."""

    settings: AppSettings
    taxonomy: Taxonomy
    marks: Marks
    history: QueryHistory
    papers: PaperData
    config: Config
    config_writable: bool  # False when the user's config file has errors (never overwritten)
    last_export: Path | None  # the export dialog offers it again
    show_timings: bool  # search timings and engine caps in the status line (debug)
    style_book: StyleBook  # the built-in styles and the user's own .csl files
    # Set once the papers served are the loaded library's; clear while a first start's
    # early sample serves (tui/first_start.py): a mark may name a paper it does not hold.
    library_loaded: threading.Event

    @property
    def engine(self) -> SearchEngine | None: ...

    @property
    def style(self) -> str: ...

    @property
    def key_style(self) -> str: ...  # the key format `y` copies in

    @property
    def screen(self) -> Screen[Any]: ...

    def copy_papers(
        self, papers: list[Paper], description: str, style: str | None = None
    ) -> Any: ...

    def copy_text_to_clipboard(self, text: str, description: str) -> Any: ...

    def report_worker_state(self, worker: Worker[Any]) -> None: ...

    def key_for(self, binding_id: str) -> str: ...

    # The Textual `App` methods screens call through the host (and `notify`, from `Notices`).
    def push_screen(self, screen: Any, callback: Callable[[Any], Any] | None = None) -> Any: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...

    def open_url(self, url: str, *, new_tab: bool = True) -> None: ...


class LibraryHostView(Notices, Protocol):
    """The app as the library keys know it: exactly what `LibraryActions` uses."""

    @property
    def engine(self) -> SearchEngine | None: ...

    @property
    def taxonomy(self) -> Taxonomy: ...

    @property
    def papers(self) -> PaperData: ...

    @property
    def marks(self) -> Marks: ...

    @property
    def annotations(self) -> Annotations: ...  # the user's tags and reading statuses

    @property
    def saved_searches(self) -> SavedSearches: ...

    @property
    def notes_dir(self) -> Path: ...

    @property
    def config(self) -> Config: ...  # `pdf_viewer`: what `O` opens a PDF with

    def apply_user_layer(self) -> Worker[None]: ...  # a worker: the engine gets the layer

    def report_save(self, store: Annotations | SavedSearches, done: bool) -> None: ...

    def copy_text_to_clipboard(self, text: str, description: str) -> object: ...

    # The Textual `App` methods the actions call (and `notify`, from `Notices`).
    def push_screen(
        self,
        screen: Screen[_Result],
        callback: ScreenResultCallbackType[_Result] | None = None,
    ) -> AwaitMount: ...

    def call_from_thread(
        self,
        callback: Callable[_Params, _Result],
        *args: _Params.args,
        **kwargs: _Params.kwargs,
    ) -> _Result: ...

    def suspend(self) -> AbstractContextManager[None]: ...  # the terminal, for an editor
