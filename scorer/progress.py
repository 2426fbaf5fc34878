"""A one-line progress display on stderr (rows, rows/s, ETA) for runs longer than a couple of
seconds on a terminal; silent in pipes and with --quiet. Display only: nothing it measures
reaches a result file."""

import sys
import time

_QUIET_SECONDS = 2.0
_EVERY_SECONDS = 0.5


class Progress:
    def __init__(self, enabled: bool, total: int | None = None, stream=None):
        self.enabled, self.total, self.stream = enabled, total, stream or sys.stderr
        self.rows, self.shown = 0, False
        self.started = self.last = time.monotonic()

    def advance(self, rows: int) -> None:
        self.rows += rows
        now = time.monotonic()
        if not self.enabled or now - self.started < _QUIET_SECONDS or now - self.last < _EVERY_SECONDS:
            return
        self.last, self.shown = now, True
        rate = self.rows / (now - self.started)
        line = f"{self.rows:,} rows  {rate:,.0f} rows/s"
        if self.total:
            left = max(self.total - self.rows, 0) / rate if rate else 0
            line = f"{self.rows:,}/{self.total:,} rows  {rate:,.0f} rows/s  ETA {left:,.0f} s"
        self.stream.write("\r" + line.ljust(60))
        self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.shown:
            self.stream.write("\n")
        return False
