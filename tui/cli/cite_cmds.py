"""PLACEHOLDER: commands added by a later issue."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds this module's commands to the parser."""
