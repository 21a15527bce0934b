"""The syntax tree's nodes behave as frozen records: the parser, the
checker's caches and the language server's incremental parse rely on it."""
from __future__ import annotations

import pytest

from interpreter.errors import NO_SPAN, Source, Span
from interpreter.language import nodes as n
from interpreter.language.parser import parse_rules

HERE = Span(Source("a.rules", "x\n"), 1, 1, 1, 2)


def test_fields_are_the_annotations_in_order_parents_first():
    assert n.Name._fields == ("name",)
    assert n.Ref._fields == ("name", "owner")
    assert n.Contains._fields[-1] == "negate"
    node = n.Ref("gold")
    assert node.owner is None and node.span is NO_SPAN


def test_equality_and_hash_ignore_the_span():
    a, b = n.Name("x", span=HERE), n.Name("x")
    assert a == b and hash(a) == hash(b)
    assert n.Name("x") != n.Name("y")
    assert n.Name("x") != n.Literal("x")  # a different kind of node, the same values
    assert {a: 1}[b] == 1


def test_a_node_cannot_be_changed():
    node = n.Name("x")
    with pytest.raises(AttributeError):
        node.name = "y"
    with pytest.raises(AttributeError):
        del node.name
    with pytest.raises(AttributeError):
        node.other = 1


def test_arguments_by_keyword_with_defaults_and_the_errors_of_wrong_ones():
    assert n.Contains(item=n.Name("a"), container=n.Name("b")) == n.Contains(n.Name("a"), n.Name("b"), False)
    with pytest.raises(TypeError, match="missing argument 'owner'"):
        n.NameOf("gold")
    with pytest.raises(TypeError, match="takes 1 positional"):
        n.Name("x", "y")
    with pytest.raises(TypeError, match="unexpected or repeated arguments: nme"):
        n.Name("x", nme="y")
    with pytest.raises(TypeError, match="unexpected or repeated arguments: name"):
        n.Name("x", name="y")
    with pytest.raises(TypeError, match="without a default after one with a default"):
        class Broken(n.Expr):  # noqa: F841
            first: int = 0
            second: int


def test_repr_shows_the_fields_but_not_the_span():
    assert repr(n.NameOf("gold", n.Name("me"), span=HERE)) == "NameOf(name='gold', owner=Name(name='me'))"


def test_children_and_walk_reach_every_node_of_a_parsed_file():
    tree = parse_rules('game "X"\nplayers 2..2\nsetup:\n    gain 1 gold\n')
    names = {type(node).__name__ for node in n.walk(tree)}
    assert {"RulesFile", "GameDecl", "PlayersDecl", "Gain"} <= names


def statement_kinds(base=n.Stmt) -> list:
    """Every kind of statement: the subclasses of `Stmt`, at any depth."""
    return [kind for sub in base.__subclasses__() for kind in (sub, *statement_kinds(sub))]


def kinds_without_facts() -> list:
    """The kinds of statement that do not declare their facts themselves."""
    return sorted(kind.__name__ for kind in statement_kinds()
                  if kind not in n.STMT_FACTS or "facts" not in vars(kind))


def test_every_kind_of_statement_declares_every_fact():
    """The passes read a statement's facts (`stmt.facts`) instead of keeping
    lists of classes: a new kind must say each of them, with no default."""
    assert kinds_without_facts() == []
    assert n.StmtFacts._field_defaults == {}
    for kind, facts in n.STMT_FACTS.items():
        assert len(facts) == len(n.StmtFacts._fields), kind
        others = facts.others_decide
        assert isinstance(others, bool) or others in kind._fields, kind
        assert facts.changes in n.CHANGES, kind


def test_a_kind_of_statement_without_its_facts_is_caught():
    import gc

    class Planted(n.Stmt):
        cards: n.Expr

    assert kinds_without_facts() == ["Planted"]
    with pytest.raises(AttributeError):
        Planted(n.Name("x")).facts
    del Planted
    gc.collect()
    assert kinds_without_facts() == []


def test_the_facts_answer_for_a_parsed_rule():
    """Pausing, chance and who decides, read from the facts of parsed statements."""
    rules = parse_rules(
        "game \"t\"\nplayers 2..2\nzone deck: shared, visible\n"
        "procedure p:\n    shuffle deck\n    simultaneously choose c in deck:\n        pass\n")
    shuffle, choose = rules.items[-1].body
    assert shuffle.facts.random and not shuffle.facts.decides
    assert choose.facts.decides and choose.lets_others_decide()


def test_the_checker_has_a_rule_for_every_kind_of_statement_holding_anything():
    """A new kind of statement with expressions or a block is not skipped
    unchecked: the checker asks for its rule."""
    from interpreter.language.checker import Checker

    class Planted(n.Stmt):
        cards: n.Expr

    with pytest.raises(TypeError, match="Checker has no rule for the statement Planted"):
        Checker.generic_visit(Checker.__new__(Checker), Planted(n.Name("x")), set())
    Checker.generic_visit(Checker.__new__(Checker), n.Pass(), set())  # nothing inside: nothing to check
