"""The leading-indicator dashboard for one manager's cycle: six figures, charts by week, the checklist.

One manager at a time, by design: the method keeps these figures a coaching
tool, never a leaderboard, so nothing here lists or compares managers.
"""

from __future__ import annotations

from PySide6.QtCharts import (
    QBarCategoryAxis, QBarSeries, QBarSet, QChart, QChartView, QLineSeries, QValueAxis,
)
from PySide6.QtCore import QMargins, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QFrame, QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QSplitter, QTreeWidget, QTreeWidgetItem,
    QVBoxLayout, QWidget,
)

from desktop.core.indicators import INDICATOR_KEYS
from desktop.services.indicators import IndicatorReport

TITLES = {
    "coaching_frequency": ("Coaching frequency", "sessions held / planned"),
    "action_completion": ("Action completion", "practice actions done / agreed"),
    "feedback_specificity": ("Feedback specificity", "items passing the check / items"),
    "inspection_quality": ("Inspection quality", "reviews using customer or CRM evidence"),
    "behavior_adoption": ("Behavior adoption", "seen / later calls and reviews checked"),
    "evidence_capture": ("Evidence capture", "held sessions with a moment or example"),
}
# Okabe-Ito: distinct for the common colour-vision deficiencies (as desktop.ui.style).
COLOURS = dict(zip(INDICATOR_KEYS, ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")))
MARKS = {True: "✔", False: "✘", None: "…"}


class FigureCard(QFrame):
    """One indicator: the share in large type, numerator / denominator under it."""

    def __init__(self, key: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.key = key
        self.setObjectName(f"card_{key}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(f"#card_{key} {{ border-left: 6px solid {COLOURS[key]}; background: #fafafa; }}")
        title, what = TITLES[key]
        self.title = QLabel(f"<b>{title}</b>")
        self.value = QLabel("—")
        font = QFont(self.value.font())
        font.setPointSize(font.pointSize() + 9)
        font.setBold(True)
        self.value.setFont(font)
        self.ratio = QLabel(what)
        self.ratio.setStyleSheet("color: #555;")
        self.ratio.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 8, 8)
        layout.addWidget(self.title)
        layout.addWidget(self.value)
        layout.addWidget(self.ratio)

    def set_figure(self, numerator: int, denominator: int, value: float | None) -> None:
        self.value.setText("—" if value is None else f"{value:.0%}")
        what = TITLES[self.key][1]
        self.ratio.setText(f"{numerator} of {denominator} — {what}" if denominator else f"nothing yet — {what}")


def _chart(title: str) -> QChart:
    chart = QChart()
    chart.setTitle(title)
    chart.setAnimationOptions(QChart.AnimationOption.NoAnimation)  # grabs and screenshots see the final state
    chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
    chart.legend().setShowToolTips(True)
    chart.setMargins(QMargins(4, 4, 4, 4))
    return chart


class DashboardView(QWidget):
    """Lays out the figures, the two charts and the item checklist; `show_report` fills them."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("coachingDashboard")
        self.heading = QLabel()
        self.heading.setObjectName("dashboardHeading")
        self.heading.setWordWrap(True)
        self.cards = {key: FigureCard(key) for key in INDICATOR_KEYS}
        grid = QGridLayout()
        for n, key in enumerate(INDICATOR_KEYS):
            grid.addWidget(self.cards[key], 0, n)  # one row: the six read left to right

        self.trend_chart = _chart("Leading indicators by week of the cycle (cumulative)")
        self.trend_view = QChartView(self.trend_chart)
        self.trend_view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.trend_view.setMinimumHeight(260)
        self.week_chart = _chart("Each week: sessions and later evidence")
        self.week_view = QChartView(self.week_chart)
        self.week_view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.week_view.setMinimumHeight(260)

        self.checklist = QTreeWidget()
        self.checklist.setObjectName("qualityChecklist")
        self.checklist.setHeaderLabels(["Quality review", "Why"])
        self.checklist.setColumnWidth(0, 460)
        self.checklist.setUniformRowHeights(True)
        self.checklist.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.checklist.setMinimumHeight(170)

        charts = QHBoxLayout()
        charts.addWidget(self.trend_view, 3)
        charts.addWidget(self.week_view, 2)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.heading)
        top_layout.addLayout(grid)
        top_layout.addLayout(charts, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.checklist)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(split)

    # --- filling -----------------------------------------------------------------------------

    def show_report(self, report: IndicatorReport) -> None:
        c = report.cycle
        self.heading.setText(
            f"<h2 style='margin:0'>{c.manager}</h2>"
            f"Cycle from {c.start_date:%d %b %Y} to {c.end_date:%d %b %Y} · {c.conversation_model.upper()} · "
            f"as of {report.as_of:%d %b %Y}: day {c.now.day}, {c.now.label}<br>"
            f"<i>Focus: {c.focus_behavior or 'not chosen yet'}</i>")
        for key in INDICATOR_KEYS:
            figure = getattr(report.indicators, key)
            self.cards[key].set_figure(figure.numerator, figure.denominator, figure.value)
        if report.proposals_waiting:  # only confirmed observations count: say what is still to confirm
            card = self.cards["behavior_adoption"]
            card.ratio.setText(f"{card.ratio.text()} · {report.proposals_waiting} proposed from later calls, "
                               "to confirm")
        self._fill_trend(report)
        self._fill_weeks(report)
        self._fill_checklist(report)

    def _fill_trend(self, report: IndicatorReport) -> None:
        chart = self.trend_chart
        chart.removeAllSeries()
        for axis in chart.axes():
            chart.removeAxis(axis)
        weeks = report.series
        x = QValueAxis()
        x.setRange(1, max(13, len(weeks)))
        x.setTickCount(max(13, len(weeks)))
        x.setLabelFormat("%d")
        x.setTitleText("week of the cycle")
        y = QValueAxis()
        y.setRange(0, 100)
        y.setLabelFormat("%d%%")
        chart.addAxis(x, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(y, Qt.AlignmentFlag.AlignLeft)
        for key in INDICATOR_KEYS:
            series = QLineSeries()
            series.setName(TITLES[key][0].split()[-1].capitalize())  # short: the legend fits one row
            pen = QPen(QColor(COLOURS[key]))
            pen.setWidth(3)
            series.setPen(pen)
            series.setPointsVisible(True)
            for point in weeks:
                value = getattr(point.indicators, key).value
                if value is not None:  # no figure yet: no point, rather than a false 0 %
                    series.append(point.week, round(value * 100, 1))
            chart.addSeries(series)
            series.attachAxis(x)
            series.attachAxis(y)

    def _fill_weeks(self, report: IndicatorReport) -> None:
        """Per week (not cumulative): sessions held of planned, observations seen of checked."""
        chart = self.week_chart
        chart.removeAllSeries()
        for axis in chart.axes():
            chart.removeAxis(axis)
        labels, planned, held, checked, seen = [], [], [], [], []
        for point in report.each_week:
            labels.append(str(point.week))
            f_sessions, f_seen = point.indicators.coaching_frequency, point.indicators.behavior_adoption
            planned.append(f_sessions.denominator)
            held.append(f_sessions.numerator)
            checked.append(f_seen.denominator)
            seen.append(f_seen.numerator)
        bars = QBarSeries()
        for name, values, colour in (("sessions planned", planned, "#BBBBBB"),
                                     ("sessions held", held, COLOURS["coaching_frequency"]),
                                     ("evidence checked", checked, "#F0D9A8"),
                                     ("behavior seen", seen, COLOURS["behavior_adoption"])):
            bar = QBarSet(name)
            bar.setColor(QColor(colour))
            bar.append([float(v) for v in values])
            bars.append(bar)
        bars.setBarWidth(0.85)
        chart.addSeries(bars)
        x = QBarCategoryAxis()
        x.append(labels or ["1"])
        x.setTitleText("week of the cycle")
        y = QValueAxis()
        y.setRange(0, max([2, *planned, *checked]) + 1)
        y.setLabelFormat("%d")
        y.setTickCount(int(y.max()) + 1 if y.max() <= 6 else 5)
        chart.addAxis(x, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(y, Qt.AlignmentFlag.AlignLeft)
        bars.attachAxis(x)
        bars.attachAxis(y)

    def _fill_checklist(self, report: IndicatorReport) -> None:
        self.checklist.clear()
        for q in report.quality:
            top = QTreeWidgetItem([f"Item {q.item_id}: {q.title}",
                                   f"Review: {q.proposal.decision or 'wait'} — {q.proposal.reason}"])
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            for check in q.checks:
                child = QTreeWidgetItem([f"{MARKS[check.ok]}  {check.label}", check.reason])
                child.setToolTip(0, check.question)
                colour = {True: "#1a7f37", False: "#b42318", None: "#666666"}[check.ok]
                child.setForeground(0, QColor(colour))
                top.addChild(child)
            self.checklist.addTopLevelItem(top)
            top.setExpanded(True)
        if not report.quality:
            self.checklist.addTopLevelItem(QTreeWidgetItem(["No coaching item in this cycle yet", ""]))
