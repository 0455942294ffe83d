"""Widgets of the Callmark window."""
