"""Loading the facet taxonomy: the bundled vocabulary, user overrides, and broken files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from index.facets.tagger import tag_paper
from index.facets.taxonomy import TaxonomyError, load_taxonomy
from index.models import Paper

TOPICS = [
    "training",
    "inference",
    "pretraining",
    "compilers",
    "quantization",
    "kernels",
    "gnn",
    "nlp",
    "vision",
    "autonomous-driving",
    "neuroscience",
    "networking",
    "reliability",
    "agents",
]
HIERARCHY = {
    "gpu": None,
    "nvidia-gpu": "gpu",
    "amd-gpu": "gpu",
    "edge-gpu": "gpu",
    "cpu": None,
    "intel-cpu": "cpu",
    "arm-cpu": "cpu",
    "accelerator": None,
    "aws-trainium": "accelerator",
    "aws-inferentia": "accelerator",
    "google-tpu": "accelerator",
    "xeon-phi": "accelerator",
    "fpga": "accelerator",
}


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_bundled_vocabulary_is_the_corpus_one() -> None:
    taxonomy = load_taxonomy()
    assert [v.id for v in taxonomy.topics] == TOPICS
    assert {v.id: v.parent for v in taxonomy.hardware} == HIERARCHY
    for value in (*taxonomy.topics, *taxonomy.hardware):
        assert value.label and "\n" not in value.label
        assert value.description and "\n" not in value.description
        assert value.signals or value.cased or value.weak, value.id


def test_the_bundled_file_passes_the_checks_a_user_file_gets() -> None:
    # Its regexes are not compiled at start-up (trusted for speed); this is that check:
    # read again as a user file, every pattern is compiled and tested on empty text.
    bundled = Path(load_taxonomy().files[0])
    assert load_taxonomy([bundled]).fingerprint == load_taxonomy().fingerprint


def test_only_user_files_have_their_regexes_checked_at_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import index.facets.taxonomy as taxonomy_module

    checked: list[str] = []
    real = taxonomy_module.compile_rule

    def checking(pattern: str, cased: bool) -> Any:
        checked.append(pattern)
        return real(pattern, cased)

    monkeypatch.setattr(taxonomy_module, "compile_rule", checking)
    load_taxonomy([write(tmp_path, "[topic.gnn]\nsignals = ['graph nets?']\n")])
    assert checked == ["graph nets?"]


def test_hierarchy_helpers() -> None:
    taxonomy = load_taxonomy()
    assert taxonomy.parent("nvidia-gpu") == "gpu"
    assert taxonomy.parent("gpu") is None
    assert taxonomy.children("accelerator") == (
        "aws-trainium",
        "aws-inferentia",
        "google-tpu",
        "xeon-phi",
        "fpga",
    )
    assert taxonomy.ancestors("arm-cpu") == ("cpu",)
    assert taxonomy.ancestors("training") == ()
    assert taxonomy.label("hardware", "nvidia-gpu") == "NVIDIA GPU"
    assert taxonomy.label("topic", "no-such-topic") == "no-such-topic"
    assert taxonomy.value("topic", "gnn").facet == "topic"
    with pytest.raises(KeyError):
        taxonomy.value("hardware", "training")


def test_fingerprint_is_stable_and_follows_the_content(tmp_path: Path) -> None:
    assert load_taxonomy().fingerprint == load_taxonomy().fingerprint
    same = write(tmp_path, '[topic.gnn]\nlabel = "Graph neural networks"\n')
    assert load_taxonomy([same]).fingerprint == load_taxonomy().fingerprint
    changed = write(tmp_path, '[topic.gnn]\nlabel = "GNNs"\n', "other.toml")
    assert load_taxonomy([changed]).fingerprint != load_taxonomy().fingerprint


def test_a_user_file_overrides_a_label_and_adds_a_topic(tmp_path: Path) -> None:
    user = write(
        tmp_path,
        """
[topic.gnn]
label = "Graph learning"

[topic.recsys]
label = "Recommender systems"
description = "Recommendation models and the systems that train and serve them."
aliases = ["recommendation"]
signals = ['recommend(?:er|ation) (?:systems?|models?)', 'embedding tables?']
cased = ['DLRM']
""",
    )
    taxonomy = load_taxonomy([user])
    assert taxonomy.label("topic", "gnn") == "Graph learning"
    assert taxonomy.value("topic", "gnn").signals == load_taxonomy().value("topic", "gnn").signals
    assert [v.id for v in taxonomy.topics] == [*TOPICS, "recsys"]
    paper = tag_paper(
        Paper(
            id="p",
            title="",
            abstract="Sharding embedding tables of DLRM across 64 GPUs for distributed training.",
        ),
        taxonomy,
    )
    assert paper.topic_ids == ("training", "recsys")
    assert paper.topics[1].reason == 'matched "embedding tables", "DLRM"'
    keyword = tag_paper(
        Paper(id="k", title="", abstract="", keywords=("Recommendation",)), taxonomy
    )
    assert keyword.topic_ids == ("recsys",)


def test_later_files_win_and_extend_appends(tmp_path: Path) -> None:
    first = write(tmp_path, '[topic.agents]\nlabel = "Agents (first)"\n', "a.toml")
    second = write(
        tmp_path,
        """
[topic.agents]
label = "Agents"
extend = true
signals = ['tool-using models?']

[hardware.cpu]
signals = ['risc-v']
""",
        "b.toml",
    )
    taxonomy = load_taxonomy([first, second])
    agents = taxonomy.value("topic", "agents")
    assert agents.label == "Agents"
    assert agents.signals[-1] == "tool-using models?" and len(agents.signals) > 1
    assert taxonomy.value("hardware", "cpu").signals == ("risc-v",)
    paper = tag_paper(
        Paper(id="p", title="", abstract="Tool-using models on RISC-V boards."), taxonomy
    )
    assert "agents" in paper.topic_ids and paper.hardware_ids == ("cpu",)


def test_a_new_hardware_leaf_implies_its_parent(tmp_path: Path) -> None:
    user = write(
        tmp_path,
        """
[hardware.apple-gpu]
label = "Apple GPU"
description = "GPUs in Apple silicon."
parent = "edge-gpu"
signals = ['apple m[1-4](?: (?:pro|max|ultra))?']
""",
    )
    paper = tag_paper(
        Paper(id="p", title="", abstract="Runs on an Apple M2 Max laptop."), load_taxonomy([user])
    )
    assert paper.hardware_ids == ("gpu", "edge-gpu", "apple-gpu")
    assert [label.reason for label in paper.hardware] == [
        "implied by apple-gpu",
        "implied by apple-gpu",
        'matched "Apple M2 Max"',
    ]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[topic.gnn]\nlabel = "x"\n\n[topic.nlp\nlabel = "y"\n', 4, "TOML syntax error"),
        ("[topic.gnn]\nlabel = \"x\"\nsignals = ['a',\n  'b'\nlabel = 3\n", 5, "TOML syntax"),
        (
            '[topic.gnn]\nlabel = "x"\n\n[hardware.riscv]\nlabel = "RISC-V"\n'
            'description = "RISC-V CPUs."\nparent = "cpus"\n',
            7,
            "unknown parent 'cpus'",
        ),
        ("[topic.gnn]\nlabel = \"x\"\nsignals = ['graph (neural']\n", 3, "bad regex"),
        ("[topic.gnn]\nlabel = \"x\"\nweak = [\n  'gnn',\n  '[unclosed',\n]\n", 5, "bad regex"),
        ("[topic.gnn]\nlabel = \"x\"\nsignal = ['gnn']\n", 3, "unknown key 'signal'"),
        ('[topic.gnn]\nlabel = "x"\nweak = "gnn"\n', 3, "must be a list of strings"),
        ('\n[topic.robots]\nlabel = "Robots"\n', 2, "needs a description"),
        ('[topics.gnn]\nlabel = "x"\n', 1, "unknown table [topics]"),
        ('[settings]\nfallback_topic = "misc"\n', 2, "'fallback_topic' is no longer used"),
        ("[topic.gnn]\nlabel = \"x\"\nhints = ['graphs?']\n", 3, "'hints' is no longer used"),
        ('[settings]\nfallback = "nlp"\n', 2, "unknown setting 'fallback'"),
        ("[topic.gnn]\nsignals = ['gnn', '(?:graph)?']\n", 2, "matches empty text"),
        ('[topic.gnn]\ndescription = """Graphs.\nAnd more."""\n', 2, "must be one line"),
        ('[topic."Bad Id"]\nlabel = "x"\ndescription = "y"\n', 1, "bad id"),
    ],
)
def test_a_broken_file_names_its_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(TaxonomyError) as caught:
        load_taxonomy([path])
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert words in message
    assert "\n" not in message


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(TaxonomyError, match=r"nope\.toml: cannot read the taxonomy file"):
        load_taxonomy([missing])


def test_a_hierarchy_loop_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[hardware.gpu]\nparent = "nvidia-gpu"\n')
    with pytest.raises(TaxonomyError, match=r":2: hardware.gpu: parents form a loop"):
        load_taxonomy([path])
