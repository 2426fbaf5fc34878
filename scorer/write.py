"""Verdict files, written batch by batch (parquet or JSON Lines, by extension), to a temporary
file renamed into place on success, so a failed run never leaves half a file behind."""

import os
from pathlib import Path

import orjson
import pyarrow.parquet as pq

from scorer.errors import InputError


class VerdictWriter:
    def __init__(self, path, metadata: dict):
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in (".parquet", ".jsonl"):
            raise InputError(self.path, "verdicts are written as .parquet or .jsonl")
        self.kind = suffix
        self.metadata = {key: str(value) for key, value in metadata.items()}
        self.temporary = self.path.with_name(f".{self.path.name}.partial")
        self._parquet = None
        self._handle = None

    def write(self, batch):
        if self.kind == ".parquet":
            if self._parquet is None:
                schema = batch.schema.with_metadata(self.metadata)
                self._parquet = pq.ParquetWriter(self.temporary, schema, compression="zstd")
            self._parquet.write_batch(batch.replace_schema_metadata(self.metadata))
            return
        if self._handle is None:
            self._handle = open(self.temporary, "wb")
        for row in batch.to_pylist():
            self._handle.write(orjson.dumps(row) + b"\n")

    def close(self):
        if self.kind == ".parquet" and self._parquet is None:
            return  # nothing was scored: no file rather than a file without a schema
        if self._parquet is not None:
            self._parquet.close()
        if self._handle is not None:
            self._handle.close()
        os.replace(self.temporary, self.path)

    def abort(self):
        for closer in (self._parquet, self._handle):
            if closer is not None:
                closer.close()
        if self.temporary.exists():
            self.temporary.unlink()
