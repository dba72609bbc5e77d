"""The core library never pulls in the UI, the clipboard or the user's directories."""

import subprocess
import sys


def test_importing_index_loads_no_ui_modules() -> None:
    code = (
        "import sys, pkgutil, importlib, index\n"
        "for m in pkgutil.walk_packages(index.__path__, 'index.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "{'textual', 'tui', 'pyperclip', 'platformdirs'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"index imported UI modules: {out}"
