"""The portable coaching record: one import for callers (CLI, store, GUI).

The format lives in record_model.py; reading and writing in record_io.py.
"""

from desktop.exchange.record_io import (MAX_RECORD_BYTES, RecordError, build_record,
                                        canonical_json, compute_checksum, consistency_problems,
                                        dump_record, load_record, parse_record, record_to_plain,
                                        write_record)
from desktop.exchange.record_model import (RECORD_FORMAT, RECORD_VERSION, SCHEMA_PATH, Behavior,
                                           Call, Checksum, CoachingItem, CoachingRecord,
                                           ContinueAfter, Manager, Media, Moment, NextEvidence,
                                           Opportunity, Owner, Participant, Person, Practice,
                                           ReviewRule, Segment, Transcript, record_schema,
                                           schema_text, write_schema)
from desktop.exchange.safe_write import ExportError

__all__ = [
    "MAX_RECORD_BYTES", "RECORD_FORMAT", "RECORD_VERSION", "SCHEMA_PATH",
    "Behavior", "Call", "Checksum", "CoachingItem", "CoachingRecord", "ContinueAfter",
    "ExportError", "Manager", "Media", "Moment", "NextEvidence", "Opportunity", "Owner",
    "Participant", "Person", "Practice", "RecordError", "ReviewRule", "Segment", "Transcript",
    "build_record", "canonical_json", "compute_checksum", "consistency_problems", "dump_record",
    "load_record", "parse_record", "record_schema", "record_to_plain", "schema_text",
    "write_record", "write_schema",
]
