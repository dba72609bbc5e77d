"""Real PDFs of the kinds researchers attach, made in the test: Typst and reportlab.

Typst (the `typst` wheel the suite already uses) writes what LaTeX users' papers look like:
two columns, hyphenated lines, ligatures (ﬁ, ﬂ, ﬀ) and math. reportlab writes the rest:
a scanned page (an image, no text layer) and an encrypted file.
"""

from __future__ import annotations

from pathlib import Path

import typst

__all__ = ["encrypted_pdf", "paper_pdf", "scanned_pdf", "text_pdf"]

# Column one holds the first sentence, column two the marker sentence (the filler pushes
# it there); page two starts with its own sentence.
PAPER = """#set page(columns: 2, height: 12cm, width: 14cm)
#set text(hyphenate: true, lang: "en")
= Efficient finite-state fixtures
The KV cache is paged in blocks of sixteen tokens. Official workflows of efficient
offloading affect the fluffy figures. #lorem(120)
Second column marker sentence about quokkas.
#pagebreak()
On page two, the theorem of Pythagoras: $a^2 + b^2 = c^2$. #lorem(40)
"""


def paper_pdf(folder: Path, name: str = "paper.pdf") -> Path:
    """A two-page, two-column paper with hyphenation, ligatures and math."""
    source = folder / "paper.typ"
    source.write_text(PAPER, encoding="utf-8")
    path = folder / name
    path.write_bytes(typst.compile(str(source)))
    return path


def scanned_pdf(path: Path) -> Path:
    """Two pages of image only, as a scanner writes them."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    png = _grey_png(path.parent / "scan.png")
    pdf = canvas.Canvas(str(path))
    for _ in range(2):
        pdf.drawImage(ImageReader(str(png)), 50, 50, width=400, height=500)
        pdf.showPage()
    pdf.save()
    return path


def encrypted_pdf(path: Path) -> Path:
    """A PDF with text that only opens with a password."""
    from reportlab.lib.pdfencrypt import StandardEncryption
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), encrypt=StandardEncryption("secret", canPrint=0))
    pdf.drawString(72, 720, "Confidential method section")
    pdf.save()
    return path


def _grey_png(path: Path) -> Path:
    """A small grey PNG written by hand (zlib and the PNG chunks: no imaging library)."""
    import struct
    import zlib

    width, height = 8, 8
    raw = b"".join(b"\x00" + bytes([128] * width) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
    return path


def text_pdf(path: Path, pages: list[str]) -> Path:
    """A plain PDF with one line of text on each page, in order."""
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path))
    for line in pages:
        pdf.drawString(72, 720, line)
        pdf.showPage()
    pdf.save()
    return path
