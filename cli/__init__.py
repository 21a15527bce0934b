"""The `catalyst` command line: thin Click commands over the interpreter."""
