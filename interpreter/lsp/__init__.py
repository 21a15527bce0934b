"""A language server for rules files and the card data they load.

The `lsp` command runs it over stdio (pygls with lsprotocol): diagnostics as
the text changes (the messages and spans of `check`), hover, go to
definition, references, completion, rename and an outline.
"""
