"""The README's recipes for `paperscope pick`, run as written: the shell lines and VS Code's
task and key binding (valid JSON, and the task's command run as VS Code runs a shell task,
`bash -c` in a terminal). A fake `xclip` on PATH stands in for the clipboard: the machine
running the tests has no display."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import textwrap
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_tmux import PAPERSCOPE, TMUX, Terminal

README = Path(__file__).resolve().parents[2] / "README.md"
BASH = shutil.which("bash")


def _pick_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("### Picking papers from an editor")
    return text[start : text.index("\n### ", start + 1)]


def shell_recipes() -> list[str]:
    """The lines of the section's first `sh` block."""
    block = re.search(r"```sh\n(.*?)```", _pick_section(), re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def vscode_blocks() -> list[Any]:
    """The VS Code bullet's JSON blocks, parsed (a syntax error fails the test)."""
    section = _pick_section()
    bullet = section[section.index("- **VS Code**") :]
    blocks = re.findall(r"```json\n(.*?)\n\s*```", bullet, re.S)
    return [json.loads(textwrap.dedent(block)) for block in blocks]


def test_the_vs_code_task_and_key_binding_are_valid_and_agree() -> None:
    tasks, bindings = vscode_blocks()
    assert tasks["version"] == "2.0.0"
    (task,) = tasks["tasks"]
    assert task["type"] == "shell" and "paperscope pick" in task["command"]
    assert task["presentation"]["focus"] is True  # the keys go to the picker
    (binding,) = bindings
    assert binding["command"] == "workbench.action.tasks.runTask"
    assert binding["args"] == task["label"]
    assert "${" not in task["command"]  # VS Code would substitute a ${variable}


FAKE_XCLIP = """#!/bin/sh
printf '%s\\n' "$*" > "$CLIP_ARGS"
cat > "$CLIP"
"""


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[[list[str]], Terminal]]:
    """Starts a command in a tmux pane with paperscope and a fake xclip on PATH."""
    if TMUX is None or BASH is None:
        pytest.skip("tmux and bash are needed (.ci/run installs tmux)")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "xclip").write_text(FAKE_XCLIP, encoding="utf-8")
    (fake / "xclip").chmod(0o755)
    env = {
        "PATH": f"{fake}:{PAPERSCOPE.parent}:/usr/bin:/bin",
        "PAPERSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "PAPERSCOPE_DATA_DIR": str(tmp_path / "data"),
        "PAPERSCOPE_CONFIG": str(tmp_path / "config" / "config.toml"),
        "TERM": "xterm-256color",
        "CLIP": str(tmp_path / "clipboard"),
        "CLIP_ARGS": str(tmp_path / "clipboard-args"),
        "HOME": str(tmp_path),
    }
    sockets: list[str] = []

    def start(argv: list[str]) -> Terminal:
        socket = f"paperscope-recipe-{uuid.uuid4().hex[:8]}"
        sockets.append(socket)
        status = tmp_path / f"status-{len(sockets)}"
        # `"$@"` runs the recipe exactly as given; the status is recorded after it.
        # The shell then waits, so the pane (and what the recipe printed) stays on screen.
        wrapper = f'"$@"; echo $? > {status}; read -r _'
        subprocess.run(
            [TMUX or "tmux", "-L", socket, "-f", os.devnull, "new-session", "-d", "-s", "r"]
            + ["-x", "120", "-y", "36", "--", "env", *(f"{k}={v}" for k, v in env.items())]
            + ["sh", "-c", wrapper, "sh", *argv],
            check=True,
            timeout=20,
        )
        term = Terminal(socket, "r", status)
        term.tmux("set-option", "-t", "r", "remain-on-exit", "on")
        return term

    try:
        yield start
    finally:
        for socket in sockets:
            subprocess.run(
                [TMUX or "tmux", "-L", socket, "kill-server"], capture_output=True, check=False
            )


def _pick_the_first_result(term: Terminal) -> None:
    """Enter on the first result, once the results have the focus (their footer: Pick)."""
    term.wait_for(
        lambda s: "⏎ Pick" in s and re.search(r"(?<!… )\b\d+ of 47 papers", s) is not None,
        timeout=60,
    )
    term.keys("Enter")


def test_the_vs_code_task_puts_the_pick_on_the_clipboard(
    terminal: Callable[[list[str]], Terminal], tmp_path: Path
) -> None:
    (task,) = vscode_blocks()[0]["tasks"]
    term = terminal([BASH or "bash", "-c", task["command"]])
    _pick_the_first_result(term)
    assert term.exit_status() == 0
    picked = (tmp_path / "clipboard").read_text(encoding="utf-8")
    assert re.fullmatch(r"\[@[\w:.-]+\]", picked), picked  # no newline, no escape codes
    assert (tmp_path / "clipboard-args").read_text() == "-selection clipboard\n"


def test_escape_in_the_vs_code_task_leaves_the_clipboard_alone(
    terminal: Callable[[list[str]], Terminal], tmp_path: Path
) -> None:
    (task,) = vscode_blocks()[0]["tasks"]
    term = terminal([BASH or "bash", "-c", task["command"]])
    term.wait_for(lambda s: re.search(r"(?<!… )\b\d+ of 47 papers", s) is not None, timeout=60)
    term.keys("Escape")
    assert term.exit_status() == 1
    assert not (tmp_path / "clipboard").exists()


def test_the_shell_recipes_work_as_written(
    terminal: Callable[[list[str]], Terminal], tmp_path: Path
) -> None:
    substitution, clipboard, popup = shell_recipes()
    assert substitution.startswith("key=$(paperscope pick) && ")
    term = terminal(["sh", "-c", substitution])
    _pick_the_first_result(term)
    assert term.exit_status() == 0
    assert re.search(r"^\\cite\{[\w:.-]+\}$", term.screen(), re.M), term.screen()

    term = terminal(["sh", "-c", clipboard])
    _pick_the_first_result(term)  # with a query, pick starts on the results
    assert term.exit_status() == 0
    assert re.fullmatch(r"\[@[\w:.-]+\]", (tmp_path / "clipboard").read_text(encoding="utf-8"))
    assert popup.startswith("tmux display-popup -E")  # needs a client: the next test


def test_the_tmux_popup_recipe_draws_the_picker_in_a_popup(
    terminal: Callable[[list[str]], Terminal], tmp_path: Path
) -> None:
    """A tmux inside the test's tmux pane is the user's tmux, with a client to draw on."""
    popup = shell_recipes()[2].replace("/tmp/picked", str(tmp_path / "picked"))
    inner = f"paperscope-popup-{uuid.uuid4().hex[:8]}"
    outer = terminal(
        ["env", "-u", "TMUX", TMUX or "tmux", "-L", inner, "-f", os.devnull]
        + ["new-session", "-s", "in", "--", "sh"]
    )
    user = Terminal(inner, "in", tmp_path / "unused")
    try:
        outer.wait_for(lambda s: "[in]" in s)  # the user's tmux is up, with its status bar
        user.keys(popup, literal=True)
        user.keys("Enter")
        _pick_the_first_result(outer)
        screen = outer.wait_for(lambda s: re.search(r"^\\cite\{[\w:.-]+\}$", s, re.M) is not None)
        assert "Pick" not in screen  # the popup is gone
    finally:
        subprocess.run(
            [TMUX or "tmux", "-L", inner, "kill-server"], capture_output=True, check=False
        )
