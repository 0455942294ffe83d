"""Views of the Callmark window."""
