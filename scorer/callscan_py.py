"""Python-call outputs (`[get_weather(city='北京', days=3), book(n=3)]`) read without `ast`:
the pure twin of the compiled scanner ext/callscan.pyx (scorer/callscan.py picks one).

`scan_calls(text)` reads a text that is, whole, one call list `[f(...), g(...)]` or one bare
call `f(...)` with keyword arguments whose values are literals: strings in single or double
quotes with escapes, numbers, `True`/`False`/`None` and JSON's `true`/`false`/`null`, bare
names (read as their own name, as the careful parser reads them), lists, tuples, dicts with
text keys, nested. It returns the calls as (dotted name, arguments dict) pairs.

It reads only what it is sure Python's own parser reads the same way, and refuses the rest
(returns NOT_READ), so that the careful parser (scorer/parse.py, through `ast`) keeps the
last word on everything unusual: triple-quoted, prefixed or adjacent strings, octal and
`\\N{...}` escapes, surrogates, numbers with underscores, leading zeros or a sign other
than a leading `-`, non-ASCII names (Python folds them by NFKC), comments, `\\r`, positional
arguments, expressions of any kind, nesting deeper than MAX_LEVELS. A backslash outside a
string (`get\\_weather(...)`, markdown-escaped) is NOT_PYTHON: Python cannot read that text at
all (nor any part of it ending past that point), which the bulk reader needs to know to
retry it unescaped as the careful parser does.
"""

import keyword
import re

NOT_READ = 0     # not read here: the careful parser decides
NOT_PYTHON = 1   # `\\_` outside a string where a name or value was due: Python cannot read the text
MAX_LEVELS = 100  # brackets deep; Python's tokenizer stops at 200, the careful parser's checks later
MAX_NUMBER_CHARS = 300

LONG_DIGITS = 20  # a run of this many digits may be an integer past 64 bits (see scorer.parse.load_json)
_LONG_DIGIT_RUN = re.compile(r"\d{%d}" % LONG_DIGITS)

_CONSTANTS = {"True": True, "False": False, "None": None, "true": True, "false": False, "null": None}
_RESERVED = frozenset(keyword.kwlist) - {"True", "False", "None"}
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r", "a": "\x07", "b": "\x08",
                   "f": "\x0c", "v": "\x0b"}
_REFUSED_ESCAPES = frozenset("01234567N\n\r")
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}
_HEX = frozenset("0123456789abcdefABCDEF")
_IDENTIFIER_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_IDENTIFIER = _IDENTIFIER_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_BLANKS = frozenset(" \t\n")


def has_long_digits(text: str) -> bool:
    """Whether the text holds a run of LONG_DIGITS decimal digits (`\\d`: Unicode category Nd),
    so that JSON in it may hold an integer orjson cannot read exactly. A regex here, a loop
    over the characters in the compiled twin (about 5 µs against a fraction of one on a
    tool-call list, measured when writing it)."""
    return _LONG_DIGIT_RUN.search(text) is not None


class _Refused(Exception):
    """Raised inside the scanner; `code` says which kind of refusal."""

    def __init__(self, code: int = NOT_READ):
        super().__init__(code)
        self.code = code


def scan_calls(text: str):
    """A list of (name, arguments dict) read from the whole text, or NOT_READ / NOT_PYTHON."""
    try:
        scanner = _Scanner(text)
        calls = scanner.calls()
    except _Refused as refusal:
        return refusal.code
    return calls


class _Scanner:
    def __init__(self, text: str):
        self.text, self.at, self.end = text, 0, len(text)

    def refuse(self):
        """Stop outside a string: NOT_PYTHON when a markdown-escaped underscore stands here."""
        raise _Refused(NOT_PYTHON if self.text.startswith("\\_", self.at) else NOT_READ)

    def peek(self) -> str:
        return self.text[self.at] if self.at < self.end else ""

    def blanks(self):
        while self.at < self.end and self.text[self.at] in _BLANKS:
            self.at += 1

    def expect(self, char: str):
        if self.peek() != char:
            self.refuse()
        self.at += 1

    def calls(self) -> list:
        if self.peek() != "[":
            found = [self.call(1)]
        else:
            self.at += 1
            found = []
            self.blanks()
            while True:
                found.append(self.call(2))
                self.blanks()
                comma = self.peek() == ","
                if comma:
                    self.at += 1
                    self.blanks()
                if self.peek() == "]":
                    self.at += 1
                    break
                if not comma:
                    self.refuse()
        if self.at != self.end:
            self.refuse()
        return found

    def identifier(self) -> str:
        start = self.at
        if self.peek() not in _IDENTIFIER_START:
            self.refuse()
        while self.at < self.end and self.text[self.at] in _IDENTIFIER:
            self.at += 1
        if self.at < self.end and ord(self.text[self.at]) > 127:
            self.refuse()   # a non-ASCII letter continues the name: Python folds such names (NFKC)
        return self.text[start:self.at]

    def name(self) -> str:
        parts = [self.identifier()]
        while self.peek() == ".":
            self.at += 1
            parts.append(self.identifier())
        if any(part in _RESERVED or part in _CONSTANTS for part in parts):
            self.refuse()
        return ".".join(parts)

    def call(self, level: int):
        name = self.name()
        self.expect("(")
        arguments = {}
        self.blanks()
        while self.peek() != ")":
            key = self.identifier()
            if key in _RESERVED or key in _CONSTANTS:
                self.refuse()
            self.blanks()
            self.expect("=")
            self.blanks()
            arguments[key] = self.value(level + 1)
            self.blanks()
            if self.peek() == ",":
                self.at += 1
                self.blanks()
            elif self.peek() != ")":
                self.refuse()
        self.at += 1
        return name, arguments

    def value(self, level: int):
        if level > MAX_LEVELS:
            self.refuse()
        char = self.peek()
        if char == "'" or char == '"':
            return self.string()
        if char in _DIGITS:
            return self.number()
        if char == "-":
            self.at += 1
            if self.peek() not in _DIGITS:
                self.refuse()
            return -self.number()
        if char == "[":
            return self.sequence("]", level)
        if char == "(":
            return self.parenthesized(level)
        if char == "{":
            return self.mapping(level)
        if char in _IDENTIFIER_START:
            word = self.identifier()
            if word in _RESERVED:
                self.refuse()
            return _CONSTANTS.get(word, word)
        self.refuse()

    def after_value(self):
        """Blanks, then a comma or a closing bracket (anything else is refused by the caller)."""
        self.blanks()
        if self.peek() == ",":
            self.at += 1
            self.blanks()
            return True
        return False

    def sequence(self, closing: str, level: int) -> list:
        self.at += 1
        items = []
        self.blanks()
        while self.peek() != closing:
            items.append(self.value(level + 1))
            if not self.after_value() and self.peek() != closing:
                self.refuse()
        self.at += 1
        return items

    def parenthesized(self, level: int):
        """`()` and `(a, ...)` are tuples (JSON lists); `(a)` is `a` itself."""
        self.at += 1
        self.blanks()
        if self.peek() == ")":
            self.at += 1
            return []
        first = self.value(level + 1)
        if not self.after_value():
            self.expect(")")
            return first
        items = [first]
        while self.peek() != ")":
            items.append(self.value(level + 1))
            if not self.after_value() and self.peek() != ")":
                self.refuse()
        self.at += 1
        return items

    def mapping(self, level: int) -> dict:
        self.at += 1
        result = {}
        self.blanks()
        while self.peek() != "}":
            if self.peek() != "'" and self.peek() != '"':
                self.refuse()
            key = self.string()
            self.blanks()
            self.expect(":")
            self.blanks()
            result[key] = self.value(level + 1)
            if not self.after_value() and self.peek() != "}":
                self.refuse()
        self.at += 1
        return result

    def string(self) -> str:
        """A quoted text; refusals in here are NOT_READ (a backslash in a string is an escape)."""
        quote = self.text[self.at]
        if self.text.startswith(quote * 3, self.at):
            raise _Refused()   # triple-quoted (or an empty string followed by a quote): rare, left to ast
        self.at += 1
        pieces = []
        start = self.at
        while True:
            if self.at >= self.end:
                raise _Refused()
            char = self.text[self.at]
            if char == quote:
                break
            if char == "\\":
                pieces.append(self.text[start:self.at])
                pieces.append(self.escape())
                start = self.at
                continue
            if char == "\n" or char == "\r" or char == "\x00" or "\ud800" <= char <= "\udfff":
                raise _Refused()
            self.at += 1
        pieces.append(self.text[start:self.at])
        self.at += 1
        self.blanks()
        if self.peek() == "'" or self.peek() == '"':
            raise _Refused()   # adjacent strings are joined by Python: left to ast
        return "".join(pieces)

    def escape(self) -> str:
        self.at += 1
        if self.at >= self.end:
            raise _Refused()
        char = self.text[self.at]
        self.at += 1
        simple = _SIMPLE_ESCAPES.get(char)
        if simple is not None:
            return simple
        if char in _REFUSED_ESCAPES:
            raise _Refused()
        digits = _HEX_DIGITS.get(char)
        if digits is None:
            if char == "\x00" or "\ud800" <= char <= "\udfff":
                raise _Refused()
            return "\\" + char   # an unknown escape keeps its backslash (Python warns, ast keeps it)
        hex_text = self.text[self.at:self.at + digits]
        if len(hex_text) != digits or not all(digit in _HEX for digit in hex_text):
            raise _Refused()
        code = int(hex_text, 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise _Refused()
        self.at += digits
        return chr(code)

    def number(self):
        start = self.at
        while self.peek() in _DIGITS:
            self.at += 1
        is_float = False
        if self.peek() == ".":
            is_float = True
            self.at += 1
            while self.peek() in _DIGITS:
                self.at += 1
        if self.peek() in ("e", "E"):
            self.at += 1
            if self.peek() in ("+", "-"):
                self.at += 1
            if self.peek() not in _DIGITS:
                raise _Refused()
            is_float = True
            while self.peek() in _DIGITS:
                self.at += 1
        token = self.text[start:self.at]
        if self.at - start > MAX_NUMBER_CHARS:
            self.refuse()
        if not is_float:
            if len(token) > 1 and token[0] == "0":
                self.refuse()   # `00` is zero to Python, `01` an error: both left to ast
            return int(token)
        value = float(token)
        if value in (float("inf"), float("-inf")):
            self.refuse()
        return value
