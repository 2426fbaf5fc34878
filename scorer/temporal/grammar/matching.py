"""Which tokens match at a position of a text: an index of the table by first character, and
the memoized candidates the scanner (and handlers that look ahead) ask for.
"""

import functools


@functools.lru_cache(maxsize=None)
def start_chars() -> frozenset | None:
    """Every character a (non-empty) token match can start with, or None when some token can
    start with any: a free-text search need only try positions holding one of them."""
    return _token_index()[2]


_CATEGORY_CHARS = {"CATEGORY_DIGIT": set("0123456789"), "CATEGORY_SPACE": set(" \t\n\r\f\v")}


def _first_chars(items) -> tuple:
    """(characters a parsed regex can start with, or None for "any"; whether it can match empty)."""
    chars = set()
    for op, arg in items:
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue  # zero width: the next item decides
        if name == "LITERAL":
            return chars | {chr(arg)}, False
        if name in ("IN", "CATEGORY"):
            for kind, value in (arg if name == "IN" else [(op, arg)]):
                kind = str(kind)
                if kind == "LITERAL":
                    chars.add(chr(value))
                elif kind == "RANGE":
                    chars |= {chr(c) for c in range(value[0], value[1] + 1)}
                elif kind == "CATEGORY" and str(value) in _CATEGORY_CHARS:
                    chars |= _CATEGORY_CHARS[str(value)]
                else:
                    return None, False
            return chars, False
        if name == "BRANCH":
            nullable = False
            for branch in arg[1]:
                first, empty = _first_chars(branch)
                if first is None:
                    return None, False
                chars |= first
                nullable = nullable or empty
            if not nullable:
                return chars, False
            continue
        if name == "SUBPATTERN":
            first, empty = _first_chars(arg[-1])
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            first, empty = _first_chars(arg[2])
            empty = empty or arg[0] == 0
        else:
            return None, False
        if first is None:
            return None, False
        chars |= first
        if not empty:
            return chars, False
    return chars, True


@functools.lru_cache(maxsize=None)
def _token_index() -> tuple:
    """{first character: tokens that can start with it}, the tokens that can start with any, and
    every character some token can start with (None when one can start with any)."""
    try:
        from re import _parser as parser
    except ImportError:  # Python < 3.11
        import sre_parse as parser
    from scorer.temporal.grammar.table import tokens  # here: the table's handlers look ahead through this module
    index, anywhere, starts = {}, [], set()
    for order, token in enumerate(tokens()):
        first, empty = _first_chars(parser.parse(token.regex.pattern))
        starts = None if first is None or starts is None else starts | first
        if first is None or empty:
            anywhere.append((order, token))
        else:
            for char in first:
                index.setdefault(char, []).append((order, token))
    merged = {char: sorted(entries + anywhere, key=lambda item: item[0]) for char, entries in index.items()}
    return merged, sorted(anywhere, key=lambda item: item[0]), None if starts is None else frozenset(starts)


def token_starts_at(text: str, pos: int) -> bool:
    """Whether some token matches at `pos` (not empty): what `_candidates` finds, without
    finding them all, sorting and remembering them, for a search that asks only whether a
    reading may start somewhere (most texts it is asked about hold no time)."""
    index, anywhere, _starts = _token_index()
    for _order, token in index.get(text[pos], anywhere):
        match = token.regex.match(text, pos)
        if match and match.end() > pos:
            return True
    return False


@functools.lru_cache(maxsize=131_072)
def _candidates(text: str, pos: int) -> tuple:
    """(token, match) of every token matching at `pos`, longest first (table order breaks ties):
    the scanner takes the first one whose handler accepts the state, so a token that does not
    compose here (2025年前 is not 2025 years ago) leaves the place to the next reading. Only the
    tokens that can start with the character at `pos` are tried; memoized, since reading a text
    against another reference time tokenizes it the same way. Built on `_leading_candidates`,
    which the scanner asks first, so that a place is matched once whichever asks first."""
    leading = _leading_candidates(text, pos)
    if len(leading) == 1 and leading[0][1].end() == len(text):   # perhaps only the first: match them all
        return _all_candidates(text, pos)
    return leading


def _all_candidates(text: str, pos: int) -> tuple:
    return _matched(text, pos, stop_at_end=False)


@functools.lru_cache(maxsize=131_072)
def _leading_candidates(text: str, pos: int) -> tuple:
    """`_candidates(text, pos)`, or only its first when a token matches to the end of the text:
    no match is longer, and tokens are tried in table order, which breaks ties, so the first to
    reach the end is the one the scanner takes first. The others are matched only when its
    handler declines (the scanner then asks `_candidates`): a date written whole, such as
    2026-03-10T10:00, is read with one pattern instead of every pattern that starts with a digit."""
    return _matched(text, pos, stop_at_end=True)


def _matched(text: str, pos: int, stop_at_end: bool) -> tuple:
    """(token, match) of each token matching at `pos`, longest first, table order breaking ties;
    with `stop_at_end`, the first match to reach the end of the text alone."""
    index, anywhere, _starts = _token_index()
    found = []
    for order, token in index.get(text[pos], anywhere):
        match = token.regex.match(text, pos)
        if match and match.end() > pos:
            if stop_at_end and match.end() == len(text):
                return ((token, match),)
            found.append((-match.end(), order, token, match))
    if len(found) > 1:
        found.sort(key=lambda item: item[:2])
    return tuple((token, match) for _end, _order, token, match in found)
