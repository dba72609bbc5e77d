"""The torture module's app tests read notifications, draw frames and cursors as the TUI tests do."""

from tests.tui.conftest import (
    _headless_frames,
    _quick_idle,
    _shared_css,
    defer_headless_frames,
    hanging_clipboard,
    notice_log,
    quick_idle,
    shared_css_parses,
    steady_cursor,
)

__all__ = [
    "_headless_frames",
    "_quick_idle",
    "_shared_css",
    "defer_headless_frames",
    "hanging_clipboard",
    "notice_log",
    "quick_idle",
    "shared_css_parses",
    "steady_cursor",
]
