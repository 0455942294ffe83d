"""The opportunity's fields are declared once: the export's row, the plan's snapshot, the service's
opportunity, the import's lists and the evidence labels all come from that one declaration."""

from __future__ import annotations

import dataclasses

from sqlalchemy import Date

from db.models import Opportunity
from desktop.core import opportunity
from desktop.exchange import crm_headers, crm_plan
from desktop.exchange.crm_csv import OpportunityRow
from desktop.services import crm


def test_every_shape_of_an_opportunity_carries_the_declared_fields():
    for shape in (OpportunityRow, crm_plan.OpportunitySnapshot, crm.OpportunityInfo):
        names = [f.name for f in dataclasses.fields(shape)]
        assert names[:len(opportunity.NAMES)] == list(opportunity.NAMES), shape


def test_the_lists_the_import_and_the_evidence_use_are_the_declared_ones():
    assert crm_headers.FIELDS == ("external_id", "name", "account", "stage", "next_step", "next_step_date",
                                  "close_date", "owner", "last_modified")
    assert crm_headers.DATE_FIELDS == ("next_step_date", "close_date", "last_modified")
    assert crm_plan.COMPARED_FIELDS == opportunity.NAMES
    assert crm.HISTORY_FIELDS == ("stage", "next_step", "next_step_date")
    assert crm.CITABLE_FIELDS == {"stage": "Stage", "next_step": "Next step", "next_step_date": "Next step date",
                                  "close_date": "Close date"}


def test_the_store_keeps_each_declared_field_in_a_column_of_its_kind():
    columns = Opportunity.__table__.columns
    for name in opportunity.NAMES:
        assert name in columns, name
        assert isinstance(columns[name].type, Date) == (name in opportunity.DATES), name
