"""A synthetic library that looks like a systems/ML publication list, for benchmarking.

Search cost depends on the shape of the text far more than on its meaning: how many
distinct terms share a two-letter prefix, how long the postings of "the" and "model" are,
how many papers carry each facet value. So the generator copies that shape from real
abstracts: a Zipf-Mandelbrot word distribution whose head is English function words, whose
body is the systems/ML vocabulary and whose long tail mixes real rare words with made-up
technical words (a real 100k-abstract lexicon has well over 50,000 terms); per-topic
phrases so that labels and words correlate; CamelCase system names; numbers such as
`3.2x` and `49%`; 3-8 authors from a skewed pool with accented names.

Everything comes from one `random.Random(seed)`, so a run is reproducible and the same
`(docs, seed)` gives the same papers in every process (the build runs in a child process).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from index.models import Label, Library, Paper, Source

__all__ = [
    "DOMAIN_WORDS",
    "FUNCTION_WORDS",
    "HARDWARE_PARENTS",
    "RARE_WORDS",
    "TOPIC_PHRASES",
    "Vocabulary",
    "changed_papers",
    "generate_papers",
    "read_library",
    "write_library",
]

# The head of the distribution, roughly in the order real abstracts use them.
FUNCTION_WORDS = (
    "the of and to a in for is on that with we by this as our are an be from which can at "
    "it these or than its such both their while has not have more into across up using "
    "show over new two each also other when between only while all how most one without "
    "however where under but whether them they three them first through per same much many "
    "while then existing current different high low large small key significant further "
    "even well based used use uses often thus"
).split()

# The body: frequent systems/ML words (ranks ~120-700 once the head is placed).
DOMAIN_WORDS = (
    "model models training performance memory data system systems inference gpu gpus "
    "learning deep neural network networks compute computation throughput latency "
    "parallelism distributed efficient efficiency scale scaling large-scale workloads "
    "hardware accelerators accelerator kernel kernels compiler compilers optimization "
    "optimizations framework frameworks approach method methods results evaluation "
    "speedup speedups state-of-the-art baseline baselines existing design implementation "
    "cluster clusters nodes node communication bandwidth pipeline pipelines scheduling "
    "scheduler schedule tensor tensors operator operators graph graphs quantization "
    "precision sparse sparsity attention transformer transformers language llm llms "
    "serving requests batch batching cache caching storage fault tolerance failures "
    "checkpointing reliability dataset datasets benchmark benchmarks accuracy loss "
    "parameters billion trillion tokens sequence sequences length context layer layers "
    "experts mixture routing load balancing overhead overheads utilization cost costs "
    "energy power cloud edge devices device mobile embedded cpu cpus fpga tpu tpus "
    "vision image images segmentation diffusion generation video detection driving "
    "autonomous perception lidar planning agents agent reasoning tools tool retrieval "
    "dialogue question answering corpus text translation neuroimaging brain fmri "
    "analysis statistical matrix multiplication convolution winograd fusion tiling "
    "vectorization loop loops code generation search space tuning auto-tuning cost "
    "partitioning sharding replication placement memory-efficient offloading swapping "
    "recomputation activation activations gradient gradients optimizer states precision "
    "mixed fp8 fp16 bf16 int8 int4 weights weight compression pruning distillation "
    "network packet rdma collective allreduce all-to-all topology interconnect nvlink "
    "infiniband ethernet switch latency-sensitive tail slo goodput heterogeneous "
    "homogeneous instance instances spot preemption elastic elasticity resource "
    "resources allocation allocator fragmentation paging paged virtual kv prefix "
    "decoding speculative draft prefill decode chunked continuous iteration iterations "
    "epoch epochs convergence stability numerical library libraries runtime runtimes "
    "dynamic static shapes shape irregular regular end-to-end outperforms achieves "
    "improves reduces enables propose present introduce demonstrate evaluate implement "
    "build leverage exploit observe study characterize analyze identify address "
    "challenge challenges opportunity opportunities problem problems solution solutions "
    "technique techniques algorithm algorithms policy policies strategy strategies "
    "production real-world open-source publicly available widely popular emerging "
    "modern recent prior previous novel simple general automatic automatically "
    "manually expert hand-tuned vendor-provided specialized domain-specific"
).split()

# Real but rare words, scattered through the tail so that "rare word" queries look real.
RARE_WORDS = (
    "systolic photonic neuromorphic backpropagation hyperparameter eigendecomposition "
    "microarchitecture superscalar bitstream dataflow polyhedral autotuner roofline "
    "wavefront occupancy coalescing bankconflict warp threadblock tensorcore mamba "
    "retentive hypernetwork tokenizer detokenization embedding embeddings recommender "
    "recommendation dlrm gnns sampling minibatch subgraph hypergraph knowledge "
    "ontology provenance lineage deduplication compaction lsm btree hashing bloom "
    "consensus raft paxos byzantine serverless unikernel hypervisor enclave sgx "
    "homomorphic differential privacy federated straggler stragglers gossip "
    "checkpoint snapshot rollback microbenchmark profiler tracing telemetry anomaly "
    "diagnosis rootcause flaky nondeterminism reproducibility determinism "
    "trainium inferentia neuron xeon phi graviton ampere hopper blackwell mi300 "
    "gaudi cerebras groq jetson orin snapdragon adreno mali vulkan opencl sycl cuda "
    "rocm triton tvm mlir xla halide taco tiramisu ansor autotvm cutlass cublas "
    "cudnn nccl megatron deepspeed zero fsdp vllm sglang orca alpaca llama mixtral "
    "gemma qwen falcon bloom gpt bert resnet vit unet stable rlhf dpo ppo grpo "
    "chain-of-thought multimodal multilingual code-switching slot-filling chatbot "
    "voxel tractography connectivity fcma hippocampus cortex occupancy-grid bev "
    "trajectory forecasting odometry slam radar"
).split()

TOPIC_PHRASES: dict[str, tuple[str, ...]] = {
    "training": (
        "pipeline parallelism",
        "tensor parallelism",
        "data parallelism",
        "mixture of experts",
        "activation recomputation",
        "gradient accumulation",
        "training throughput",
        "distributed training",
    ),
    "inference": (
        "KV cache",
        "continuous batching",
        "speculative decoding",
        "model serving",
        "time to first token",
        "inference latency",
        "request scheduling",
    ),
    "pretraining": (
        "pretraining corpus",
        "scaling laws",
        "training tokens",
        "model family",
        "instruction tuning",
    ),
    "compilers": (
        "tensor compiler",
        "operator fusion",
        "loop tiling",
        "code generation",
        "intermediate representation",
        "auto-scheduling",
        "search space",
    ),
    "quantization": (
        "low-bit quantization",
        "weight-only quantization",
        "INT4 weights",
        "FP8 training",
        "quantization error",
    ),
    "kernels": (
        "GPU kernels",
        "matrix multiplication",
        "attention kernel",
        "tensor cores",
        "shared memory",
        "memory bandwidth",
    ),
    "gnn": (
        "graph neural networks",
        "message passing",
        "sparse matrix",
        "graph sampling",
        "node embeddings",
    ),
    "nlp": (
        "dialogue systems",
        "language datasets",
        "question answering",
        "slot filling",
        "task-oriented dialogue",
    ),
    "vision": (
        "image segmentation",
        "diffusion models",
        "image generation",
        "medical images",
        "vision transformer",
    ),
    "autonomous-driving": (
        "autonomous driving",
        "3D object detection",
        "motion planning",
        "bird's-eye view",
        "sensor fusion",
    ),
    "neuroscience": (
        "fMRI data",
        "brain activity",
        "full correlation matrix analysis",
        "neuroimaging data",
        "factor analysis",
    ),
    "networking": (
        "network congestion",
        "collective communication",
        "RDMA networks",
        "network topology",
        "packet processing",
    ),
    "reliability": (
        "hardware failures",
        "silent data corruption",
        "checkpoint restart",
        "fault tolerance",
        "straggler mitigation",
    ),
    "agents": (
        "LLM agents",
        "tool use",
        "multi-agent systems",
        "agent workflows",
        "planning and reasoning",
    ),
}

HARDWARE_PARENTS: dict[str, str] = {
    "nvidia-gpu": "gpu",
    "amd-gpu": "gpu",
    "edge-gpu": "gpu",
    "intel-cpu": "cpu",
    "arm-cpu": "cpu",
    "aws-trainium": "accelerator",
    "aws-inferentia": "accelerator",
    "google-tpu": "accelerator",
    "xeon-phi": "accelerator",
    "fpga": "accelerator",
}
HARDWARE_WORDS: dict[str, tuple[str, ...]] = {
    "nvidia-gpu": ("NVIDIA A100 GPUs", "H100 GPUs", "V100 GPUs"),
    "amd-gpu": ("AMD MI250 GPUs", "AMD Instinct MI300X"),
    "edge-gpu": ("Jetson Orin", "mobile GPUs", "integrated GPUs"),
    "intel-cpu": ("Intel Xeon CPUs", "Intel Skylake processors"),
    "arm-cpu": ("ARM CPUs", "AWS Graviton processors"),
    "aws-trainium": ("AWS Trainium", "Trainium chips"),
    "aws-inferentia": ("AWS Inferentia", "Inferentia2 instances"),
    "google-tpu": ("Google TPUs", "TPU v4 pods"),
    "xeon-phi": ("Intel Xeon Phi", "Knights Landing"),
    "fpga": ("FPGAs", "Xilinx FPGA boards"),
    "gpu": ("GPUs", "GPU clusters"),
    "cpu": ("CPUs", "multi-core CPUs"),
    "accelerator": ("accelerators", "deep learning accelerators"),
}

GIVEN_NAMES = (
    "Yida Wei Jun Xin Lei Ying Hao Min Jie Tao Yu Li Chen Ming Rui Zhen Haichen Tianqi "
    "Ion Matei Joseph Michael David Sarah Emily Anna Maria José Zoë Łukasz Søren Çağlar "
    "Renée Björn Jürgen André Hélène Ákos François Jiří Ümit Ana Luís Inés Mónica Sébastien "
    "Ravi Priya Arjun Ananya Vikram Deepak Sanjay Kiran Hyun Jiwon Seo-yeon Takeshi Yuki "
    "Kenji Aiko Omar Fatima Karim Layla Pavel Olga Dmitri Irina Nikolai Eva Lars Ingrid "
    "Tomás Paulo Rafael Gabriel Noah Liam Olivia Grace Ethan Lucas"
).split()
FAMILY_NAMES = (
    "Wang Zhang Li Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo Gao "
    "Smith Johnson Brown Miller Davis Wilson Anderson Taylor Moore Jackson Martin Lee "
    "Müller Schmidt Schröder Weiß García Martínez López Ibáñez Peña Dvořák Novák Sørensen "
    "Jørgensen Çelik Yılmaz Öztürk Nguyễn Trần Lê Kowalski Wójcik Łukaszewicz Ferreira "
    "Gonçalves Araújo Dubois Lefèvre Moreau Rossi Bianchi Ricci Kumar Sharma Patel Gupta "
    "Singh Reddy Iyer Kim Park Choi Jung Kang Tanaka Suzuki Sato Watanabe Nakamura Ivanov "
    "Petrov Smirnova Kuznetsov Andersson Nilsson Larsson Haddad Nasser Khan Ahmed Stoica "
    "Zaharia Gonzalez Stoll Krishnamurthy Venkataraman Ramachandran"
).split()
VENUES = (
    ("OSDI", 3),
    ("SOSP", 2),
    ("NSDI", 3),
    ("EuroSys", 3),
    ("USENIX ATC", 3),
    ("ASPLOS", 4),
    ("ISCA", 2),
    ("MICRO", 2),
    ("HPCA", 2),
    ("MLSys", 4),
    ("NeurIPS", 6),
    ("ICML", 5),
    ("ICLR", 5),
    ("SC", 3),
    ("PPoPP", 2),
    ("CGO", 1),
    ("PLDI", 1),
    ("ICPP", 1),
    ("KDD", 2),
    ("VLDB", 2),
    ("SIGMOD", 2),
    ("SIGCOMM", 2),
    ("CVPR", 4),
    ("ACL", 3),
    ("EMNLP", 3),
    ("IEEE TPDS", 2),
    ("ACM TACO", 1),
    ("arXiv", 12),
    ("SoCC", 1),
    ("IPDPS", 2),
)
TITLE_TEMPLATES = (
    "{name}: {ger} {obj} for {goal}",
    "{name}: {adj} {obj} on {hw}",
    "{ger} {obj} with {phrase}",
    "Towards {adj} {obj} at Scale",
    "{name}: {adj} and {adj2} {obj}",
    "Understanding {obj} in {phrase}",
    "{name}: {ger} {phrase} via {obj}",
)
TITLE_GERUNDS = (
    "Accelerating",
    "Scaling",
    "Optimizing",
    "Serving",
    "Training",
    "Compiling",
    "Taming",
    "Rethinking",
    "Automating",
    "Characterizing",
    "Efficient",
)
TITLE_ADJ = (
    "Efficient",
    "Scalable",
    "Fast",
    "Elastic",
    "Adaptive",
    "Memory-Efficient",
    "Fault-Tolerant",
    "Automatic",
    "Holistic",
    "Low-Latency",
    "Heterogeneous",
)
TITLE_OBJ = (
    "Large Language Models",
    "Deep Learning Workloads",
    "Tensor Programs",
    "Mixture-of-Experts Models",
    "Graph Neural Networks",
    "Diffusion Models",
    "Distributed Training",
    "LLM Inference",
    "Sparse Kernels",
    "Dataflow Graphs",
)
TITLE_GOAL = (
    "Multi-Tenant Clusters",
    "Commodity Hardware",
    "Long Contexts",
    "Heterogeneous Accelerators",
    "Edge Devices",
    "the Cloud",
)
NAME_SYLLABLES = (
    "dyna",
    "pipe",
    "slap",
    "til",
    "feat",
    "graph",
    "flex",
    "tensor",
    "mega",
    "hydra",
    "orion",
    "pyra",
    "nova",
    "spark",
    "zeta",
    "quill",
    "velo",
    "lumen",
)

_CONSONANTS = "bcdfghjklmnprstvwz"
_ONSETS = tuple(_CONSONANTS) + ("st", "tr", "pr", "gr", "ch", "sh", "th", "sp", "cr", "fl")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "io", "ou")
_SUFFIXES = ("", "", "", "ing", "ed", "ation", "ity", "er", "ers", "ize", "ic", "al", "s")
_TAIL_SIZE = 60_000


class Vocabulary:
    """The word list with Zipf-Mandelbrot weights, built once per seed.

    Attributes:
        words: every word, most frequent first.
        cum_weights: running sum of the weights, for `random.choices`.
    """

    def __init__(self, seed: int) -> None:
        rng = random.Random(f"vocabulary-{seed}")
        known = set(FUNCTION_WORDS) | set(DOMAIN_WORDS) | set(RARE_WORDS)
        tail: list[str] = []
        while len(tail) < _TAIL_SIZE:
            word = "".join(
                rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.randint(2, 4))
            ) + rng.choice(_SUFFIXES)
            if word not in known:
                known.add(word)
                tail.append(word)
        # Real rare words sit every 150 ranks from rank ~3,000 on: from ~0.6% of papers
        # down to a handful per 10,000, like real rare terms.
        rare = [word for word in RARE_WORDS if word not in DOMAIN_WORDS]
        for position, word in enumerate(rare):
            tail.insert(2_300 + 150 * position, word)
        self.words: tuple[str, ...] = tuple(dict.fromkeys([*FUNCTION_WORDS, *DOMAIN_WORDS, *tail]))
        weights = (1.0 / (rank + 2.7) ** 1.02 for rank in range(len(self.words)))
        self.cum_weights: list[float] = list(itertools.accumulate(weights))

    def rank(self, word: str) -> int:
        return self.words.index(word)

    def probability(self, word: str) -> float:
        rank = self.rank(word)
        low = self.cum_weights[rank - 1] if rank else 0.0
        return (self.cum_weights[rank] - low) / self.cum_weights[-1]

    def word_with_probability(self, probability: float) -> str:
        """The made-up tail word whose share of all tokens is nearest `probability`."""
        total = self.cum_weights[-1]
        rank = int(1.0 / (probability * total) ** (1 / 1.02) - 2.7)
        rank = max(len(FUNCTION_WORDS) + len(DOMAIN_WORDS), min(rank, len(self.words) - 1))
        while self.words[rank] in RARE_WORDS:
            rank += 1
        return self.words[rank]


def _system_name(rng: random.Random) -> str:
    first, second = rng.sample(NAME_SYLLABLES, 2)
    return first.capitalize() + (second.capitalize() if rng.random() < 0.7 else second)


def _author_pool(rng: random.Random, size: int) -> list[str]:
    """`size` distinct names: given and family names, then one middle initial, then two.

    One initial gives at most ~154,000 names (83 x 98 x 19): the pool of a million papers
    (333,333) never filled and the generator looped for ever. The second initial starts
    after 100,000 names, so every pool up to 300,000 papers is the one it always was.
    """
    names: dict[str, None] = {}
    while len(names) < size:
        given, family = rng.choice(GIVEN_NAMES), rng.choice(FAMILY_NAMES)
        middle = f" {rng.choice(_CONSONANTS).upper()}." if len(names) > 2_000 else ""
        if len(names) > 100_000:
            middle += f" {rng.choice(_CONSONANTS).upper()}."
        names[f"{given}{middle} {family}"] = None
    return list(names)


def _sentence(rng: random.Random, vocab: Vocabulary, extras: Sequence[str], length: int) -> str:
    words = rng.choices(vocab.words, cum_weights=vocab.cum_weights, k=length)
    for extra in extras:
        words.insert(rng.randrange(len(words) + 1), extra)
    if rng.random() < 0.25:
        words.insert(rng.randrange(len(words) + 1), f"{rng.uniform(1.1, 9.9):.2f}x")
    if rng.random() < 0.15:
        words.insert(rng.randrange(len(words) + 1), f"{rng.randint(2, 95)}%")
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def _paper(
    index: int,
    rng: random.Random,
    vocab: Vocabulary,
    authors: list[str],
    author_cum: list[float],
    file_name: str,
    line: int,
) -> Paper:
    topic_ids = list(TOPIC_PHRASES)
    topics = rng.sample(topic_ids, rng.choices((1, 2, 3), weights=(5, 4, 1))[0])
    leaves = rng.sample(list(HARDWARE_PARENTS), rng.choices((0, 1, 2), weights=(3, 5, 2))[0])
    hardware = list(dict.fromkeys(h for leaf in leaves for h in (leaf, HARDWARE_PARENTS[leaf])))
    if not leaves and rng.random() < 0.3:
        hardware = [rng.choice(("gpu", "cpu", "accelerator"))]
    name = _system_name(rng) if rng.random() < 0.6 else None
    extras = [p for t in topics for p in rng.sample(TOPIC_PHRASES[t], 2)]
    extras += [rng.choice(HARDWARE_WORDS[h]) for h in hardware if h in HARDWARE_WORDS][:3]
    if name:
        extras += [name, name]
    target = rng.randint(150, 250)
    sentences: list[str] = []
    written = 0
    while written < target:
        length = rng.randint(12, 28)
        take, extras = extras[: rng.randint(0, 2)], extras[2:] if len(extras) > 2 else []
        sentences.append(_sentence(rng, vocab, take, length))
        written += length
    title = rng.choice(TITLE_TEMPLATES).format(
        name=name or _system_name(rng),
        ger=rng.choice(TITLE_GERUNDS),
        adj=rng.choice(TITLE_ADJ),
        adj2=rng.choice(TITLE_ADJ),
        obj=rng.choice(TITLE_OBJ),
        goal=rng.choice(TITLE_GOAL),
        phrase=rng.choice(TOPIC_PHRASES[topics[0]]),
        hw=rng.choice(HARDWARE_WORDS[hardware[0]]) if hardware else "Commodity Clusters",
    )
    count = rng.randint(3, 8)
    chosen: dict[str, None] = {}
    while len(chosen) < count:  # prolific authors are drawn often; keep names distinct
        chosen[rng.choices(authors, cum_weights=author_cum)[0]] = None
    venue = rng.choices([v for v, _ in VENUES], weights=[w for _, w in VENUES])[0]
    year = 2010 + min(16, int(16 * rng.random() ** 0.45))  # skewed towards recent years
    return Paper(
        id=f"syn-{index:06d}",
        title=title,
        short_name=name,
        authors=tuple(chosen),
        year=year,
        venue=venue,
        entry_type="misc" if venue == "arXiv" else "inproceedings",
        abstract=" ".join(sentences),
        sources=(Source(path=file_name, line=line),),
        topics=tuple(Label(t, "synthetic") for t in topics),
        hardware=tuple(Label(h, "synthetic") for h in hardware),
    )


RECENT_FILE = "library-recent.jsonl"


def recent_count(docs: int) -> int:
    """How many papers go to the small `RECENT_FILE`: 100, or a tenth of a small library."""
    return min(100, docs // 10)


def generate_papers(docs: int, seed: int, files: int = 10) -> list[Paper]:
    """`docs` papers, deterministic for `(docs, seed)`, spread over `files` source files.

    The last `recent_count(docs)` papers go to their own small file, the way a user adds
    this month's BibTeX export beside a big library: rewriting it is the "100 changed
    papers" update the benchmark times, separately from re-indexing a whole big file.
    """
    vocab = Vocabulary(seed)
    rng = random.Random(f"papers-{seed}")
    authors = _author_pool(rng, max(300, docs // 3))
    author_cum = list(itertools.accumulate(1.0 / (r + 5) for r in range(len(authors))))
    bulk = docs - recent_count(docs)
    per_file = max(1, -(-bulk // files))
    return [
        _paper(
            i,
            rng,
            vocab,
            authors,
            author_cum,
            f"library-{i // per_file:02d}.jsonl" if i < bulk else RECENT_FILE,
            (i if i < bulk else i - bulk) % per_file + 1,
        )
        for i in range(docs)
    ]


def write_library(papers: Iterable[Paper], directory: Path) -> list[Path]:
    """Writes the papers as JSONL files named by their source; returns the files in order."""
    directory.mkdir(parents=True, exist_ok=True)
    by_file: dict[str, list[str]] = {}
    for paper in papers:
        by_file.setdefault(Path(paper.sources[0].path).name, []).append(
            json.dumps(paper.to_dict(), ensure_ascii=False)
        )
    written = []
    for name, lines in by_file.items():
        path = directory / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


def read_library(files: Sequence[Path]) -> Library:
    """The papers back from `write_library`'s files, without the tagger (labels are stored)."""
    papers = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line:
                # The source names the file as the library lists it, as the loaders do:
                # that is how the index finds the papers of a changed file.
                data = json.loads(line)
                data["sources"] = [{"path": str(path), "line": number}]
                papers.append(Paper.from_dict(data))
    return Library(papers=tuple(papers), files=tuple(str(path) for path in files))


# What `changed_papers` adds, taken off again before the next round's: appended round after
# round on a reused work folder, the 100 papers grew to ~270-word titles and ~1,000-word
# abstracts (after ~130 rounds), and every update indexed ever longer papers.
_REVISED_TITLE = re.compile(r"(?: \(revised \w+\))+$")
_REVISED_ABSTRACT = re.compile(r"(?: We revise this with \w+ results\.)+$")


def changed_papers(papers: Sequence[Paper], file_name: str, count: int, marker: str) -> list[Paper]:
    """Copies of `papers` where `count` papers of `file_name` got a new title and sentence
    (the last round's replaced, so the papers keep their size round after round).

    The marker word appears in no generated text, so a search for it must find exactly the
    changed papers once the index has caught up.
    """
    changed = 0
    result = []
    for paper in papers:
        if changed < count and paper.sources[0].path == file_name:
            changed += 1
            title = _REVISED_TITLE.sub("", paper.title)
            abstract = _REVISED_ABSTRACT.sub("", paper.abstract)
            paper = Paper.from_dict(
                {
                    **paper.to_dict(),
                    "title": f"{title} (revised {marker})",
                    "abstract": f"{abstract} We revise this with {marker} results.",
                }
            )
        result.append(paper)
    return result
