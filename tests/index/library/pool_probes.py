"""Functions the parallel-load tests run in a pool's worker processes.

They live apart from the test module on purpose: a spawned worker imports the module that
defines a function it is sent, and the test module would bring pytest, the taxonomy and
the loaders into every worker (~0.3 s of CPU each) only to run `os.getpid()`.
"""

from __future__ import annotations

import os

__all__ = ["die", "loud_pid", "niceness", "pid"]


def pid(_: object) -> int:
    """Which process did the work."""
    return os.getpid()


def loud_pid(_: object) -> int:
    """Prints to both streams (which must reach nowhere), then answers."""
    print("worker says hello on stdout")
    os.write(2, b"worker says hello on stderr\n")
    return os.getpid()


def niceness(_: object) -> int:
    """The process's niceness."""
    return os.nice(0)


def die(_: object) -> int:
    """The worker process dies without a word."""
    os._exit(3)
