"""Render the app icon's PNG sizes from its SVG (run after changing the SVG; the PNGs are committed).

    QT_QPA_PLATFORM=offscreen .venv/bin/python resources/icons/make_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

HICOLOR = Path(__file__).resolve().parent / "hicolor"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)  # the hicolor theme's usual application sizes


def main() -> None:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (the renderer needs one)
    renderer = QSvgRenderer(str(HICOLOR / "scalable" / "apps" / "callmark.svg"))
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        out = HICOLOR / f"{size}x{size}" / "apps" / "callmark.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        image.save(str(out))
        print(out)


if __name__ == "__main__":
    main()
