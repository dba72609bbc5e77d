"""The torture module's app tests read notifications and draw cursors as the TUI tests do."""

from tests.tui.conftest import notice_log, steady_cursor

__all__ = ["notice_log", "steady_cursor"]
