# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of scorer/normalize/fold_py.py: the spaces and trim of text folding in one typed
pass over the characters, instead of two regex substitutions and a loop of Python string methods.
The rules and their docstrings live in fold_py.py; the Han ranges in scorer/script.py."""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_FindChar, Py_UNICODE_ISSPACE

from scorer.script import HAN_SPANS


cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND


cdef Py_UCS4 _han_first[8]
cdef Py_UCS4 _han_last[8]
cdef int _han_count = len(HAN_SPANS)
assert _han_count <= 8, "more Han spans than the compiled fold holds"
for _index, (_first, _last) in enumerate(HAN_SPANS):
    _han_first[_index], _han_last[_index] = _first, _last


cdef inline bint _is_han(Py_UCS4 char):
    cdef int index
    for index in range(_han_count):
        if _han_first[index] <= char <= _han_last[index]:
            return True
    return False


cdef inline bint _written_at(Py_UCS4 *chars, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t at, str part):
    """Whether `part` is written at `at` inside chars[lo:hi] (it fits there)."""
    cdef Py_ssize_t index, length = len(part)
    if length > hi - lo:
        return False
    for index in range(length):
        if chars[at + index] != part[index]:
            return False
    return True


def spaces_and_trim(str text, str drop_trailing, tuple wrapping):
    cdef Py_ssize_t length = len(text), size = 0, kept = 0, index, lo, hi, before_lo, before_hi
    cdef Py_ssize_t drop_length = len(drop_trailing)
    cdef Py_UCS4 char
    cdef str opening, closing
    cdef Py_UCS4 *chars = <Py_UCS4 *> PyMem_Malloc((length + 1) * sizeof(Py_UCS4))
    if chars == NULL:
        raise MemoryError()
    try:
        index = 0
        while index < length:   # a run of whitespace becomes one space
            char = text[index]
            if Py_UNICODE_ISSPACE(char):
                while index < length and Py_UNICODE_ISSPACE(text[index]):
                    index += 1
                chars[size] = u' '
            else:
                chars[size] = char
                index += 1
            size += 1
        for index in range(size):   # a space between two Han characters is dropped
            if chars[index] == u' ' and 0 < index < size - 1 and _is_han(chars[index - 1]) \
                    and _is_han(chars[index + 1]):
                continue
            chars[kept] = chars[index]
            kept += 1
        lo, hi = 0, kept
        while True:
            before_lo, before_hi = lo, hi
            while lo < hi and Py_UNICODE_ISSPACE(chars[lo]):
                lo += 1
            while hi > lo and Py_UNICODE_ISSPACE(chars[hi - 1]):
                hi -= 1
            while hi > lo and PyUnicode_FindChar(drop_trailing, chars[hi - 1], 0, drop_length, 1) >= 0:
                hi -= 1
            while lo < hi and Py_UNICODE_ISSPACE(chars[lo]):
                lo += 1
            while hi > lo and Py_UNICODE_ISSPACE(chars[hi - 1]):
                hi -= 1
            for opening, closing in wrapping:
                if hi - lo >= 2 and _written_at(chars, lo, hi, lo, opening) \
                        and _written_at(chars, lo, hi, hi - len(closing), closing):
                    lo += len(opening)
                    hi = hi - len(closing) if len(closing) else lo   # text[a:-0] is empty
                    if hi < lo:
                        hi = lo
            if lo == before_lo and hi == before_hi:
                break
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars + lo, hi - lo)
    finally:
        PyMem_Free(chars)
