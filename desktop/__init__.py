"""Callmark: replay sales calls beside their transcript and coach one behavior at a time."""

__version__ = "0.1.0"
