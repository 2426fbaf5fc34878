"""Verdict files, written batch by batch (parquet or JSON Lines, by extension), to a temporary
file renamed into place on success, so a failed run never leaves half a file behind.

Encoding and compressing a batch release the GIL, so the writing runs in a background thread,
in order, while the next batch is scored; the queue holds at most one batch, so memory
stays bounded."""

import os
import queue
import threading
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from scorer.errors import InputError
from scorer.outputs import open_partial

# statistics only where they help readers filter (min/max of long texts cost time, help nobody)
_STATISTICS = ["model", "id", "positive", "outcome", "subtype", "decided", "missing_prediction"]
_DONE = object()
ROW_GROUP_ROWS = 1 << 16  # divides the default batch, so the writer holds next to nothing back


class VerdictWriter:
    def __init__(self, path, metadata: dict):
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in (".parquet", ".jsonl"):
            raise InputError(self.path, "verdicts are written as .parquet or .jsonl")
        self.kind = suffix
        self.metadata = {key: str(value) for key, value in metadata.items()}
        self.temporary, self._handle = open_partial(self.path)
        self._parquet = None
        self._pending, self._pending_rows = [], 0
        self._queue = queue.Queue(maxsize=1)
        self._error = None
        self._thread = None  # started by the first batch: worker processes are forked before it

    def write(self, batch):
        if self._error is not None:
            raise self._error
        if self._thread is None:
            self._thread = threading.Thread(target=self._drain, name="callscore-writer", daemon=True)
            self._thread.start()
        self._queue.put(batch)

    def _drain(self):
        while True:
            batch = self._queue.get()
            if batch is _DONE:
                return
            if self._error is None:
                try:
                    self._write_now(batch)
                except BaseException as error:  # noqa: BLE001 - re-raised in the scoring thread
                    self._error = error

    def _write_now(self, batch):
        if self.kind == ".parquet":
            if self._parquet is None:
                schema = batch.schema.with_metadata(self.metadata)
                statistics = [name for name in _STATISTICS if name in schema.names]
                self._parquet = pq.ParquetWriter(self._handle, schema, compression="zstd",
                                                 write_statistics=statistics)
            self._pending.append(batch.replace_schema_metadata(self.metadata))
            self._pending_rows += batch.num_rows
            if self._pending_rows >= ROW_GROUP_ROWS:
                self._flush_row_groups(final=False)
            return
        self._handle.write(b"".join(orjson.dumps(row) + b"\n" for row in batch.to_pylist()))

    def _flush_row_groups(self, final: bool):
        """Row groups of ROW_GROUP_ROWS rows whatever the scoring batches were, so the file's
        bytes do not depend on --batch-size or --jobs; the rest waits (or ends the file)."""
        table = pa.Table.from_batches(self._pending)
        whole = table.num_rows if final else table.num_rows - table.num_rows % ROW_GROUP_ROWS
        if whole:
            self._parquet.write_table(table.slice(0, whole), row_group_size=ROW_GROUP_ROWS)
        rest = table.slice(whole)
        self._pending = rest.to_batches() if rest.num_rows else []
        self._pending_rows = rest.num_rows

    def _finish_thread(self):
        if self._thread is not None:
            self._queue.put(_DONE)
            self._thread.join()

    def close(self):
        self._finish_thread()
        if self._parquet is not None and self._error is None and self._pending_rows:
            try:
                self._flush_row_groups(final=True)
            except BaseException as error:  # noqa: BLE001 - reported below like a write error
                self._error = error
        for closer in (self._parquet, self._handle):
            if closer is not None:
                closer.close()
        if self._error is not None:
            self.temporary.unlink(missing_ok=True)
            raise self._error
        if self.kind == ".parquet" and self._parquet is None:
            self.temporary.unlink(missing_ok=True)
            return  # no batch, not even an empty one: no file rather than a file without a schema
        os.replace(self.temporary, self.path)

    def abort(self):
        self._finish_thread()
        for closer in (self._parquet, self._handle):
            if closer is not None:
                closer.close()
        self.temporary.unlink(missing_ok=True)
