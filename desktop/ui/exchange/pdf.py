"""The session packet as a PDF for printing: Qt's QTextDocument and QPdfWriter, no browser engine.

QTextDocument reads a subset of HTML 4 and CSS 2 (no CSS variables, no grid,
no audio), so the packet's HTML is given a plain print style sheet and its
clips are dropped before layout. The PDF is made in memory and written whole
(atomic_write_bytes): a failure leaves no half file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from desktop.exchange.safe_write import atomic_write_bytes

PRINT_STYLE = """
body { font-family: 'DejaVu Sans', 'Helvetica', 'Arial', sans-serif; font-size: 10pt; color: #1f2933; }
h1 { font-size: 17pt; margin-top: 2pt; margin-bottom: 6pt; }
h2 { font-size: 12.5pt; color: #2f6f73; margin-top: 14pt; margin-bottom: 6pt; }
p.eyebrow { font-size: 8pt; color: #2f6f73; text-transform: uppercase; margin: 0; }
table.meta td { color: #5f6b7a; font-size: 9pt; }
td.label { font-weight: bold; color: #5f6b7a; font-size: 9pt; }
table.plan { margin-top: 6pt; }
.item-number { color: #5f6b7a; font-weight: normal; }
p.when { font-size: 8.5pt; color: #5f6b7a; margin-bottom: 2pt; }
blockquote { font-style: italic; font-size: 10.5pt; margin-left: 14pt; margin-right: 8pt; margin-top: 2pt;
             margin-bottom: 2pt; }
p.coach-note { font-size: 9pt; color: #5f6b7a; margin-left: 14pt; }
td.behavior { font-weight: bold; font-size: 10.5pt; background-color: #e8f2f2; }
span.tag { font-size: 8pt; font-weight: bold; color: #2f6f73; }
div.findings { font-size: 9pt; margin-top: 6pt; }
div.open { color: #8a5a00; background-color: #fdf4e3; }
div.resolved { color: #5f6b7a; }
p.stage { font-weight: bold; margin-top: 8pt; margin-bottom: 2pt; }
p.note, footer { font-size: 8.5pt; color: #5f6b7a; }
"""


def print_html(packet_html: str) -> str:
    """The packet's HTML as QTextDocument lays it out for paper: no audio, a plain style sheet."""
    html = re.sub(r"<audio\b[^>]*>.*?</audio>", "", packet_html, flags=re.S)
    html = re.sub(r"<style>.*?</style>", f"<style>{PRINT_STYLE}</style>", html, count=1, flags=re.S)
    # Item cards become a rule above each item: QTextDocument draws no borders around blocks.
    html = html.replace('<article class="item">', '<hr/><div class="item">').replace("</article>", "</div>")
    html = html.replace("<footer>", '<hr/><p class="note">').replace("</footer>", "</p>")
    html = html.replace("<header>", "<div>").replace("</header>", "</div>")
    html = re.sub(r'<dl class="(meta|plan)">(.*?)</dl>', _as_table, html, flags=re.S)
    html = re.sub(r'(<span class="tag">[^<]*</span>)', r"\1&nbsp; ", html)
    return html.replace('<section class="moment">', '<div class="moment">').replace("</section>", "</div>")


def _as_table(match: re.Match) -> str:
    """Label / value pairs as a two-column table: QTextDocument lays a <dl> out one line per part."""
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd([^>]*)>(.*?)</dd>", match.group(2), flags=re.S)
    width = "22%" if match.group(1) == "plan" else "26%"
    rows = "".join(f'<tr><td width="{width}" class="label">{label}</td><td{attrs}>{value}</td></tr>'
                   for label, attrs, value in pairs)
    return f'<table class="{match.group(1)}" width="100%" cellspacing="0" cellpadding="2">{rows}</table>'


def _ensure_gui() -> None:
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    if QGuiApplication.instance() is None:
        # The CLI has no window: lay out text with the offscreen platform. A full QApplication,
        # not a QGuiApplication: anything in the same process that later makes a widget would abort.
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _ensure_gui.app = QApplication([])  # type: ignore[attr-defined] - kept alive for the process


def pdf_bytes(packet_html: str, title: str = "Coaching session packet") -> bytes:
    """Lay the packet out on A4 pages and return the PDF file's bytes."""
    _ensure_gui()
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("Callmark")
    writer.setResolution(300)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(16, 18, 16, 18), QPageLayout.Unit.Millimeter))
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setHtml(print_html(packet_html))
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    document.setPageSize(QSizeF(rect.width(), rect.height()))
    keep_headings_with_text(document)
    document.print_(writer)
    del writer  # finishes the PDF into the buffer
    buffer.close()
    return bytes(data.data())


def keep_headings_with_text(document, passes: int = 4) -> int:
    """A heading that would end a page, its text on the next, starts the next page instead (QTextDocument
    has no keep-with-next). Returns how many headings were moved."""
    from PySide6.QtGui import QTextBlockFormat, QTextCursor

    page = document.pageSize().height()
    layout = document.documentLayout()
    moved = 0
    for _ in range(passes):
        changed = False
        block = document.begin()
        while block.isValid():
            nxt = block.next()
            if block.blockFormat().headingLevel() and nxt.isValid():
                top = layout.blockBoundingRect(block)
                after = layout.blockBoundingRect(nxt)
                first_line = nxt.layout().lineAt(0).height() if nxt.layout().lineCount() else after.height()
                # the heading's page, and the page where the first line of its text would end
                if int(top.top() // page) != int((after.top() + first_line) // page):
                    cursor = QTextCursor(block)
                    fmt = QTextBlockFormat(block.blockFormat())
                    fmt.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                    cursor.setBlockFormat(fmt)
                    moved += 1
                    changed = True
            block = nxt
        if not changed:
            break
    return moved


def write_pdf(path: Path | str, packet_html: str, title: str = "Coaching session packet") -> Path:
    """Write the packet as a PDF atomically (ExportError on failure)."""
    return atomic_write_bytes(path, pdf_bytes(packet_html, title))
