"""The paperscope Textual app: wiring between the engine, the screens and the user's files.

The app holds what outlives a screen (engine, config, marks, history) and the actions
that need it; searching and browsing live in `screens/`, drawing in `widgets/`, paper
lookups and citations in `services/papers.py`, style and theme choices in
`settings_actions.py`, reading the library in `first_start.py` (a first start) and
`library_host.py` (a changed file), opening the index in `index_host.py`, copying in
`copy_host.py`. Screens see the app only as a `tui.host.Host`, and learn about the index
by messages (`IndexProgress`, `IndexPreview`, `IndexReady`, `IndexFailed`) posted to the
main screen. Build it with `make_app`, which takes every
path from `AppSettings` so tests stay in tmp folders.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.widget import AwaitMount

from index.atomic import clean_stale_temps
from index.citations import resolve_style
from index.facets.taxonomy import Taxonomy, load_taxonomy
from index.models import Library, LoadWarning
from index.store.leaving import LeaveBuilds
from index.text_safety import for_terminal
from tui.commands import PaperscopeCommands, binding_rows, binding_table
from tui.copy_host import CopyHost
from tui.first_start import FirstStart
from tui.fulltext_host import FulltextHost
from tui.index_host import IndexHost
from tui.library_host import LibraryHost
from tui.screens.main import MainScreen
from tui.screens.too_small import follow_size
from tui.services.config import DEFAULT_STYLE, AppSettings, load_config
from tui.services.keymap import check_keymap
from tui.services.load_warnings import count_line
from tui.services.papers import PaperData
from tui.services.styles import load_style_book, not_yet_reported
from tui.services.user_data import Marks, QueryHistory
from tui.settings_actions import SettingsActions

if TYPE_CHECKING:
    from index.library.parallel import LoadPool
    from index.search.engine import SearchEngine

__all__ = ["FINISHING_INDEX", "INDEX_FINISHED_ALONE", "PaperscopeApp", "make_app"]

# Said on the terminal when the user quits during a first build, which goes on: in this
# process when it has no library files to hand over (an app given its papers)...
FINISHING_INDEX = (
    "paperscope: finishing the search index so the next start is quick (ctrl+c stops it)…"
)
# ...or in a process of its own, which the terminal does not wait for (tui.first_start).
INDEX_FINISHED_ALONE = (
    "paperscope: the search index is being finished in the background; the next start uses it"
)


class PaperscopeApp(
    FirstStart, LibraryHost, FulltextHost, IndexHost, CopyHost, SettingsActions, App[str]
):
    """Browse, filter and cite papers from the keyboard (or the mouse).

    Its return value is the picked citation in `paperscope pick` (see `tui/pick_mode.py`).
    """

    CSS_PATH = "app.tcss"
    TITLE = "paperscope"
    COMMANDS = App.COMMANDS | {PaperscopeCommands}
    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit", tooltip="Leave paperscope"),
        # F1 first: it also works while typing in the search bar (where "?" is text), so the
        # footer always shows a help key that works.
        Binding(
            "f1,question_mark", "help", "Help", id="help", tooltip="Every key and the query syntax"
        ),
        Binding("s", "pick_style", "Style", id="pick_style", tooltip="Pick the citation style"),
    ]

    def __init__(
        self,
        settings: AppSettings,
        taxonomy: Taxonomy,
        *,
        library: Library | None = None,
        engine: SearchEngine | None = None,
        show_timings: bool | None = None,
        corpus: Sequence[Path] | None = None,
        owns_engine: bool | None = None,
        outdated: Sequence[str] = (),
        load_corpus: bool = False,
        load_pool: LoadPool | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.taxonomy = taxonomy
        self.library = library
        self.engine: SearchEngine | None = engine
        # Closed at exit: one the app opened itself (not a test's shared engine).
        self._owns_engine = engine is None if owns_engine is None else owns_engine
        # True while `engine` is a sample's, served during a big library's first build.
        self.previewing = False
        # Clear while the index is opened or built: a build outlives the app when the user
        # quits during it (tui.cli.run_app waits for it, saying so).
        self.index_finished = threading.Event()
        self.index_finished.set()
        # Left when the user quits during a first build: a build process finishes it alone.
        self.leave_builds = LeaveBuilds()
        # A first start with no index: the app reads `corpus` itself (tui.first_start).
        self.init_first_start(load_corpus and library is None and engine is None, load_pool)
        self.config, self._warnings = load_config(settings.config_path)
        self.config_writable = not self._warnings
        self.style_book = load_style_book(
            settings.config_path, self.config
        )  # built-in and the user's
        # A broken style file is said once, not at every start (tui.services.styles).
        self._warnings += not_yet_reported(
            self.style_book.warnings, settings.cache_dir / "reported-style-warnings.json"
        )
        self.config = replace(
            self.config, key_style=self.style_book.key_style
        )  # checked by the book
        style = resolve_style(self.config.style) or self.config.style  # `APA` and `apa7` are apa
        if style not in self.style_book.names():
            self._warnings.append(
                f"{settings.config_path}: unknown style {self.config.style!r}; using {DEFAULT_STYLE}"
            )
            style = DEFAULT_STYLE
        self.config = replace(self.config, style=style)
        for folder in (settings.data_dir, settings.config_path.parent):
            clean_stale_temps(folder)  # what a write killed in an earlier session left
        # Timings and engine caps are for whoever tunes the engine: `debug = true` shows them.
        self.show_timings = self.config.debug if show_timings is None else show_timings
        self.marks = Marks(settings.data_dir / "marks.json")
        self.history = QueryHistory(settings.data_dir / "history.json")
        self._warnings += [w for w in (self.marks.warning, self.history.warning) if w]
        self.papers = PaperData(taxonomy, library, lambda: self.engine)
        # Tags, status, saved searches, notes; live reload of `corpus` (library_host).
        self._warnings += self.init_library_layer(corpus, outdated)
        self.last_export: Path | None = None  # the export dialog offers it again
        self.main_screen = MainScreen()

    @property
    def style(self) -> str:
        """The current style as the formatter takes it (a user's `.csl` style carries its file)."""
        return self.style_book.resolve(self.config.style)

    @property
    def key_style(self) -> str:
        """The key format the yank-key action copies in: the last one picked (`latex:citep`)."""
        return self.style_book.resolve(self.config.key_style)

    @property
    def load_warnings(self) -> tuple[LoadWarning, ...]:
        """The library's load problems: as loaded, or as its index recorded them when the
        app serves a current index without loading the library (tui.cli.run_app); and a
        changed file's problems while its previous papers are kept (tui.library_host)."""
        if self.library is not None:
            return self.library.warnings + self.reload_problems + self.fulltext_problems
        opened = getattr(self.engine, "opened", None)
        return (
            tuple(getattr(opened, "warnings", ())) + self.reload_problems + self.fulltext_problems
        )

    def on_mount(self) -> None:
        if self.config.theme in self.available_themes:
            self.theme = self.config.theme
        else:
            self._warnings.append(
                f"{self.settings.config_path}: unknown theme {self.config.theme!r}"
            )
        keymap, problems = check_keymap(
            dict(self.config.keymap), binding_table(self._binding_classes())
        )
        self._warnings += [f"{self.settings.config_path}: {problem}" for problem in problems]
        self.set_keymap(keymap)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.push_screen(self.main_screen)
        follow_size(self, self.size)  # started in a terminal too small for it
        for warning in self._warnings:
            self.notify(warning, title="Settings", severity="warning", markup=False, timeout=10)
        self.notify_load_problems()
        if self.engine is None:
            self.build_index()
        else:
            self._library_ready()

    def on_resize(self, event: events.Resize) -> None:
        """Below a usable size, one line says so instead of the layout (tui.screens.too_small)."""
        follow_size(self, event.size)

    def notify_load_problems(self) -> None:
        """Say how many problems the library's files have, and where they are listed."""
        if self.load_warnings:
            self.notify(
                f'{count_line(len(self.load_warnings))}: ctrl+p, "Load problems" lists them',
                title="Library",
                severity="warning",
                markup=False,
                timeout=8,
            )

    def _library_ready(self) -> None:
        """The engine is open: apply the user's layer, count saved searches, watch sources,
        read the attached PDFs (tui.fulltext_host)."""
        self.apply_user_layer()
        self.start_watching()
        self.start_fulltext()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification, literally: never markup, never a control or bidi character.

        Messages quote the user's files (names, URLs, reasons) and their text: a URL with
        `[/bold]` would raise `MarkupError`, `[@click=app.quit]` would become an action.
        """
        super().notify(
            for_terminal(str(message)),
            title=for_terminal(title, one_line=True),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def exit(
        self, result: Any = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Exit; during a first build, say after the app is gone that it goes on.

        A large library's index is built in a process of its own: once it has every
        paper it is left to finish and publish alone (`LeaveBuilds`); a start still
        reading its files, feeding that process, or indexing a small library here, is
        handed to a process of its own (`leave_first_start`). Either way the terminal is
        the user's at once. An app given its papers rather than files finishes here
        first, saying so.
        """
        if message is None and not self.index_finished.is_set():
            alone = self.leave_first_start()
            message = Text(INDEX_FINISHED_ALONE if alone else FINISHING_INDEX)
        super().exit(result, return_code, message)

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """Push a screen, unless the app is quitting.

        `q` then `s` (or `e`) read in one go by the terminal: the dialog would be mounted
        into a closing app, where its `on_mount` finds none of its widgets (`NoMatches`).
        """
        if self._exit:
            return AwaitMount(self.screen, [])
        return super().push_screen(screen, *args, **kwargs)

    def on_unmount(self) -> None:
        self.library_loaded.set()  # a copy still waiting for the library ends with the app
        self.release_load()  # a load held at a hand-off ends, unless the process does first
        self.close_retired()
        if self._owns_engine and self.engine is not None:
            self.engine.close()

    # -- app-wide actions -------------------------------------------------------------

    def _binding_classes(self) -> dict[str, tuple[type, ...]]:
        """Where each binding lives, by context, for the help screen and the keymap check."""
        from tui.screens.detail import DetailScreen
        from tui.widgets.detail_pane import DetailPane
        from tui.widgets.facet_panel import FacetPanel
        from tui.widgets.results_list import ResultsList
        from tui.widgets.search_bar import SearchBar

        return {
            "Everywhere": (type(self),),
            "Main screen": (MainScreen,),
            "Results": (ResultsList,),
            "Search bar": (SearchBar,),
            "Filters": (FacetPanel,),
            "Reading a paper": (DetailPane, DetailScreen),
        }

    def action_show_load_warnings(self) -> None:
        """List every problem found while loading the library, in a scrollable dialog."""
        from tui.screens.warnings_dialog import LoadWarningsDialog

        self.push_screen(LoadWarningsDialog([str(warning) for warning in self.load_warnings]))

    def action_clear_marks(self) -> None:
        """Unmark every paper."""
        self.marks.clear()
        self.main_screen.refresh_marks()
        self.notify("Marks cleared")

    def action_help(self) -> None:
        """Show every key (as remapped) by context, the query syntax and the facet ids."""
        from tui.screens.dialogs import HelpScreen

        app: App[Any] = self  # binding_rows takes App[object], and App[None] is not one (invariant)
        groups = [
            (context, binding_rows(app, classes))
            for context, classes in self._binding_classes().items()
        ]
        self.push_screen(HelpScreen(groups, self.taxonomy))

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Save an SVG of the screen in the data folder (created if need be), and say where."""
        folder = Path(path).expanduser() if path else self.settings.data_dir / "screenshots"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, str(folder))
        except OSError as error:
            where = error.filename or folder
            self.notify(
                f"Could not save the screenshot in {where}: {error.strerror or error}",
                title="Screenshot",
                severity="error",
                markup=False,
            )
            return
        self.notify(f"Screenshot saved to {saved}", title="Screenshot", markup=False)

    def get_key_display(self, binding: Binding) -> str:
        """Function keys as printed on the keyboard ("F1", not "f1")."""
        if binding.key_display is None and re.fullmatch(r"f\d{1,2}", binding.key):
            return binding.key.upper()
        return super().get_key_display(binding)

    def key_for(self, binding_id: str) -> str:
        """The key the user has for a binding (after their keymap), for hints on screen."""
        keys = dict(self._keymap).get(binding_id)
        if keys is None:
            keys = next(
                (
                    b.key
                    for classes in self._binding_classes().values()
                    for cls in classes
                    for b in getattr(cls, "BINDINGS", [])
                    if isinstance(b, Binding) and b.id == binding_id
                ),
                "",
            )
        key = keys.split(",")[0].strip()
        shown = self.get_key_display(Binding(key, "")) if key else ""
        return (
            key if shown.startswith("^") else shown
        )  # "ctrl+y" reads better than "^y" in a sentence


def make_app(
    settings: AppSettings | None = None,
    *,
    engine: SearchEngine | None = None,
    library: Library | None = None,
    taxonomy: Taxonomy | None = None,
    show_timings: bool | None = None,
    corpus: Sequence[Path] | None = None,
    owns_engine: bool = False,
    outdated: Sequence[str] = (),
    load_corpus: bool = False,
    load_pool: LoadPool | None = None,
) -> PaperscopeApp:
    """Build the app; tests pass tmp-folder settings and a prebuilt engine or a library.

    Args:
        settings: where config, data and the index live (default: the user's folders).
        engine: an open engine to use (not closed by the app unless `owns_engine`); built
            from `library` if None. With an engine and no library, the papers are the
            engine's stored ones (a current index opened without its library).
        library: papers to index when no engine is given (default: the bundled corpus).
        taxonomy: the facet vocabulary (default: the engine's, else the bundled one).
        show_timings: show "3 ms" in the status line (default: the config's `debug`).
        corpus: the inputs `library` was loaded from; they are watched and reloaded live.
        outdated: files of `corpus` changed since `engine`'s index was built (served as it
            was meanwhile); they are read again at once (tui.library_host).
        load_corpus: with neither engine nor library, the app reads `corpus` (None: the
            bundled corpus) itself once it shows, instead of before.
        load_pool: that load's worker interpreters, started ahead
            (`tui.services.processes.start_load_workers`).
    """
    settings = settings or AppSettings.from_environment()
    if taxonomy is None:
        taxonomy = engine.taxonomy if engine is not None else load_taxonomy()
    if engine is None and library is None and not load_corpus:
        from index.library.load import load_library

        library = load_library(None, taxonomy)
    return PaperscopeApp(
        settings,
        taxonomy,
        library=library,
        engine=engine,
        show_timings=show_timings,
        corpus=corpus,
        owns_engine=owns_engine or engine is None,
        outdated=outdated,
        load_corpus=load_corpus,
        load_pool=load_pool,
    )
