"""Replies on rows that need clarification: what a reply names, and whether it asks at all.

A row that lacks a value (or gives a wrong one) is answered right by a reply asking for it.
`unnamed` lists the expected mentions a reply does not contain; `asks` says whether it
plausibly asks in other words (question marks and asking phrases are data in rules/replies.toml).
"""

from scorer.normalize.text import fold_text
from scorer.rules import read_toml


def unnamed(mentions, reply) -> list:
    """The expected mentions a reply does not contain (folded text, whole substrings)."""
    text = fold_text(reply or "")
    return [name for name in mentions if fold_text(name) not in text]


def asks(reply) -> bool:
    """True when the reply has a question mark or an asking phrase (after folding, so that a
    full-width ？ counts)."""
    words = read_toml("replies.toml")
    text = fold_text(reply or "")
    return any(mark in text for mark in words["question_marks"]) or any(
        phrase in text for phrase in words["asking"])
