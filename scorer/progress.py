"""The progress display on stderr: rows read, rows/s and, when the total is known (parquet),
a bar with the ETA. Shown from the start on a terminal, silent in pipes and with --quiet.
Display only: nothing it measures reaches a result file.

tqdm draws it rather than a hand-rolled line: it is already installed beside our
dependencies, sizes itself to the terminal, smooths the rate, and prints nothing when
disabled; rich would add a larger dependency for the same one line. Its monitor thread is
switched off: worker processes are forked after the display starts, and a fork must not
happen while another thread may hold a lock."""

import sys

from tqdm import tqdm

tqdm.monitor_interval = 0
_EVERY_SECONDS = 0.5


class Progress:
    def __init__(self, enabled: bool, total: int | None = None, stream=None):
        self.bar = tqdm(total=total, disable=not enabled, file=stream or sys.stderr, unit=" rows",
                        unit_scale=False, mininterval=_EVERY_SECONDS, dynamic_ncols=True, leave=True,
                        desc="reading", bar_format=None if total else "{desc}: {n_fmt}{unit} [{elapsed}, {rate_fmt}]")

    def advance(self, rows: int) -> None:
        self.bar.update(rows)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.bar.close()
        return False
