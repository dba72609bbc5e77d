"""Honest guesses for abstracts that arrive with no title: the system's name and a title.

A plain-text abstract list has no titles. Rather than show "Untitled", paperscope derives
one from the text itself and marks it `title_inferred`, so the UI and citations can say the
title is not the paper's own. The guesses use only what the text says.
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["infer_short_name", "infer_title"]

# A coined name: mixed case or digits inside (DynaPipe, HAWQV3, FeatGraph) or all capitals.
_NAME = r"[A-Z][A-Za-z0-9]*(?:[A-Z][A-Za-z0-9]*|[0-9])[A-Za-z0-9]*(?:-[A-Za-z0-9]+)?"
_INTRO = re.compile(
    r"\b(?:[Ww]e|[Tt]his paper|[Tt]his work)\s+(?:\w+\s+){0,2}?"
    r"(?:present|propose|introduce|design|develop|build|implement|describe)s?\b"
    r"[^.;:]{0,40}?\b(" + _NAME + r")\b"
)
# "We present Loomwork, a system ...": a plain capitalised word counts when introduced so.
_INTRO_PLAIN = re.compile(
    r"\b(?:[Ww]e|[Tt]his paper|[Tt]his work)\s+(?:present|propose|introduce|design|develop|build)s?"
    r"\s+([A-Z][A-Za-z0-9]+(?:-[A-Za-z0-9]+)?),\s+(?:a|an)\s"
)
_APPOSITIVE = re.compile(
    r"\b(" + _NAME + r"),\s+(?:a|an)\s+([^.;]{10,160}?)(?:[.;]|,\s+(?:which|that)\b)"
)
# Acronyms that name a field or a device, never a system.
_COMMON = {
    "AI",
    "API",
    "AWS",
    "BERT",
    "CNN",
    "CNNs",
    "CPU",
    "CPUs",
    "DL",
    "DNN",
    "DNNs",
    "FPGA",
    "FPGAs",
    "GPU",
    "GPUs",
    "GPT",
    "HPC",
    "LLM",
    "LLMs",
    "ML",
    "MoE",
    "NLP",
    "RL",
    "SOTA",
    "TPU",
    "TPUs",
    "GNN",
    "GNNs",
    "IR",
    "KV",
    "NVIDIA",
    "IEEE",
    "ACM",
    "JSON",
    "SQL",
    "OCR",
    "RDBMS",
    "DBMS",
    "HBM",
    "SRAM",
    "DRAM",
    "ISA",
    "SIMD",
    "FP8",
    "FP16",
    "BF16",
    "INT8",
    "MRI",
    "fMRI",
    "GenAI",
    "TVM",
    "XLA",
    "PP",
    "TP",
    "DP",
    "CUDA",
    "LoRA",
    "SAM",
    "ARM",
}
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def infer_short_name(abstract: str) -> str | None:
    """The name the abstract coins for its system, when it clearly coins one.

    Looks for "we present X", "X, a ...", then falls back to a coined name the text
    repeats at least three times; field acronyms (GPU, LLM, ...) never count.
    """
    for match in (*_INTRO_PLAIN.finditer(abstract), *_INTRO.finditer(abstract)):
        if match.group(1) not in _COMMON:
            return match.group(1)
    for match in _APPOSITIVE.finditer(abstract):
        if match.group(1) not in _COMMON:
            return match.group(1)
    counts = Counter(
        token for token in re.findall(r"\b" + _NAME + r"\b", abstract) if token not in _COMMON
    )
    repeated = [token for token, count in counts.most_common(3) if count >= 3]
    mixed = [token for token in repeated if not token.isupper()]
    return (mixed or repeated or [None])[0]


def _clip(text: str, max_words: int) -> str:
    words = text.split()
    clipped = " ".join(words[:max_words]).rstrip(",;:")
    return clipped + ("…" if len(words) > max_words else "")


def infer_title(abstract: str, short_name: str | None = None, max_words: int = 12) -> str:
    """A title derived from the text: `Name: what it is`, or the opening words.

    Args:
        abstract: the normalised abstract.
        short_name: the coined name, if `infer_short_name` found one.
        max_words: length of the derived phrase, so lists stay readable.
    """
    text = abstract.strip()
    if not text:
        return "(untitled)"
    if short_name:
        for match in _APPOSITIVE.finditer(text):
            if match.group(1) == short_name:
                return f"{short_name}: {_clip(match.group(2), max_words)}"
        return f"{short_name}: {_clip(_SENTENCE.split(text, maxsplit=1)[0], max_words)}"
    return _clip(_SENTENCE.split(text, maxsplit=1)[0].rstrip("."), max_words)
