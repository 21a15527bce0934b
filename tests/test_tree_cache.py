"""Parsed trees kept in the cache folder (interpreter/language/treecache.py):
a tree read from the cache is exactly the tree parsing gives (same nodes,
same spans), an unchanged file is not parsed again, an edited one is, and
a file with errors reports the same messages whether its tree was cached
or not. What the cache does with hostile entries: test_hostile_tree_cache.py."""
from __future__ import annotations

import shutil

import pytest

from interpreter.errors import Span
from interpreter.language import cards, lark_parse, nodes as n, parser, treecache
from interpreter.language.frontend import check_rules

from .conftest import CATALYST, ROOT
from .test_diagnostic_corpus import CASES, CORPUS, check_output


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A cache of our own (XDG_CACHE_HOME) and no tree parsed yet in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget_parsed()
    yield tmp_path / "cache" / "rules-interpreter" / treecache.FOLDER
    forget_parsed()


PARSED_ALONE = cards._parsed_alone  # as it is, before a test wraps it


def forget_parsed():
    """Drop what this process remembers of texts it parsed: the next load
    reads the cache folder, as a new `check` does."""
    parser._parse_file.cache_clear()
    parser._DECLARATIONS._items.clear()
    parser._READABLE.clear()
    PARSED_ALONE.cache_clear()


class Parses:
    """Records the texts Lark's half of the parser is given: `texts` all of
    them (labels and names inside a file too), `files` the rules texts,
    `card_texts` the card texts."""

    def __init__(self, monkeypatch):
        self.texts, self.files, self.card_texts = [], [], []
        for name in ("parse_text", "parse_declarations", "reads_as_name"):
            monkeypatch.setattr(lark_parse, name, self.counted(getattr(lark_parse, name), self.texts))
        monkeypatch.setattr(lark_parse, "parse_declarations", self.counted(lark_parse.parse_declarations, self.files))
        monkeypatch.setattr(cards, "_parsed_alone", self.counted(cards._parsed_alone, self.card_texts, 1))

    @staticmethod
    def counted(function, texts, which=0):
        def call(*args, **kwargs):
            texts.append(args[which])
            return function(*args, **kwargs)
        return call


def same(a, b, where="tree") -> None:
    """a and b are the same tree: node classes, fields and spans (with the
    text of their source), all the way down."""
    assert type(a) is type(b), where
    if isinstance(a, n.Node):
        same_span(a.span, b.span, where)
        for field in type(a)._fields:
            same(getattr(a, field), getattr(b, field), f"{where}.{field}")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def same_span(a: Span, b: Span, where: str) -> None:
    assert (a.line, a.column, a.end_line, a.end_column) == (b.line, b.column, b.end_line, b.end_column), where
    assert (a.source is None) == (b.source is None), where
    if a.source is not None:
        assert (a.source.name, a.source.text) == (b.source.name, b.source.text), where


def copied_catalyst(tmp_path):
    """A copy of rules/catalyst.rules with its cards and schema, to edit."""
    for folder in ("rules", "schemas"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "rules" / CATALYST.name


RULES_FILES = sorted(p for p in ROOT.glob("**/*.rules") if ".git" not in p.parts)


def test_every_rules_file_of_the_repository_reads_back_as_parsed(home):
    kept = 0
    for path in RULES_FILES:
        text = path.read_text(encoding="utf-8")
        try:
            parsed = parser.parse_rules(text, str(path), keep=True)
        except Exception:  # a broken file of the corpus: nothing is kept
            continue
        found = treecache.load_rules(str(path), parsed.span.source.text, parsed.span.source)
        assert found is not None, path
        same(found[0], parsed, str(path))
        kept += 1
    assert kept > 50


def test_a_second_load_of_an_unchanged_file_does_not_parse(home, monkeypatch):
    first = check_rules(CATALYST)
    assert len(list(home.iterdir())) == 2  # the rules file's tree, the card file's texts
    forget_parsed()
    parses = Parses(monkeypatch)
    again = check_rules(CATALYST)
    assert parses.texts == []
    same(vars(again.model), vars(first.model), "model")
    for name in first.card_fields:
        same(again.card_fields[name], first.card_fields[name], f"card field {name}")
    assert [d.render() for d in again.diagnostics] == [d.render() for d in first.diagnostics]


def test_card_texts_read_back_as_parsed(home):
    checked = check_rules(CATALYST)
    stored = treecache.load_card_texts(checked.db.source.name, cards._ALONE)
    assert len(stored) > 10
    for (start, raw), tree in stored.items():
        same(tree, lark_parse.parse_text(raw, cards._ALONE, start), f"{start} {raw!r}")


def test_an_edited_file_is_parsed_again_and_replaces_its_entry(home, tmp_path, monkeypatch):
    rules = copied_catalyst(tmp_path)
    check_rules(rules)
    entries = sorted(p.name for p in home.iterdir())
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    forget_parsed()
    parses = Parses(monkeypatch)
    edited = check_rules(rules)
    assert len(parses.files) == 1 and parses.files[0].endswith("# an edit\n")
    assert parses.card_texts == []  # the card file did not change
    assert not edited.errors
    assert sorted(p.name for p in home.iterdir()) == entries  # replaced, not added
    forget_parsed()
    parses.texts.clear()
    check_rules(rules)
    assert parses.texts == []


def test_an_edited_card_file_keeps_the_texts_it_holds_now(home, tmp_path):
    """A card text edited away leaves the entry: it does not grow with edits."""
    rules = copied_catalyst(tmp_path)
    name = str(rules.parent / "cards.yaml")
    first = check_rules(rules)
    before = set(treecache.load_card_texts(first.db.source.name, cards._ALONE))
    cards_file = rules.parent / "cards.yaml"
    text = cards_file.read_text(encoding="utf-8")
    assert "count c in scoring_pile where c.cost == 1" in text
    cards_file.write_text(text.replace("count c in scoring_pile where c.cost == 1",
                                       "count c in scoring_pile where c.cost == 5"), encoding="utf-8")
    forget_parsed()
    edited = check_rules(rules)
    assert not edited.errors and edited.db.source.name == name
    after = set(treecache.load_card_texts(name, cards._ALONE))
    assert ("expression", "count c in scoring_pile where c.cost == 5") in after
    assert ("expression", "count c in scoring_pile where c.cost == 1") not in after
    assert after - {("expression", "count c in scoring_pile where c.cost == 5")} <= before


def test_a_change_of_the_language_makes_every_entry_foreign(home, monkeypatch):
    checked = check_rules(CATALYST)
    source = checked.model.setup.span.source
    assert treecache.load_rules(str(CATALYST), source.text, source) is not None
    monkeypatch.setattr(treecache, "language_digest", lambda: "another grammar")
    assert treecache.load_rules(str(CATALYST), source.text, source) is None
    assert treecache.load_card_texts(checked.db.source.name, cards._ALONE) == {}


def test_an_editor_s_unsaved_text_is_not_kept(home):
    text = CATALYST.read_text(encoding="utf-8") + "\n# not saved\n"
    checked = check_rules(CATALYST, texts={CATALYST.resolve(): text})
    assert not checked.errors
    assert treecache.load_rules(str(CATALYST), text, checked.model.setup.span.source) is None


def test_a_name_the_language_takes_reads_the_same_from_the_cache(home, tmp_path, monkeypatch):
    rules = copied_catalyst(tmp_path)
    rules.write_text(rules.read_text(encoding="utf-8") + "\ncounter count: per player\n", encoding="utf-8")
    first = [d.render() for d in check_rules(rules).errors]
    assert any("'count' is a word of the language" in d for d in first)
    forget_parsed()
    parses = Parses(monkeypatch)
    assert [d.render() for d in check_rules(rules).errors] == first
    assert parses.texts == []


def test_the_corpus_reports_the_same_messages_with_its_trees_cached(home):
    """Each broken file is checked twice: parsed (its tree then kept, when
    it parses) and from the cache; both give the exact expected output."""
    for name in CASES:
        expected = (CORPUS / f"{name}.expected").read_text()
        assert check_output(name) == expected, name
        forget_parsed()
        assert check_output(name) == expected, f"{name}, from the cache"
        forget_parsed()
    assert len(list(home.iterdir())) > len(CASES) // 2
