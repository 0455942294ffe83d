"""Controllers of the Callmark window."""
