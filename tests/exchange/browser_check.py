"""Open an HTML file in a real Chromium (Qt WebEngine, offscreen) and report what it tried to do.

Run as `python -m tests.exchange.browser_check FILE`; prints JSON with the alerts
raised, the <script> elements in the live DOM, the <audio> elements and every
URL the page asked for. A child process keeps WebEngine away from pytest-qt's
QApplication.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def main(path: str) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")  # containers run tests as root
    os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu --no-sandbox")
    from PySide6.QtCore import QEventLoop, QTimer, QUrl
    from PySide6.QtWebEngineCore import (QWebEnginePage, QWebEngineProfile,
                                         QWebEngineUrlRequestInterceptor)
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv[:1])
    requests: list[str] = []
    alerts: list[str] = []

    class Interceptor(QWebEngineUrlRequestInterceptor):
        def interceptRequest(self, info):  # noqa: N802 (Qt's name)
            url = info.requestUrl().toString()
            requests.append(url[:60])
            if not url.startswith(("data:", "file:")):
                info.block(True)

    class Page(QWebEnginePage):
        def javaScriptAlert(self, url, message):  # noqa: N802
            alerts.append(message)

        def javaScriptConfirm(self, url, message):  # noqa: N802
            alerts.append(message)
            return False

    profile = QWebEngineProfile()
    interceptor = Interceptor()
    profile.setUrlRequestInterceptor(interceptor)
    page = Page(profile)
    loop = QEventLoop()
    page.loadFinished.connect(lambda ok: loop.quit())
    page.load(QUrl.fromLocalFile(str(Path(path).resolve())))
    QTimer.singleShot(20000, loop.quit)
    loop.exec()
    result: dict[str, object] = {}

    def ask(name: str, script: str) -> None:
        page.runJavaScript(script, 0, lambda value: (result.__setitem__(name, value), loop.quit()))
        QTimer.singleShot(5000, loop.quit)
        loop.exec()

    ask("scripts", "document.querySelectorAll('script').length")
    ask("audio", "document.querySelectorAll('audio').length")
    ask("handlers", "Array.from(document.querySelectorAll('*')).filter(e => "
                    "Array.from(e.attributes).some(a => a.name.startsWith('on'))).length")
    QTimer.singleShot(1000, loop.quit)  # let any late handler fire
    loop.exec()
    print(json.dumps({"alerts": alerts, "requests": requests, **result}))
    page.deleteLater()
    app.processEvents()


if __name__ == "__main__":
    main(sys.argv[1])
