"""Dispatch on a node's class, the one way every pass walks the syntax tree.

A pass subclasses `Visitor` and defines `visit_<NodeClass>` methods (as
Jinja2's NodeVisitor does); `visit(node, ...)` calls the method for the
node's class, or `generic_visit` when there is none. The method for each
class is looked up once per pass class and then kept.
"""
from __future__ import annotations


class Visitor:
    _methods: dict  # node class -> unbound method, per Visitor subclass

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def visit(self, node, *args):
        try:
            method = self._methods[node.__class__]
        except KeyError:
            method = self._methods[node.__class__] = getattr(
                type(self), "visit_" + node.__class__.__name__, type(self).generic_visit)
        return method(self, node, *args)

    def generic_visit(self, node, *args):
        raise TypeError(f"{type(self).__name__} has no rule for {type(node).__name__}")
