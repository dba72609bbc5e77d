"""The app satisfies the protocols its screens see it through.

The screens cast `self.app` to `tui.host.Host` or `LibraryHostView` (naming the app there
would be an import cycle), and a cast checks nothing. These functions make mypy (run by
tests/test_types.py) check that `PaperscopeApp` has every member with a matching type;
the tests make sure they stay collected and importable.
"""

from __future__ import annotations

from tui.app import PaperscopeApp
from tui.host import Host, LibraryHostView


def as_host(app: PaperscopeApp) -> Host:
    return app


def as_library_host(app: PaperscopeApp) -> LibraryHostView:
    return app


def test_the_app_is_seen_through_the_protocols() -> None:
    assert as_host.__annotations__["return"] == "Host"
    assert as_library_host.__annotations__["return"] == "LibraryHostView"
