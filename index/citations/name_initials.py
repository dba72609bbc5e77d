"""Initials of given names with lower-case words: "Wu-chun", "Chih-ming", "m. c.", "danah".

citeproc-py 0.11 takes every lower-case word of a given name for a particle it must not
initialise, and leaves a stray mark for the initials before it: "Wu-chun" became "W.-.
chun .", so APA printed "Feng, W.-. chun ." and "schraefel, . m ." (the shared real exports
hold both; Taiwanese and Korean given names are often written so, and some authors write
their whole name in lower case). citeproc-js and citeproc-rs initialise each word in its
own case: "W.-c.", "C.-m.", "m. c.". Particles are not the given name's business here:
the loaders keep them in their own field (`Name.particle`, CSL's particles).

`install` wraps citeproc-py's `Name.initialize` for the pinned version only. A given name
with a lower-case word is initialised as citeproc-py initialises a capitalised one (each
word's first letter, joined by the style's `initialize-with`, hyphen parts joined by a
hyphen unless `initialize-with-hyphen` is off), keeping each letter's case; any other
name goes to citeproc-py unchanged. Another citeproc-py version keeps its own behaviour.
"""

from __future__ import annotations

from typing import Any

import citeproc
from citeproc.model import Name

__all__ = ["PATCHED_VERSION", "initialize_in_case", "install"]

PATCHED_VERSION = "0.11.1"

_original = Name.initialize


def initialize_in_case(self: Any, given: str, mark: str, context: Any) -> str:
    """`Name.initialize`, with lower-case words initialised in lower case, not kept whole."""
    if not any(word[:1].islower() for word in given.replace("-", " ").replace(".", " ").split()):
        return str(_original(self, given, mark, context))
    if self.get_option("initialize-with-hyphen", context):
        parts = given.split("-")
    else:
        parts = [given.replace("-", " ")]
    initialised = []
    for part in parts:
        letters = [word[0] for word in part.replace(".", " ").split()]
        # As citeproc-py joins a capitalised part's initials, spaces normalised.
        initialised.append(" ".join((mark.join(letters) + mark).split()))
    return "-".join(initialised)


def install() -> bool:
    """Wrap citeproc-py's initials for the pinned version; True when it is in place."""
    if getattr(citeproc, "__version__", None) != PATCHED_VERSION:
        return False
    Name.initialize = initialize_in_case
    return True
