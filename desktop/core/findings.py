"""A finding of the specificity check: one rule that failed, with its reason and a suggestion."""

from __future__ import annotations

from dataclasses import dataclass

from desktop.core.enums import Severity

__all__ = ["Finding", "passes"]


@dataclass(frozen=True)
class Finding:
    component: str  # evidence, behavior, practice, next_evidence, consequence, owner
    severity: Severity
    message: str
    suggestion: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"component": self.component, "severity": str(self.severity),
                "message": self.message, "suggestion": self.suggestion}


def passes(findings: list[Finding]) -> bool:
    return not any(f.severity == Severity.ERROR for f in findings)
