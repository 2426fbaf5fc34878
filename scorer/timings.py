"""Stage timers: with CALLSCORE_TIMINGS=1, `score` prints on stderr where a run's CPU time went,
stage by stage, the workers' time included. Display only: nothing measured reaches a result
file, and with the variable unset nothing is wrapped, so a run pays nothing for them.

Each stage's figure is its own time: a timed call inside another (normalizing values inside
encoding) is taken out of its parent's figure, so the stages add up to the timed work."""

import functools
import os
import time

# in the order a row meets them
STAGES = ("gold", "read", "prepare", "distinct", "parse", "normalize", "encode", "match", "attribute",
          "finish", "write")
DESCRIBED = {"gold": "gold index (parse, normalize, flatten)", "read": "read prediction batches",
             "prepare": "prepare (keys, verdict memo lookup)", "distinct": "distinct predictions (reading memo, spread)",
             "parse": "parse outputs and calls", "normalize": "normalize values (not met before)",
             "encode": "encode (flatten, codebooks, memos)", "match": "match", "attribute": "attribute (verdict columns, words)",
             "finish": "finish (memo merge, spread, tally)", "write": "write verdicts and judge records"}


def wanted() -> bool:
    return os.environ.get("CALLSCORE_TIMINGS", "") not in ("", "0")


class Timings:
    """CPU seconds per stage of one process, plus what its workers reported (`add`)."""

    def __init__(self, clock=time.process_time, started: float = 0.0):
        self.clock = clock
        self.spent = dict.fromkeys(STAGES, 0.0)
        self._inner = []   # per timed call in progress: the time of the timed calls inside it
        self.workers = 0.0   # of the figures, the seconds workers reported
        self.started = started   # process_time counts from the process's start: imports, reading gold are "other"

    def timed(self, stage: str, function):
        """`function`, its own time added to `stage`."""
        @functools.wraps(function)
        def run(*args, **kwargs):
            self._inner.append(0.0)
            start = self.clock()
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = self.clock() - start
                self.spent[stage] += elapsed - self._inner.pop()
                if self._inner:
                    self._inner[-1] += elapsed
        return run

    def iterated(self, stage: str, items):
        """`items`, the time of producing each added to `stage`."""
        step = self.timed(stage, next)
        iterator = iter(items)
        while True:
            try:
                item = step(iterator)
            except StopIteration:
                return
            yield item

    def take(self) -> dict:
        """The figures so far, and start again from zero (a worker's share of one task)."""
        spent, self.spent = self.spent, dict.fromkeys(STAGES, 0.0)
        return spent

    def add(self, spent: dict):
        """A worker's figures (`take`)."""
        for stage, seconds in spent.items():
            self.spent[stage] += seconds
        self.workers += sum(spent.values())

    def report(self) -> list:
        """Lines: each stage's CPU seconds and share, and the main process's time outside them."""
        outside = max(self.clock() - self.started - (sum(self.spent.values()) - self.workers), 0.0)
        total = sum(self.spent.values()) + outside
        lines = [f"stage timers (CPU seconds{', workers included' if self.workers else ''}):"]
        for stage, seconds in [*self.spent.items(), ("other", outside)]:
            label = DESCRIBED.get(stage, "other (main process: imports, gold file, the rest)")
            lines.append(f"  {label:<52} {seconds:8.2f}  {seconds / total if total else 0:6.1%}")
        lines.append(f"  {'total':<52} {total:8.2f}")
        return lines
