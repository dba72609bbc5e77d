"""The torture module's app tests read notifications as the TUI tests do."""

from tests.tui.conftest import notice_log

__all__ = ["notice_log"]
