"""The torture module's app tests read notifications, draw frames and cursors as the TUI tests do."""

from tests.tui.conftest import (
    _headless_frames,
    _quick_idle,
    defer_headless_frames,
    hanging_clipboard,
    notice_log,
    quick_idle,
    steady_cursor,
)

__all__ = [
    "_headless_frames",
    "_quick_idle",
    "defer_headless_frames",
    "hanging_clipboard",
    "notice_log",
    "quick_idle",
    "steady_cursor",
]
