"""Verdict files read back (`score table`, `plot`, `merge-judge`, `audit`, and library users):
parquet or JSON Lines, by extension, the fixed columns in their schema types."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from scorer.errors import InputError
from scorer.load import json_lines
from scorer.outputs import written_atomically
from scorer.tables import VERDICTS_FIXED

REQUIRED = ("model", "id", "positive", "outcome", "subtype", "decided", "missing_prediction")


def read_verdicts(path) -> pa.Table:
    """A verdict file (.parquet or .jsonl) as a table; fixed columns get their schema types."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "no such file")
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        try:
            table = pq.read_table(path)
        except (pa.ArrowException, OSError) as error:
            raise InputError(path, f"not a readable parquet file ({error})") from error
    elif suffix == ".jsonl":
        table = _read_jsonl(path)
    else:
        raise InputError(path, f"unknown extension {suffix or '(none)'!r} (use .parquet or .jsonl)")
    absent = [c for c in REQUIRED if c not in table.column_names]
    if absent:
        raise InputError(path, "missing verdict column(s)", field=", ".join(absent))
    return table


def _read_jsonl(path: Path) -> pa.Table:
    rows = []
    for number, row, problem in json_lines(path):
        if problem is not None or not isinstance(row, dict):
            raise InputError(path, problem or "expected a JSON object", row=number)
        rows.append(row)
    names = list(VERDICTS_FIXED.names)
    for row in rows:
        names.extend(k for k in row if k not in names)
    present = [n for n in names if any(n in row for row in rows)]
    columns = {}
    for name in present:
        kind = VERDICTS_FIXED.field(name).type if name in VERDICTS_FIXED.names else None
        try:
            columns[name] = pa.array([row.get(name) for row in rows], type=kind)
        except (pa.ArrowException, TypeError, ValueError) as error:
            raise InputError(path, f"values of the wrong type ({error})", field=name) from error
    return pa.table(columns) if columns else pa.table({n: pa.array([], VERDICTS_FIXED.field(n).type)
                                                        for n in REQUIRED})


def write_verdicts(table: pa.Table, path) -> None:
    """Parquet or JSON lines by extension (JSON lines keep the column order), written atomically."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".jsonl"):
        raise InputError(path, f"unknown extension {suffix or '(none)'!r} (use .parquet or .jsonl)")
    with written_atomically(path) as handle:
        if suffix == ".parquet":
            pq.write_table(table, handle)
        else:
            for row in table.to_pylist():
                handle.write((json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8"))
