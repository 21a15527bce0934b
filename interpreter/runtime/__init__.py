"""What runs while a game is played: the primitives generated rule code
calls (helpers, ops, calls), the frames the engine steps through, and the
reading of a failure back to the rules line it came from.

The compiler emits code against these; the engine runs it with them. Both
import this package, and it imports neither (tests/test_layers.py).
"""
