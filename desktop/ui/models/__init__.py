"""Models of the Callmark window."""
