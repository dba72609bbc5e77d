"""The torture module's app tests read notifications, draw frames and cursors as the TUI tests do."""

from tests.tui.conftest import _headless_frames, defer_headless_frames, notice_log, steady_cursor

__all__ = ["_headless_frames", "defer_headless_frames", "notice_log", "steady_cursor"]
