"""The verification layer: NLI stance per evidence sentence and the aggregate verdict."""
