"""The pandoc process that renders citations: started on first use, kept, restarted if it dies.

Starting pandoc costs ~50-100 ms, which a `pandoc --citeproc` call per citation would pay
every time (~136 ms a citation measured); one `pandoc lua driver.lua` process answering a
JSON request a line pays it once per paperscope process. Requests are serialised by a lock
(the app's preview, copy and export workers may ask at once), and the process is ended
when the interpreter exits.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import IO, Any

__all__ = ["EngineUnavailable", "PandocProcess", "pandoc_binary", "shared_process"]

DRIVER = Path(__file__).resolve().parent / "driver.lua"
# The wheel that bundles pandoc (3.9, with Lua): pinned in pyproject.toml.
_WHEEL = "pypandoc-binary==1.17"


class EngineUnavailable(ValueError):
    """pandoc is missing or cannot run; the message is one line for the user.

    A ValueError like every other reason a citation cannot be formatted (a broken user
    style, a key a format cannot hold), so the app shows it in place of the citation.
    """

    def __init__(self, cause: str) -> None:
        super().__init__(f"citation engine unavailable: {cause}")
        self.cause = cause


def pandoc_binary() -> Path:
    """The pandoc the `pypandoc-binary` wheel ships, found without importing pypandoc.

    `PAPERSCOPE_PANDOC` names another pandoc (3.9 or later, with Lua) for a system that
    has no wheel for this platform.
    """
    override = os.environ.get("PAPERSCOPE_PANDOC")
    if override:
        return Path(override)
    spec = importlib.util.find_spec("pypandoc")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for name in ("pandoc", "pandoc.exe"):
            candidate = Path(folder) / "files" / name
            if candidate.is_file():
                return candidate
    raise EngineUnavailable(f"pandoc not found; install {_WHEEL}")


class PandocProcess:
    """One pandoc Lua driver; `request` is safe to call from any thread."""

    def __init__(self, binary: Path | None = None) -> None:
        self._binary = binary
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._stderr: IO[bytes] | None = None
        self._owner = os.getpid()

    def request(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Sends one request and returns the driver's answer (a dict with `entries` or `error`).

        A process that died (killed, crashed) is started again once for this request.

        Raises:
            EngineUnavailable: pandoc is missing, does not start, or dies on the request.
        """
        line = json.dumps(payload, ensure_ascii=False) + "\n"
        with self._lock:
            for attempt in (1, 2):
                process = self._running()
                try:
                    assert process.stdin is not None and process.stdout is not None
                    process.stdin.write(line)
                    process.stdin.flush()
                    answer = process.stdout.readline()
                except (BrokenPipeError, OSError):
                    answer = ""
                if answer:
                    result: dict[str, Any] = json.loads(answer)
                    return result
                cause = self._death_cause()
                self._stop()
                if attempt == 2:
                    raise EngineUnavailable(cause)
        raise AssertionError("unreachable")

    def cpu_seconds(self) -> float | None:
        """CPU time pandoc has used so far (Linux `/proc`; None elsewhere or when stopped).

        For the benchmarks: on a shared machine, wall time says little.
        """
        process = self._process
        if process is None:
            return None
        try:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rpartition(")")[2].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def close(self) -> None:
        """Ends the process (closing its stdin ends the driver's loop)."""
        with self._lock:
            self._stop()

    def _running(self) -> subprocess.Popen[str]:
        if self._owner != os.getpid():
            # A forked child (the index build) must not talk over its parent's pipe.
            self._process, self._stderr, self._owner = None, None, os.getpid()
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._stop()
        binary = self._binary or pandoc_binary()
        self._stderr = tempfile.TemporaryFile()
        try:
            self._process = subprocess.Popen(
                [str(binary), "lua", str(DRIVER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as error:
            raise EngineUnavailable(f"cannot run {binary} ({error.strerror or error})") from None
        return self._process

    def _death_cause(self) -> str:
        """The last line pandoc wrote to stderr, or its exit status."""
        process, stderr = self._process, self._stderr
        if process is not None:
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
        text = ""
        if stderr is not None:
            stderr.seek(0)
            text = stderr.read().decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines:
            return f"pandoc failed: {lines[-1]}"
        code = process.returncode if process is not None else None
        return f"pandoc stopped (exit status {code})"

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            for stream in (process.stdin, process.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None


_shared: PandocProcess | None = None
_shared_lock = threading.Lock()


def shared_process() -> PandocProcess:
    """The process every render in this interpreter uses, created on first use."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = PandocProcess()
            atexit.register(_shared.close)
        return _shared
