"""The test suite. Importing this package comes first (pytest imports `tests` before its
root conftest), which is where the suite's processes decide to keep bytecode caches.

Some machines set `PYTHONDONTWRITEBYTECODE=1` for every process (this project's CI
containers do). Then nothing is cached: each of the four xdist workers compiles the
whole application and re-runs pytest's assertion rewriting over all 175 test modules
(~2.5 s of CPU each, before its first test), and every `paperscope` process a test starts
compiles the application again. The suite writes the caches anyway, into the repository's
own `__pycache__` folders (ignored by git), and so do the processes it starts: measured on
the 2-core machine, the whole suite 109-110 s -> 101-104 s.
"""

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
