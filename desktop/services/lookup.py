"""The one way a service finds a record by its id, or says in one line that there is none."""

from __future__ import annotations

from desktop.errors import NotFound

# What each record is called when it is not there ("item 7: no such coaching item").
WHAT = {
    "Call": ("call", "no such call in this library"),
    "CoachingItem": ("item", "no such coaching item"),
    "CoachingSession": ("session", "no such coaching session"),
    "Cycle": ("cycle", "no such cycle"),
    "Moment": ("moment", "no such moment"),
    "Calibration": ("calibration", "no such calibration"),
    "Opportunity": ("opportunity", "no such opportunity in this library"),
    "ParkedObservation": ("parked observation", "no such observation"),
}


def one(session, model, key):
    """``session.get(model, key)``, or NotFound naming the record."""
    found = session.get(model, int(key))
    if found is None:
        noun, problem = WHAT.get(model.__name__, (model.__name__.lower(), "not found"))
        raise NotFound(f"{noun} {key}: {problem}")
    return found
