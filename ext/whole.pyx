# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of scorer/temporal/whole_py.py: dates written whole (ISO 8601 dates and date-times,
2026年3月10日) taken apart in one typed pass over the characters, instead of a regex and its
groups. The shapes read, and why, are documented in whole_py.py, which is the definition."""


cdef inline int _number(str text, Py_ssize_t length, Py_ssize_t *at, int least, int most):
    """The number written in `least` to `most` ASCII digits at at[0] (moved past them), or -1
    when fewer digits are there."""
    cdef Py_ssize_t start = at[0]
    cdef int value = 0
    cdef Py_UCS4 char
    while at[0] < length and at[0] - start < most:
        char = text[at[0]]
        if char < u'0' or char > u'9':
            break
        value = value * 10 + <int> char - 48   # the digit's value
        at[0] += 1
    if at[0] - start < least:
        return -1
    return value


cdef inline bint _past(str text, Py_ssize_t length, Py_ssize_t *at, Py_UCS4 mark):
    """Whether `mark` is at at[0] (then moved past it)."""
    if at[0] < length and text[at[0]] == mark:
        at[0] += 1
        return True
    return False


cdef inline bint _past_date_separator(str text, Py_ssize_t length, Py_ssize_t *at):
    return _past(text, length, at, u'-') or _past(text, length, at, u'/') or _past(text, length, at, u'.')


cdef inline void _past_spaces(str text, Py_ssize_t length, Py_ssize_t *at):
    while _past(text, length, at, u' '):
        pass


cdef inline bint _clock(str text, Py_ssize_t length, Py_ssize_t *at, int *hour, int *minute):
    """An hour (one or two digits), a colon and a two-digit minute at at[0] (moved past them)."""
    hour[0] = _number(text, length, at, 1, 2)
    if hour[0] < 0 or not _past(text, length, at, u':'):
        return False
    minute[0] = _number(text, length, at, 2, 2)
    return minute[0] >= 0


cdef object _offset(str text, Py_ssize_t length, Py_ssize_t at, bint after_seconds):
    """Minutes east of UTC written from `at` to the end (z, or spaces, a sign, hours and
    minutes), None when no offset is written, False when the rest is not an offset."""
    cdef int sign, hours, minutes
    if at == length:
        return None
    if _past(text, length, &at, u'z'):
        return 0 if at == length else False
    _past_spaces(text, length, &at)
    if _past(text, length, &at, u'+'):
        sign = 1
    elif after_seconds and _past(text, length, &at, u'-'):
        sign = -1
    else:
        return False
    hours = _number(text, length, &at, 2, 2)
    if hours < 0:
        return False
    if at == length and after_seconds:   # +08: hours alone, after seconds only
        return sign * 60 * hours
    _past(text, length, &at, u':')
    minutes = _number(text, length, &at, 2, 2)
    if minutes < 0 or at != length:
        return False
    return sign * (60 * hours + minutes)


def iso_fields(str text):
    cdef Py_ssize_t length = len(text), at = 0
    cdef int year, month, day, hour, minute, second = 0
    cdef bint after_seconds = False
    year = _number(text, length, &at, 4, 4)
    if year < 0 or not _past_date_separator(text, length, &at):
        return None
    month = _number(text, length, &at, 1, 2)
    if month < 0 or not _past_date_separator(text, length, &at):
        return None
    day = _number(text, length, &at, 1, 2)
    if day < 0:
        return None
    if at == length:
        return year, month, day, None, 0, 0, None
    if text[at] == u' ':
        _past_spaces(text, length, &at)
    elif not (_past(text, length, &at, u't') or _past(text, length, &at, u'-')):
        return None
    if not _clock(text, length, &at, &hour, &minute):
        return None
    if _past(text, length, &at, u':'):
        second = _number(text, length, &at, 2, 2)
        if second < 0:
            return None
        after_seconds = True
        if _past(text, length, &at, u'.'):   # a fraction of a second: read past, not kept
            if at == length or not u'0' <= text[at] <= u'9':
                return None
            while at < length and u'0' <= text[at] <= u'9':
                at += 1
    offset = _offset(text, length, at, after_seconds)
    if offset is False:
        return None
    return year, month, day, hour, minute, second, offset


def zh_date_fields(str text):
    cdef Py_ssize_t length = len(text), at = 0
    cdef int year, month, day, hour, minute, second
    year = _number(text, length, &at, 4, 4)
    if year < 0 or not _past(text, length, &at, u'年'):
        return None
    month = _number(text, length, &at, 1, 2)
    if month < 0 or not _past(text, length, &at, u'月'):
        return None
    day = _number(text, length, &at, 1, 2)
    if day < 0 or not (_past(text, length, &at, u'日') or _past(text, length, &at, u'号')):
        return None
    if at == length:
        return year, month, day, None, None, None
    _past(text, length, &at, u' ')
    if not _clock(text, length, &at, &hour, &minute):
        return None
    if at == length:
        return year, month, day, hour, minute, None
    if not _past(text, length, &at, u':'):
        return None
    second = _number(text, length, &at, 2, 2)
    if second < 0 or at != length:
        return None
    return year, month, day, hour, minute, second
