"""Libraries outside ML systems: a hardware model's name or a common word labels nothing alone.

Each case below paraphrases a real false positive found in a psychology and neuroscience
lab's shared bibliography, a law library and physics papers (issue 47): a dopamine cell
group named "A10" read as an NVIDIA GPU, a statute's "K40" too, "compiled" records,
soldiers "serving", a "dialogue" between brain regions, quantised phonon modes and a
crystal-growth "diffusion model". Next to each, a genuine ML-systems sentence that uses
the same word keeps its label, so the rules were narrowed, not switched off.
"""

from __future__ import annotations

import pytest

from index.facets.tagger import tag_paper
from index.facets.taxonomy import Taxonomy
from index.models import Paper


def labels(taxonomy: Taxonomy, title: str, abstract: str = "") -> set[str]:
    paper = tag_paper(Paper(id="p", title=title, abstract=abstract), taxonomy)
    return {*paper.topic_ids, *paper.hardware_ids}


OUTSIDE = [
    (
        "Typical and atypical neuroleptics act differently on A9 and A10 dopamine cells",
        "Chronic treatment with classical neuroleptics silenced both A9 and A10 dopamine "
        "neurons of the rat midbrain, while the atypical compound acted on A10 cells alone.",
    ),
    (
        "Sentencing after the K40 amendments: a study of state courts",
        "This article traces how the K40 provisions changed sentencing practice and argues "
        "that appellate review should follow the legislature's intent.",
    ),
    (
        "Outcomes of a regional clinic network",
        "We compiled the records of 312 patients treated between 1990 and 2000 and compared "
        "their outcomes with a matched sample.",
    ),
    (
        "Sleep and stress among veterans",
        "Soldiers serving in combat units reported poorer sleep than those serving at home.",
    ),
    (
        "The hippocampal-cortical dialogue during sleep",
        "During slow-wave sleep the hippocampus and the neocortex engage in a dialogue that "
        "may consolidate memories.",
    ),
    (
        "Quantization of acoustic phonon modes in thin crystalline films",
        "We derive the quantization of lattice vibrations in a film bounded by free surfaces "
        "and the resulting quantized phonon spectrum.",
    ),
    (
        "A diffusion model of crystal growth from solution",
        "The growth rate of a crystal face is derived from a diffusion model of the solute "
        "near the interface, and compared with measurements on potassium alum.",
    ),
    (
        "A diffusion model account of recognition memory in older adults",
        "Fitting the diffusion model to response times shows that aging slows non-decision "
        "time more than it lowers the drift rate.",
    ),
    (
        "Resilience after trauma in adolescents",
        "Resilience moderated the effect of exposure; failure rates in recall did not differ.",
    ),
    (
        "Recycled fibres in 3D-printed TPU parts",
        "Flexible TPU filament was mixed with recycled fibres; parts printed on Ice Lake "
        "shores' field stations survived the winter.",
    ),
]


@pytest.mark.parametrize(("title", "abstract"), OUTSIDE, ids=[t[:30] for t, _ in OUTSIDE])
def test_a_paper_outside_ml_systems_gets_no_label(
    taxonomy: Taxonomy, title: str, abstract: str
) -> None:
    assert labels(taxonomy, title, abstract) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We serve 7B models on NVIDIA A10 GPUs at twice the throughput.", {"nvidia-gpu"}),
        ("Training ResNet-50 on K40 GPUs takes two days.", {"nvidia-gpu"}),
        ("A100 runs deliver 312 TFLOPS.", {"nvidia-gpu"}),
        ("The compiler generates code for tensor programs.", {"compilers"}),
        ("The model is compiled into fused GPU kernels.", {"compilers"}),
        ("Serving LLM requests with a paged KV cache.", {"inference"}),
        ("A serving system for many adapters.", {"inference"}),
        ("A task-oriented dialogue system in Chinese.", {"nlp"}),
        ("Post-training quantization of LLM weights to 4 bits.", {"quantization"}),
        ("We quantize the weights of the model to INT8.", {"quantization"}),
        ("Denoising diffusion models for image generation.", {"vision"}),
        ("Sampling from latent diffusion models is slow.", {"vision"}),
        ("Training LLMs on TPUs with data parallelism.", {"google-tpu"}),
        ("Inference on Ice Lake server CPUs with AVX-512.", {"intel-cpu"}),
    ],
)
def test_an_ml_systems_paper_keeps_its_label(
    taxonomy: Taxonomy, text: str, expected: set[str]
) -> None:
    assert expected <= labels(taxonomy, text)


def test_a_model_name_says_what_context_made_it_count(taxonomy: Taxonomy) -> None:
    paper = tag_paper(Paper(id="p", title="", abstract="Latency halves on A10 GPUs."), taxonomy)
    reason = next(label.reason for label in paper.hardware if label.value == "nvidia-gpu")
    assert reason == 'matched "A10" (with "GPUs")'


def test_a_common_word_with_other_evidence_still_counts(taxonomy: Taxonomy) -> None:
    # Weak is not nothing: "quantization" plus a low-precision format is a quantization paper.
    assert "quantization" in labels(
        taxonomy, "Quantization for transformers", "Activations are kept in FP8."
    )
