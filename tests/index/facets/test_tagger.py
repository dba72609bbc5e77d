"""Hard cases for the tagger: what words mean in this field, not what one paper says."""

from __future__ import annotations

import pytest

from index.facets.tagger import explain, tag_paper, tag_papers
from index.facets.taxonomy import Taxonomy, load_taxonomy
from index.models import Label, Paper


def tag(taxonomy: Taxonomy, abstract: str, **fields) -> Paper:
    title = fields.pop("title", "")
    return tag_paper(Paper(id="p", title=title, abstract=abstract, **fields), taxonomy)


def reason(labels: tuple[Label, ...], value: str) -> str:
    return next(label.reason for label in labels if label.value == value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We train on Cloud TPU v4 pods.", {"google-tpu", "accelerator"}),
        ("Results on a TPUv5e slice.", {"google-tpu", "accelerator"}),
        ("Inference runs on NVIDIA T4 GPUs in the cloud.", {"nvidia-gpu", "gpu"}),
        ("Patients in the T4 stage responded to treatment.", set()),
        ("Phage T4 infects bacteria.", set()),
        ("Rainfall data from Mali and Niger.", set()),
        ("Rendering on an Arm Mali-G78 and a Mali GPU.", {"edge-gpu", "gpu"}),
        ("We evaluate on an ARM CPU and an Arm Neoverse N1 server.", {"arm-cpu", "cpu"}),
        ("AWS Graviton3 instances lower the cost.", {"arm-cpu", "cpu"}),
        ("The robot arm grasps objects; each arm has six joints.", set()),
        ("Kernels were tuned on Tesla V100 cards.", {"nvidia-gpu", "gpu"}),
        ("Tesla cars collected the driving logs.", set()),
        ("We fuse operators written in CUDA.", {"nvidia-gpu", "gpu"}),
        ("Our convolution beats cuDNN and cuBLAS.", {"nvidia-gpu", "gpu"}),
        ("Throughput improves by 2x on A100.", {"nvidia-gpu", "gpu"}),
        ("Caching helps accelerate training and accelerating inference.", set()),
        ("Specialised accelerators such as NPUs are emerging.", {"accelerator"}),
        ("The job uses 1024 GPUs.", {"gpu"}),
        (
            "HLAT is trained on AWS Trainium chips (trn1 instances).",
            {"aws-trainium", "accelerator"},
        ),
        ("Served on AWS Inferentia.", {"aws-inferentia", "accelerator"}),
        ("A cluster of Intel Xeon Phi coprocessors.", {"xeon-phi", "accelerator"}),
        ("We map the network onto an FPGA.", {"fpga", "accelerator"}),
        ("Models run on integrated GPUs of laptops and mobile GPUs.", {"edge-gpu", "gpu"}),
        ("Benchmarks on Intel Xeon Platinum (Skylake) with AVX-512.", {"intel-cpu", "cpu"}),
        ("We outperform the baseline running on NVIDIA H100 GPUs.", {"nvidia-gpu", "gpu"}),
        ("Code is at https://github.com/NVIDIA/project and runs on GPUs.", {"gpu"}),
        ("It speeds up training by 30x on CPU and 7x on GPU.", {"cpu", "gpu"}),
        ("The engine runs on a single 32-core CPU node.", {"cpu"}),
        ("Graph capture removes CPU runtime overheads of kernel launches on GPUs.", {"gpu"}),
        ("Offloading cuts CPU-GPU data transfers.", {"gpu"}),
        ("Sold by Nvidia\u00ae on DGX\u2011A100 systems.", {"nvidia-gpu", "gpu"}),
    ],
)
def test_hardware_hard_cases(taxonomy: Taxonomy, text: str, expected: set[str]) -> None:
    assert set(tag(taxonomy, text).hardware_ids) == expected


def test_a_leaf_implies_its_parent_and_says_so(taxonomy: Taxonomy) -> None:
    paper = tag(taxonomy, "Evaluated on eight A100 GPUs and a V100.")
    assert paper.hardware_ids == ("gpu", "nvidia-gpu")
    assert reason(paper.hardware, "nvidia-gpu") == 'matched "A100", "V100" (with "GPUs")'
    assert reason(paper.hardware, "gpu").startswith('matched "GPUs"')
    only_model = tag(taxonomy, "A kernel library tuned for the A100.")
    assert reason(only_model.hardware, "gpu") == "implied by nvidia-gpu"


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("A system for serving LLMs with low tail latency.", "inference"),
        ("We compress the KV cache of long prompts.", "inference"),
        ("Speculative decoding halves the time per token.", "inference"),
        ("We combine pipeline parallelism with tensor parallelism.", "training"),
        ("ZeRO shards optimizer states across data-parallel workers.", "training"),
        ("Training mixture-of-experts models with expert parallelism.", "training"),
        ("Post-training quantization to INT8 keeps accuracy.", "quantization"),
        ("Low-precision arithmetic with 4-bit weights.", "quantization"),
        ("Fast attention kernels and GEMM kernels for Hopper.", "kernels"),
        ("We write custom CUDA kernels for sparse attention.", "kernels"),
        ("A compiler that generates tensor programs with a schedule language.", "compilers"),
        ("Auto-tuning searches the loop tiling space for each operator.", "compilers"),
        ("Graph neural networks (GNNs) on billion-edge graphs.", "gnn"),
        ("We analyse fMRI data from 1000 subjects.", "neuroscience"),
        ("A large Chinese dialogue corpus for chit-chat.", "nlp"),
        ("A conversational agent? No: a dataset of open-domain conversations.", "nlp"),
        ("Semantic segmentation of street scenes.", "vision"),
        ("Diffusion models for text-to-image generation.", "vision"),
        ("A driving world model predicts future camera frames.", "autonomous-driving"),
        ("Self-driving cars must plan under uncertainty.", "autonomous-driving"),
        ("The network bandwidth between nodes limits distributed training.", "networking"),
        ("All-reduce and all-to-all collectives dominate the step.", "networking"),
        ("Frequent hardware failures force restarts from checkpoints.", "reliability"),
        ("Localizing silent bugs by debugging the training program.", "reliability"),
        ("Fault-tolerant training with in-memory checkpointing.", "reliability"),
        ("We characterize failures in a large production GPU cluster.", "reliability"),
        (
            "Energy-efficient CNN inference on FPGAs with 8-bit fixed-point arithmetic.",
            "quantization",
        ),
        ("LLM agents use tools to fix issues in repositories.", "agents"),
        ("An agentic workflow plans and executes experiments.", "agents"),
        ("Pre-training a family of 7B and 70B models on 2 trillion tokens.", "pretraining"),
        (
            "A collection of foundation language models trained on trillions of tokens.",
            "pretraining",
        ),
        ("Residual nets win on COCO object detection and segmentation.", "vision"),
        ("Deep learning inference on embedded boards: we double the inference speed.", "inference"),
        ("Low-latency inference on edge devices after deployment to the phone.", "inference"),
        (
            "A DNN computation graph optimizer that searches verified graph substitutions.",
            "compilers",
        ),
        (
            "We release a family of open language models pretrained on 2 trillion tokens.",
            "pretraining",
        ),
        ("Gradients are averaged with ring all-reduce over inter-GPU communication.", "networking"),
        ("Synchronous training of a large model on a cluster of 64 machines.", "training"),
        ("We study failures during training on a shared cluster.", "reliability"),
        ("LLM-powered agents plan actions and interact with tools.", "agents"),
        ("Weights and the KV cache are compressed to 4 bits.", "quantization"),
    ],
)
def test_topic_hard_cases(taxonomy: Taxonomy, text: str, topic: str) -> None:
    paper = tag(taxonomy, text)
    assert topic in paper.topic_ids
    assert reason(paper.topics, topic).startswith("matched ")


@pytest.mark.parametrize(
    ("text", "not_topic"),
    [
        ("The first model serves as a baseline for later work.", "inference"),
        ("A training-free method for image editing.", "training"),
        ("We use activation checkpointing to save memory.", "reliability"),
        ("Kernel methods and Gaussian kernels for regression.", "kernels"),
        ("The Linux kernel schedules threads.", "kernels"),
        ("We compiled a new dataset of medical notes.", "compilers"),
        ("Applications include agents and retrieval-augmented generation.", "agents"),
        ("Post-training quantization to INT8 keeps accuracy.", "training"),
        ("Deep neural network models need large amounts of data.", "networking"),
        ("Automatic mixed precision is one of many features.", "quantization"),
        ("Chinese word segmentation with a lexicon.", "vision"),
        ("World models let agents plan in imagination.", "autonomous-driving"),
        ("Serving multi-turn conversations by reusing the KV cache.", "nlp"),
        ("An MoE language model with fine-grained expert segmentation.", "vision"),
        ("Scaling deep neural network capacity with pipeline parallelism.", "networking"),
        ("Pre-trained dialogue models with 2.8B parameters.", "pretraining"),
        ("Deep learning powers computer vision and natural language processing.", "vision"),
        ("Deep learning powers computer vision and natural language processing.", "nlp"),
        ("Rumours spread on social networking sites.", "networking"),
        ("Tensor parallelism for serving LLMs on H100 GPUs.", "training"),
        (
            "TritonRL: Training LLMs to write Triton kernels with a new training framework.",
            "training",
        ),
        ("Variational inference and Bayesian inference of phylogenies.", "inference"),
        ("Long-content applications such as dialogue systems need fast serving.", "nlp"),
        (
            "An NLP accelerator for machine translation and other natural language processing.",
            "nlp",
        ),
        ("The assistant writes source code generation benchmarks for LLMs.", "compilers"),
        (
            "A 7B model trained on 2 trillion tokens, with 20 trillion tokens planned.",
            "pretraining",
        ),
    ],
)
def test_topic_hard_negatives(taxonomy: Taxonomy, text: str, not_topic: str) -> None:
    assert not_topic not in tag(taxonomy, text).topic_ids


def test_source_keywords_map_to_labels_from_the_source(taxonomy: Taxonomy) -> None:
    paper = tag(taxonomy, "A short note.", keywords=("GPU", "Quantization", "Linear algebra"))
    assert paper.hardware == (Label("gpu", 'from the source (keyword "GPU")'),)
    assert paper.topics == (Label("quantization", 'from the source (keyword "Quantization")'),)


def test_keywords_match_labels_and_aliases_ignoring_case_and_hyphens(taxonomy: Taxonomy) -> None:
    paper = tag(taxonomy, "", keywords=("Graph Neural Networks", "fault-tolerance", "NVIDIA GPU"))
    assert paper.topic_ids == ("gnn", "reliability")
    assert paper.hardware_ids == ("gpu", "nvidia-gpu")
    assert reason(paper.hardware, "gpu") == "implied by nvidia-gpu"


def test_source_labels_are_kept_alongside_derived_ones(taxonomy: Taxonomy) -> None:
    paper = tag(taxonomy, "We serve LLMs on 8 GPUs.", keywords=("gpu", "Compilers"))
    assert paper.topic_ids == ("inference", "compilers")
    assert reason(paper.hardware, "gpu") == 'from the source (keyword "gpu"); matched "GPUs"'


def test_json_style_source_labels_on_the_paper_are_kept(taxonomy: Taxonomy) -> None:
    given = Paper(
        id="p",
        title="",
        abstract="A short note.",
        topics=(Label("Networking", "from the source"), Label("robotics", "from the source")),
        hardware=(Label("fpga", "from the source"),),
    )
    paper = tag_paper(given, taxonomy)
    assert paper.topics == (Label("networking", "from the source"),)
    assert paper.hardware_ids == ("accelerator", "fpga")


def test_tagging_is_idempotent_and_drops_stale_derived_labels(taxonomy: Taxonomy) -> None:
    once = tag(taxonomy, "Serving on A100 GPUs.", keywords=("GNN",))
    assert tag_paper(once, taxonomy) == once
    stale = Paper(
        id="p",
        title="",
        abstract="Serving LLMs.",
        topics=(Label("vision", 'matched "segmentation"'),),
    )
    assert tag_paper(stale, taxonomy).topic_ids == ("inference",)


def test_labels_come_in_taxonomy_order(taxonomy: Taxonomy) -> None:
    paper = tag(
        taxonomy,
        "LLM agents write GPU kernels; we then study KV cache serving and "
        "distributed training on TPU v4 and Intel Xeon CPUs.",
    )
    order = [v.id for v in taxonomy.topics]
    assert list(paper.topic_ids) == sorted(paper.topic_ids, key=order.index)
    hw_order = [v.id for v in taxonomy.hardware]
    assert list(paper.hardware_ids) == sorted(paper.hardware_ids, key=hw_order.index)


def test_title_and_venue_count_as_evidence(taxonomy: Taxonomy) -> None:
    assert "vision" in tag(taxonomy, "", title="Medical image segmentation").topic_ids
    venue_only = tag(taxonomy, "We study multi-turn corpora.", venue="Proceedings of ACL 2021")
    assert "nlp" in venue_only.topic_ids
    assert 'venue "ACL"' in reason(venue_only.topics, "nlp")


@pytest.mark.parametrize(
    "text",
    [
        "",
        # one word a topic's rules or description share is not evidence for it
        "We measure the latency of a deployed system.",
        "An archive of lecture video.",
        "Training of the choir improved its intonation.",
        "Gold-catalysed growth of semiconductor nanowires on silicon.",
        "A new interface lets musicians shape timbre with gestures.",
    ],
)
def test_a_paper_without_evidence_gets_no_topic(taxonomy: Taxonomy, text: str) -> None:
    paper = tag(taxonomy, text, title="")
    assert paper.topics == ()
    assert paper.hardware == ()


def test_one_weak_signal_alone_gives_no_topic(taxonomy: Taxonomy) -> None:
    # "deployment" is half a signal for inference: it needs a second, different one
    assert tag(taxonomy, "We report on the deployment of sensors in a forest.").topics == ()
    both = tag(taxonomy, "Model inference after deployment is cheaper.")
    assert both.topic_ids == ("inference",)
    assert "weaker signals together" in reason(both.topics, "inference")


def test_one_phrase_two_weak_rules_match_is_one_piece_of_evidence(tmp_path) -> None:
    # Overlapping weak rules must not add up to a label on a single phrase.
    user = tmp_path / "mine.toml"
    user.write_text(
        '[topic.demo]\nlabel = "Demo"\ndescription = "A test topic."\n'
        "weak = ['foo bar', 'foo (?:bar|baz)']\n",
        encoding="utf-8",
    )
    taxonomy = load_taxonomy([user])
    assert "demo" not in tag(taxonomy, "Only foo bar here.").topic_ids
    assert "demo" in tag(taxonomy, "Both foo bar and foo baz here.").topic_ids


def test_tag_papers_keeps_order_and_explain_lists_reasons(taxonomy: Taxonomy) -> None:
    papers = [
        Paper(id=f"p{i}", title="", abstract=text)
        for i, text in enumerate(["fMRI of the brain.", "INT8 quantization on T4 GPUs."])
    ]
    tagged = tag_papers(papers, taxonomy)
    assert [p.id for p in tagged] == ["p0", "p1"]
    assert explain(tagged[1]) == [
        'topic quantization: matched "INT8 quantization", "INT8"',
        'hardware gpu: matched "GPUs"',
        'hardware nvidia-gpu: matched "T4 GPUs"',
    ]


def test_tagging_is_fast_enough_for_large_libraries(taxonomy: Taxonomy) -> None:
    # The benchmarks tag 100,000 papers; ~0.25 ms each here. The bound is loose on purpose
    # (CPU time, 20x headroom): it catches a rule that makes every paper scan the text.
    import time
    from pathlib import Path

    assets = Path(__file__).resolve().parents[3] / "assets"
    texts = [
        p for f in sorted(assets.glob("*.txt")) for p in f.read_text(encoding="utf-8").split("\n\n")
    ]
    papers = [
        Paper(id=f"p{i}", title=f"Paper {i}", abstract=texts[i % len(texts)]) for i in range(2000)
    ]
    start = time.process_time()
    tag_papers(papers, taxonomy)
    assert time.process_time() - start < 10.0


def test_a_rule_is_tried_only_where_all_its_literal_text_occurs(taxonomy: Taxonomy) -> None:
    # 'on ... cpus?' starts at every "on" of a paper; its other literal text gates it, and
    # the gate never hides a real match.
    from index.facets.rules import Text, compile_rule
    from index.facets.tagger import _matcher

    rule = compile_rule("(?:on|with) (?:the )?(?:\\w+ )?cpus?", False)
    assert rule.anchors == ("on", "with") and rule.contains == ("cpu",)
    assert compile_rule("serving", False).contains == ()  # the anchor says it all
    matcher = _matcher(taxonomy)
    no_cpu = Text("We train on the cluster with the new model on GPUs.")
    assert not any("cpu" in r.contains for r in matcher.candidates(no_cpu))
    assert "cpu" in tag(taxonomy, "It runs on the Intel CPU of a laptop.").hardware_ids


def test_the_same_vocabulary_read_again_is_not_compiled_again(tmp_path) -> None:
    # A reload reads the taxonomy afresh: equal files give the compiled rules already
    # made, a changed file gives its own.
    from index.facets.tagger import _matcher

    user = tmp_path / "mine.toml"
    user.write_text('[topic.demo]\nlabel = "Demo"\ndescription = "D."\nsignals = ["foo"]\n')
    first, again = load_taxonomy([user]), load_taxonomy([user])
    assert first is not again and _matcher(first) is _matcher(again)
    user.write_text('[topic.demo]\nlabel = "Demo"\ndescription = "D."\nsignals = ["bar"]\n')
    changed = load_taxonomy([user])
    assert _matcher(changed) is not _matcher(first)
    assert "demo" in tag(changed, "A bar here.").topic_ids
    assert "demo" not in tag(changed, "A foo here.").topic_ids
