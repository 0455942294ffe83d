"""Dialogs of the Callmark window."""
