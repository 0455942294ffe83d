"""The store's tables: one module per part of the method, all on one MetaData."""

from db.base import Base
from db.models.calibration import Calibration
from db.models.calls import Call, Person, Segment, Setting, Speaker, Transcript
from db.models.coaching import CoachingItem, ItemEvidence, Moment, ParkedObservation
from db.models.crm import Opportunity, OpportunitySnapshot
from db.models.cycles import CoachingSession, Cycle, FocusChange, Observation, Review
from db.models.suggestions import SuggestionCache, SuggestionVerdict
from db.models.queue import QueueState, TranscriptionJob
from db.models.trackers import Tracker, TrackerCall, TrackerHit

__all__ = [
    "Base", "Calibration", "Call", "CoachingItem", "CoachingSession", "Cycle", "FocusChange",
    "ItemEvidence", "Moment", "Observation", "Opportunity", "OpportunitySnapshot",
    "ParkedObservation", "Person", "QueueState", "Review", "Segment", "Setting", "Speaker", "SuggestionCache",
    "SuggestionVerdict", "Tracker", "TrackerCall", "TrackerHit", "Transcript", "TranscriptionJob",
]
