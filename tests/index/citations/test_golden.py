"""Golden citations, written by hand from the style guides, for five bundled-like papers.

Where the CSL style (not paperscope) departs from the printed guide, the expectation
follows the CSL style and the comment says so: titles keep the capitalisation they were
published with (CSL cannot sentence-case reliably), and container titles are not
abbreviated (IEEE's "Proc." needs an abbreviation list no CSL processor ships).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from index.citations import format_citation

_spec = importlib.util.spec_from_file_location(
    "citation_papers", Path(__file__).with_name("citation_papers.py")
)
papers = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(papers)  # type: ignore[union-attr]

# APA 7, 10.1 (journal article), 9.8 (21+ authors: 19, an ellipsis, the last), 10.5 (a
# proceedings paper treated as a periodical), 9.11 (no author: the title moves first),
# 9.17 (no date: n.d.), 9.34 (article number: "Article e1005209"). No DOI for a
# preprint: its arXiv page is the URL. An incomplete list ends "et al." (see brief).
APA = {
    "dynapipe": (
        "Jiang, C., Jia, Z., Zheng, S., Wang, Y., & Wu, C. (2024). DynaPipe: Optimizing "
        "Multi-task Training through Dynamic Pipelines. Proceedings of the Nineteenth "
        "European Conference on Computer Systems, 542\u2013559. "
        "https://doi.org/10.1145/3627703.3629585"
    ),
    "bids-apps": (
        "Gorgolewski, K. J., Alfaro-Almagro, F., Auer, T., Bellec, P., Capot\u0103, M., "
        "Chakravarty, M. M., Churchill, N. W., Cohen, A. L., Craddock, R. C., Devenyi, G. A., "
        "Eklund, A., Esteban, O., Flandin, G., Ghosh, S. S., Guntupalli, J. S., Jenkinson, M., "
        "Keshavan, A., Kiar, G., Liem, F., \u2026 Poldrack, R. A. (2017). BIDS apps: Improving "
        "ease of use, accessibility, and reproducibility of neuroimaging data analysis "
        "methods. PLOS Computational Biology, 13(3), Article e1005209. "
        "https://doi.org/10.1371/journal.pcbi.1005209"
    ),
    "sam-med": (
        "Wang, C., Li, D., Wang, S., Zhang, C., Wang, Y., Liu, Y., & Yang, G. (2023). "
        "SAM^Med: A medical image annotation framework based on large vision model "
        "(arXiv:2307.05617). arXiv. https://arxiv.org/abs/2307.05617"
    ),
    "hawq-v3": (
        "Yao, Z., Dong, Z., Zheng, Z., et al. (2021). HAWQ-V3: Dyadic Neural Network "
        "Quantization. Proceedings of the 38th International Conference on Machine "
        "Learning. https://arxiv.org/abs/2011.10680"
    ),
    "rt-fcma": "[Real-time full correlation matrix analysis (FCMA) for rtfMRI]. (n.d.).",
}

# IEEE Reference Guide: initials first, "and" before the last of up to six names, "et
# al." after the first of seven or more; the title in quotes with the comma inside; "in"
# before proceedings; "Art. no." for an article number; a URL as "Available:" (the
# style's "[Online]." sits in a group with the access date, so it goes when that date is
# unknown, as CSL's group rule says and pandoc and citeproc-js do); no date printed when
# none is known (the style has no "n.d."). A preprint's number is Zotero's "arXiv:ID"
# after the publisher "arXiv", as Zotero prints it. A single reference is not numbered.
IEEE = {
    "dynapipe": (
        "C. Jiang, Z. Jia, S. Zheng, Y. Wang, and C. Wu, \u201cDynaPipe: Optimizing "
        "Multi-task Training through Dynamic Pipelines,\u201d in Proceedings of the "
        "Nineteenth European Conference on Computer Systems, ACM, 2024, pp. 542\u2013559. "
        "doi: 10.1145/3627703.3629585."
    ),
    "bids-apps": (
        "K. J. Gorgolewski et al., \u201cBIDS apps: Improving ease of use, accessibility, and "
        "reproducibility of neuroimaging data analysis methods,\u201d PLOS Computational "
        "Biology, vol. 13, no. 3, Art. no. e1005209, 2017, "
        "doi: 10.1371/journal.pcbi.1005209."
    ),
    "sam-med": (
        "C. Wang et al., \u201cSAM^Med: A medical image annotation framework based on large "
        "vision model,\u201d 2023, arXiv: arXiv:2307.05617. Available: "
        "https://arxiv.org/abs/2307.05617"
    ),
    "hawq-v3": (
        "Z. Yao, Z. Dong, Z. Zheng, et al., \u201cHAWQ-V3: Dyadic Neural Network "
        "Quantization,\u201d in Proceedings of the 38th International Conference on Machine "
        "Learning, PMLR, 2021. Available: https://arxiv.org/abs/2011.10680"
    ),
    "rt-fcma": "\u201c[Real-time full correlation matrix analysis (FCMA) for rtfMRI].\u201d",
}

# BibTeX: "Family, Given" names, `and others` for a cut list, braces around words whose
# capitals are deliberate, `--` page ranges, arXiv as eprint + archiveprefix, and a note
# (never an empty field) for what is not known.
BIBTEX = {
    "dynapipe": """@inproceedings{jiang2024dynapipe,
  author        = {Jiang, Chenyu and Jia, Zhen and Zheng, Shuai and Wang, Yida and Wu, Chuan},
  title         = {{DynaPipe}: Optimizing Multi-task Training through Dynamic Pipelines},
  booktitle     = {Proceedings of the Nineteenth European Conference on Computer Systems},
  year          = {2024},
  pages         = {542--559},
  publisher     = {ACM},
  doi           = {10.1145/3627703.3629585},
  eprint        = {2311.10418},
  archiveprefix = {arXiv},
  url           = {https://github.com/awslabs/optimizing-multitask-training-through-dynamic-pipelines}
}""",
    "bids-apps": """@article{gorgolewski2017bidsapps,
  author    = {Gorgolewski, Krzysztof J. and Alfaro-Almagro, Fidel and Auer, Tibor and \
Bellec, Pierre and Capot\u0103, Mihai and Chakravarty, M. Mallar and Churchill, Nathan W. and \
Cohen, Alexander Li and Craddock, R. Cameron and Devenyi, Gabriel A. and Eklund, Anders and \
Esteban, Oscar and Flandin, Guillaume and Ghosh, Satrajit S. and Guntupalli, J. Swaroop and \
Jenkinson, Mark and Keshavan, Anisha and Kiar, Gregory and Liem, Franziskus and \
Raamana, Pradeep Reddy and Raffelt, David and Steele, Christopher J. and \
Quirion, Pierre-Olivier and Smith, Robert E. and Strother, Stephen C. and \
Varoquaux, Ga\u00ebl and Wang, Yida and Yarkoni, Tal and Poldrack, Russell A.},
  title     = {{BIDS} apps: Improving ease of use, accessibility, and reproducibility of \
neuroimaging data analysis methods},
  journal   = {PLOS Computational Biology},
  year      = {2017},
  volume    = {13},
  number    = {3},
  pages     = {e1005209},
  publisher = {Public Library of Science},
  doi       = {10.1371/journal.pcbi.1005209}
}""",
    "sam-med": r"""@misc{wang2023sammed,
  author        = {Wang, Chenglong and Li, Dexuan and Wang, Sucheng and Zhang, Chengxiu and Wang, Yida and Liu, Yun and Yang, Guang},
  title         = {{SAM\textasciicircum{}Med}: A medical image annotation framework based on large vision model},
  year          = {2023},
  eprint        = {2307.05617},
  archiveprefix = {arXiv}
}""",
    "hawq-v3": """@inproceedings{yao2021hawqv3,
  author        = {Yao, Zhewei and Dong, Zhen and Zheng, Zhangcheng and others},
  title         = {{HAWQ-V3}: Dyadic Neural Network Quantization},
  booktitle     = {Proceedings of the 38th International Conference on Machine Learning},
  year          = {2021},
  publisher     = {PMLR},
  eprint        = {2011.10680},
  archiveprefix = {arXiv},
  note          = {Author list incomplete}
}""",
    "rt-fcma": """@misc{anonndrealtimefcma,
  title = {[Real-time full correlation matrix analysis ({FCMA}) for {rtfMRI}]},
  note  = {Title inferred from the abstract; no published title is known}
}""",
}


def _by_id(paper_id: str):
    return next(paper for paper in papers.five() if paper.id == paper_id)


@pytest.mark.parametrize("paper_id", list(APA))
def test_apa(paper_id: str) -> None:
    assert format_citation([_by_id(paper_id)], "apa") == APA[paper_id]


@pytest.mark.parametrize("paper_id", list(IEEE))
def test_ieee(paper_id: str) -> None:
    assert format_citation([_by_id(paper_id)], "ieee") == IEEE[paper_id]


@pytest.mark.parametrize("paper_id", list(BIBTEX))
def test_bibtex(paper_id: str) -> None:
    assert format_citation([_by_id(paper_id)], "bibtex") == BIBTEX[paper_id]


def test_apa_bibliography_is_alphabetical() -> None:
    """APA 9.44: by first author's surname; a work with no author files under its title.

    "[Real-time ...]" files under R: the bracket is no letter to sort by.
    """
    expected = [APA[i] for i in ("bids-apps", "dynapipe", "rt-fcma", "sam-med", "hawq-v3")]
    assert format_citation(papers.five(), "apa").split("\n") == expected


def test_ieee_bibliography_is_numbered_in_citation_order() -> None:
    """IEEE numbers references in the order they are cited: the order they were given."""
    given = list(reversed(papers.five()))
    lines = format_citation(given, "ieee").split("\n")
    assert lines == [f"[{n}] {IEEE[paper.id]}" for n, paper in enumerate(given, start=1)]


def test_bibtex_bibliography_keeps_order_and_blank_lines() -> None:
    text = format_citation(papers.five(), "bibtex")
    assert text == "\n\n".join(BIBTEX[paper.id] for paper in papers.five())
