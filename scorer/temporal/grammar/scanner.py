"""The left-to-right scanner: tokens in turn, each handler refining the state read so far,
connectors starting the right side of a range.
"""

import dataclasses

from scorer.temporal.dates import OutOfCalendar
from scorer.temporal.grammar.core import GRANULARITY_INDEX, Context, Span, State, _finish
from scorer.temporal.grammar.matching import _candidates, _leading_candidates
from scorer.temporal.grammar.ranges import (
    _BETWEEN_CLOSERS, _BETWEEN_CONNECTORS, _after_words, _open_after, _result, range_left,
)


def scan(text: str, pos: int, ctx: Context, whole: bool):
    """Read tokens from `pos`. Returns (end position, State) of the longest complete reading,
    or None. With whole=True the reading must cover the text to its end (fillers aside)."""
    state, left, side_ctx = State(), None, ctx
    best = None
    started = False
    open_after_end = None  # where X以后 / X之后 ends, read as an open range when nothing follows it
    between = False  # X和Y is a range only as X和Y之间 (3月5日和3月8日 names two days)
    while pos < len(text):
        candidates = _leading_candidates(text, pos)
        if not candidates:
            break
        token, match = candidates[0]
        if token.kind == "filler":
            pos = match.end()
            continue
        if token.kind == "opener":
            if started:
                break
            started = True
            pos = match.end()
            continue
        if len(candidates) == 1 and match.end() == len(text):   # perhaps only the first was matched
            candidates = _then_the_others(text, pos, candidates)
        new_state, token, match = _first_reading(candidates, state, left, side_ctx)
        if new_state is None and token.kind == "connector" and state.span is not None and left is None:
            left = _finish(state, side_ctx)
            if left is None:
                break
            written_left = left if match.group(0) in _after_words() else None
            if written_left is not None:
                if GRANULARITY_INDEX[left.span.granularity] > GRANULARITY_INDEX["hour"]:
                    # 明天以后、5号以前: after a day (or coarser) starts when it ends
                    left = dataclasses.replace(left, span=Span(left.span.end, left.span.end, left.span.granularity))
                open_after_end = match.end()
                opened = None if whole else _open_after(left, ctx)
                best = (open_after_end, opened) if opened is not None else best
            side_ctx = dataclasses.replace(ctx, anchor=left.span.start, anchor_pod=left.pod, left=left,
                                           after_left=written_left)
            between = match.group(0) in _BETWEEN_CONNECTORS
            state = State()
            pos = match.end()
            continue
        if new_state is None:  # a longer candidate read nothing here (" 周" is no offset): a filler may
            filler = next((found for token, found in _candidates(text, pos) if token.kind == "filler"), None)
            if filler is None:
                break
            pos = filler.end()
            continue
        state, pos, started = new_state, match.end(), True
        last_end = pos
        if not whole and not (between and not text[pos:].lstrip().startswith(_BETWEEN_CLOSERS)):
            # in free text every prefix is a candidate; a whole value is read once, at its end
            result = _result(state, range_left(state, left, side_ctx), side_ctx)
            best = (pos, result) if result is not None else best
    if whole and state.span is None and open_after_end is not None and pos >= len(text) \
            and _last_token_end(text, open_after_end) == open_after_end:
        result = _open_after(left, ctx)
        return None if result is None else (open_after_end, result)
    if whole:
        if pos < len(text) or not started or state.span is None or _last_token_end(text, last_end) != last_end \
                or (between and not text[last_end:].lstrip().startswith(_BETWEEN_CLOSERS)):
            return None
        result = _result(state, range_left(state, left, side_ctx), side_ctx)
        return None if result is None else (last_end, result)
    return best


def _then_the_others(text: str, pos: int, leading: tuple):
    """The candidate that reaches the end, then the others at `pos`, matched only if the scanner
    gets past the first."""
    yield from leading
    yield from _candidates(text, pos)[1:]


def _first_reading(candidates, state, left, ctx):
    """(the state of the first candidate whose handler accepts, or None; the candidate the
    scanner stopped at: that one, a connector that ends the side, or the last)."""
    for token, match in candidates:
        if token.kind == "connector" and state.span is not None and left is None:
            return None, token, match
        if token.kind == "token":
            try:
                new_state = token.apply(match, state, ctx)
            except (OutOfCalendar, OverflowError):   # date arithmetic past year 1 or 9999 (去年至周末 in year 2)
                new_state = None
            if new_state is not None:
                return new_state, token, match
    return None, token, match


def _last_token_end(text: str, end: int) -> int:
    """`end` when only fillers follow it, else -1 (a dangling connector such as 明天到)."""
    pos = end
    while pos < len(text):
        filler = next((match for token, match in _candidates(text, pos) if token.kind == "filler"), None)
        if filler is None:  # 截止 is a filler after a value (下周五截止) as well as a word before one
            return -1
        pos = filler.end()
    return end
