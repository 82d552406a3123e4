"""The retrieval layer: documents (title match, dense, lexical, TF-IDF baseline) and sentences."""
