"""Budgets on what users give the tool: sizes of files, of declarations and
of card data. Each stop names the input and the limit (docs/security.md
lists them); they are far above what a real game needs and low enough that
no input makes the tool hang or run out of memory before it says why.
"""
from __future__ import annotations

MB = 1 << 20

# Files read (bytes): a regular file bigger than this is refused unread.
RULES_FILE_BYTES = 512 << 10
CARD_FILE_BYTES = 16 * MB
SCHEMA_FILE_BYTES = 1 * MB
SAVE_FILE_BYTES = 16 * MB
LOG_FILE_BYTES = 64 * MB

# Rules files.
TOKENS = 30_000  # words and symbols of one text parsed (a rules file, a card field, a label)
EXTENDS_DEPTH = 16  # files in a chain of `extends`, the first included
PLAYERS = 100  # the most players a `players` declaration may allow
SLOTS = 1000  # slots of one zone
SLOT_CELLS = 1_000_000  # slots of every slotted zone instance together (per-card zones count once per card)
LIST_ITEMS = 10_000  # items of a list or map written in the rules (or made by a parameter)

# Card files.
CARD_VALUES = 1_000_000  # values in a card file once YAML aliases are expanded
CARD_NESTING = 100  # lists and mappings inside one another in a card file
EFFECTS_PER_CARD = 100  # effect names in one card field of type `effects`
COPIES = 10_000  # identical cards one entry stands for (`copies: N`)
CARDS = 100_000  # cards of one card file, copies counted

# Games being played.
STEPS = 1_000_000  # loop turns and definition calls a rule runs without a decision (`--max-steps`)
TURNS = 10_000  # turns of one game
DECISIONS = 100_000  # decisions of one game
NESTED_TRIGGERS = 64  # triggers firing inside triggers
COUNTER_VALUE = 10 ** 18  # the largest number a counter may hold, either way (as large as a number written)
NUMBER_DIGITS = 100  # digits of a number a rule computes (a product, a text of a number)
VALUE_ITEMS = 1_000_000  # items of a list a rule builds (`a + b`, `L * n`), the card lists of every zone included
VALUE_TEXT = 1_000_000  # characters of a text a rule builds (`{...}` in a text, `a + b`)
INLINE_CODE = 400  # characters of generated code up to which a definition is copied where it is used

# Serving (`serve`, `lsp`).
STEP_SECONDS = 10  # seconds a served table may compute one step (`serve --step-time`)
STEP_MEMORY = 2 << 30  # bytes of memory one step of a served table may add to the server's size
LSP_MESSAGE_BYTES = 64 * MB  # bytes of one message an editor sends the language server

# Saves.
SAVED_LOCAL_VALUES = 100_000  # values in one running rule's locals, all nesting included
SAVED_TEXT = 10_000  # characters of one text in a running rule's locals
SAVED_ACTIONS = 1_000_000  # actions in a save's history

# Command line.
JOBS = 256  # local worker processes of `simulate` and `compare`
GAMES = 1_000_000  # games of one `simulate` or `compare` (per file)
