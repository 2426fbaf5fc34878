# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of scorer/temporal/starts_py.py: the same positions, found with a typed loop over
the characters instead of a Python one. The docstrings and the rules live in starts_py.py."""

from cpython.unicode cimport Py_UNICODE_ISDIGIT, Py_UNICODE_ISSPACE


cdef inline bint _ascii_alnum(Py_UCS4 char):
    return (u'0' <= char <= u'9') or (u'a' <= char <= u'z') or (u'A' <= char <= u'Z')


def reading_starts(str norm, first, numerals, tokens_at, bint first_only=False):
    cdef Py_ssize_t pos, length = len(norm)
    cdef Py_UCS4 char, before
    cdef list found = []
    for pos in range(length):
        char = norm[pos]
        if (first is not None and char not in first) or Py_UNICODE_ISSPACE(char):
            continue
        if pos > 0:
            before = norm[pos - 1]
            if before in numerals and char in numerals:
                continue
            if before == u'.' and Py_UNICODE_ISDIGIT(char) and pos >= 2 and Py_UNICODE_ISDIGIT(norm[pos - 2]):
                continue
            if _ascii_alnum(before) and _ascii_alnum(char):
                continue
        if tokens_at(norm, pos):
            found.append(pos)
            if first_only:
                break
    return found
