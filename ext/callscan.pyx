# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of scorer/callscan_py.py: the same texts read, the same values built, the same
texts refused with the same code. The docstrings, the constants and what each refusal means
live in callscan_py.py; this file walks the text with typed indexes instead of Python ones."""

from cpython.unicode cimport Py_UNICODE_ISDECIMAL

from scorer import callscan_py as _twin

cdef object _Refused = _twin._Refused
cdef dict _CONSTANTS = _twin._CONSTANTS
cdef frozenset _RESERVED = _twin._RESERVED
cdef dict _SIMPLE_ESCAPES = _twin._SIMPLE_ESCAPES
cdef int NOT_READ = _twin.NOT_READ
cdef int NOT_PYTHON = _twin.NOT_PYTHON
cdef int MAX_LEVELS = _twin.MAX_LEVELS
cdef Py_ssize_t MAX_NUMBER_CHARS = _twin.MAX_NUMBER_CHARS
cdef double INFINITY = float("inf")
cdef Py_ssize_t LONG_DIGITS = _twin.LONG_DIGITS


cdef inline bint _identifier_start(Py_UCS4 char):
    return (u'a' <= char <= u'z') or (u'A' <= char <= u'Z') or char == u'_'


cdef inline bint _digit(Py_UCS4 char):
    return u'0' <= char <= u'9'


cdef inline bint _hex_digit(Py_UCS4 char):
    return _digit(char) or (u'a' <= char <= u'f') or (u'A' <= char <= u'F')


cdef inline bint _surrogate(Py_UCS4 char):
    return 0xD800 <= char <= 0xDFFF


def has_long_digits(str text):
    cdef Py_ssize_t run = 0
    cdef Py_UCS4 char
    for char in text:
        if (u'0' <= char <= u'9') or (char > 127 and Py_UNICODE_ISDECIMAL(char)):
            run += 1
            if run >= LONG_DIGITS:
                return True
        else:
            run = 0
    return False

has_long_digits.__doc__ = _twin.has_long_digits.__doc__


def scan_calls(str text):
    try:
        return _Scanner(text).calls()
    except _Refused as refusal:
        return refusal.code

scan_calls.__doc__ = _twin.scan_calls.__doc__


cdef class _Scanner:
    cdef str text
    cdef Py_ssize_t at, end

    def __cinit__(self, str text):
        self.text, self.at, self.end = text, 0, len(text)

    cdef int refuse(self) except -1:
        if self.at + 1 < self.end and self.text[self.at] == u'\\' and self.text[self.at + 1] == u'_':
            raise _Refused(NOT_PYTHON)
        raise _Refused(NOT_READ)

    cdef inline Py_UCS4 peek(self):
        # 0 past the end; a NUL in the text is refused wherever it stands
        return self.text[self.at] if self.at < self.end else 0

    cdef inline void blanks(self):
        cdef Py_UCS4 char
        while self.at < self.end:
            char = self.text[self.at]
            if char != u' ' and char != u'\t' and char != u'\n':
                return
            self.at += 1

    cdef int expect(self, Py_UCS4 char) except -1:
        if self.peek() != char or self.at >= self.end:
            self.refuse()
        self.at += 1
        return 0

    cdef list calls(self):
        cdef list found = []
        cdef bint comma
        if self.peek() != u'[':
            found.append(self.call(1))
        else:
            self.at += 1
            self.blanks()
            while True:
                found.append(self.call(2))
                self.blanks()
                comma = self.peek() == u','
                if comma:
                    self.at += 1
                    self.blanks()
                if self.peek() == u']':
                    self.at += 1
                    break
                if not comma:
                    self.refuse()
        if self.at != self.end:
            self.refuse()
        return found

    cdef str identifier(self):
        cdef Py_ssize_t start = self.at
        cdef Py_UCS4 char
        if not _identifier_start(self.peek()):
            self.refuse()
        while self.at < self.end:
            char = self.text[self.at]
            if not (_identifier_start(char) or _digit(char)):
                if char > 127:
                    self.refuse()
                break
            self.at += 1
        return self.text[start:self.at]

    cdef str name(self):
        cdef list parts = [self.identifier()]
        while self.peek() == u'.':
            self.at += 1
            parts.append(self.identifier())
        for part in parts:
            if part in _RESERVED or part in _CONSTANTS:
                self.refuse()
        return ".".join(parts)

    cdef tuple call(self, int level):
        cdef str name = self.name()
        cdef dict arguments = {}
        cdef str key
        self.expect(u'(')
        self.blanks()
        while self.peek() != u')':
            key = self.identifier()
            if key in _RESERVED or key in _CONSTANTS:
                self.refuse()
            self.blanks()
            self.expect(u'=')
            self.blanks()
            arguments[key] = self.value(level + 1)
            self.blanks()
            if self.peek() == u',':
                self.at += 1
                self.blanks()
            elif self.peek() != u')':
                self.refuse()
        self.at += 1
        return name, arguments

    cdef object value(self, int level):
        cdef Py_UCS4 char
        cdef str word
        if level > MAX_LEVELS:
            self.refuse()
        char = self.peek()
        if char == u"'" or char == u'"':
            return self.string()
        if _digit(char):
            return self.number()
        if char == u'-':
            self.at += 1
            if not _digit(self.peek()):
                self.refuse()
            return -self.number()
        if char == u'[':
            return self.sequence(u']', level)
        if char == u'(':
            return self.parenthesized(level)
        if char == u'{':
            return self.mapping(level)
        if _identifier_start(char):
            word = self.identifier()
            if word in _RESERVED:
                self.refuse()
            return _CONSTANTS.get(word, word)
        self.refuse()

    cdef bint after_value(self):
        self.blanks()
        if self.peek() == u',':
            self.at += 1
            self.blanks()
            return True
        return False

    cdef list sequence(self, Py_UCS4 closing, int level):
        cdef list items = []
        self.at += 1
        self.blanks()
        while self.peek() != closing:
            items.append(self.value(level + 1))
            if not self.after_value() and self.peek() != closing:
                self.refuse()
        self.at += 1
        return items

    cdef object parenthesized(self, int level):
        cdef list items
        self.at += 1
        self.blanks()
        if self.peek() == u')':
            self.at += 1
            return []
        first = self.value(level + 1)
        if not self.after_value():
            self.expect(u')')
            return first
        items = [first]
        while self.peek() != u')':
            items.append(self.value(level + 1))
            if not self.after_value() and self.peek() != u')':
                self.refuse()
        self.at += 1
        return items

    cdef dict mapping(self, int level):
        cdef dict result = {}
        cdef str key
        self.at += 1
        self.blanks()
        while self.peek() != u'}':
            if self.peek() != u"'" and self.peek() != u'"':
                self.refuse()
            key = self.string()
            self.blanks()
            self.expect(u':')
            self.blanks()
            result[key] = self.value(level + 1)
            if not self.after_value() and self.peek() != u'}':
                self.refuse()
        self.at += 1
        return result

    cdef str string(self):
        cdef Py_UCS4 quote = self.text[self.at]
        cdef Py_UCS4 char
        cdef list pieces = None
        cdef Py_ssize_t start
        cdef str result
        if self.at + 2 < self.end and self.text[self.at + 1] == quote and self.text[self.at + 2] == quote:
            raise _Refused(NOT_READ)
        self.at += 1
        start = self.at
        while True:
            if self.at >= self.end:
                raise _Refused(NOT_READ)
            char = self.text[self.at]
            if char == quote:
                break
            if char == u'\\':
                if pieces is None:
                    pieces = []
                pieces.append(self.text[start:self.at])
                pieces.append(self.escape())
                start = self.at
                continue
            if char == u'\n' or char == u'\r' or char == 0 or _surrogate(char):
                raise _Refused(NOT_READ)
            self.at += 1
        if pieces is None:
            result = self.text[start:self.at]
        else:
            pieces.append(self.text[start:self.at])
            result = "".join(pieces)
        self.at += 1
        self.blanks()
        if self.peek() == u"'" or self.peek() == u'"':
            raise _Refused(NOT_READ)
        return result

    cdef str escape(self):
        cdef Py_UCS4 char
        cdef Py_ssize_t digits, index
        cdef long code = 0
        self.at += 1
        if self.at >= self.end:
            raise _Refused(NOT_READ)
        char = self.text[self.at]
        self.at += 1
        simple = _SIMPLE_ESCAPES.get(char)
        if simple is not None:
            return simple
        if (u'0' <= char <= u'7') or char == u'N' or char == u'\n' or char == u'\r':
            raise _Refused(NOT_READ)
        if char == u'x':
            digits = 2
        elif char == u'u':
            digits = 4
        elif char == u'U':
            digits = 8
        else:
            if char == 0 or _surrogate(char):
                raise _Refused(NOT_READ)
            return "\\" + char
        if self.at + digits > self.end:
            raise _Refused(NOT_READ)
        for index in range(self.at, self.at + digits):
            char = self.text[index]
            if not _hex_digit(char):
                raise _Refused(NOT_READ)
            if char <= u'9':
                code = code * 16 + (<long>char - 48)
            else:
                code = code * 16 + ((<long>char | 0x20) - 87)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise _Refused(NOT_READ)
        self.at += digits
        return chr(code)

    cdef object number(self):
        cdef Py_ssize_t start = self.at
        cdef bint is_float = False
        cdef str token
        cdef double value
        while _digit(self.peek()):
            self.at += 1
        if self.peek() == u'.':
            is_float = True
            self.at += 1
            while _digit(self.peek()):
                self.at += 1
        if self.peek() == u'e' or self.peek() == u'E':
            self.at += 1
            if self.peek() == u'+' or self.peek() == u'-':
                self.at += 1
            if not _digit(self.peek()):
                raise _Refused(NOT_READ)
            is_float = True
            while _digit(self.peek()):
                self.at += 1
        if self.at - start > MAX_NUMBER_CHARS:
            self.refuse()
        token = self.text[start:self.at]
        if not is_float:
            if self.at - start > 1 and token[0] == u'0':
                self.refuse()
            return int(token)
        value = float(token)
        if value == INFINITY or value == -INFINITY:
            self.refuse()
        return value
