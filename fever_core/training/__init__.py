"""Training the workbench's own models: labelled pair sets and the 3-way claim verifier."""
