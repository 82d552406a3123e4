"""The corpus layer: the SQLite page store, the sources that fill it, and hyperlink anchoring."""
