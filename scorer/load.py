"""Load: files -> Arrow tables, by extension (.parquet, .jsonl, .json array of objects).

Gold is small and read whole; predictions are read as record batches so that the scorer never
holds one Python object per prediction row for the whole file. A line of a JSON Lines
prediction file that is not a JSON object, or whose id cannot be an id (a fraction, a boolean,
an object), cannot be tied to a gold row: it is reported (file, line and reason) and counted,
and the rest of the file is read. So is a row of a parquet prediction file whose float id is
not a whole number.
"""

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pa_json
import pyarrow.parquet as pq

from scorer.errors import InputError
from scorer.parse import json_text, load_json
from scorer.tables import CALLS, PREDICTIONS

EXTENSIONS = (".parquet", ".jsonl", ".json")
_JSON_COLUMNS = ("gold_calls", "calls", "tools")  # nested values are kept as JSON text


@dataclass
class Unreadable:
    """Prediction lines that could not be tied to any row: (line number, reason); and lines
    that are not JSON but whose id could be read, scored as that row's `malformed` verdict."""

    lines: list = field(default_factory=list)
    malformed: list = field(default_factory=list)
    rows: list = field(default_factory=list)   # InputError per skipped row of a columnar file (its id)
    notes: list = field(default_factory=list)  # what a reader says about a whole file


UTF8_BOM = b"\xef\xbb\xbf"


def without_bom(data: bytes) -> bytes:
    """`data` without the UTF-8 byte order mark that Windows editors put at the start of a file
    and JSON parsers refuse: every reader of a JSON or JSON Lines file strips it this way."""
    return data.removeprefix(UTF8_BOM)


_ID_KEY = re.compile(rb'"id"\s*:\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+)\b)')
_MODEL_KEY = re.compile(rb'"model"\s*:\s*("(?:[^"\\]|\\.)*")')


def salvage(line: bytes, number: int, problem: str) -> dict | None:
    """A prediction line that is not JSON, as a record of its id (and model) with the reason
    in `malformed`, when its top-level id can be read; else None. The same on every line."""
    for found in _ID_KEY.finditer(line):
        before = line[:found.start()]
        if before.count(b"{") - before.count(b"}") != 1:
            continue  # an "id" inside a nested object (a tool call's own id)
        try:
            identifier = orjson.loads(found.group(1)) if found.group(1) else found.group(2).decode()
            model = _MODEL_KEY.search(line)
            model = orjson.loads(model.group(1)) if model else None
        except orjson.JSONDecodeError:
            return None
        return {"id": identifier, "model": model, "malformed": f"line {number}: {problem}"}
    return None


def check_path(path) -> Path:
    """The path, if it exists and its extension is one callscore reads; else InputError."""
    path = Path(path)
    if path.suffix.lower() not in EXTENSIONS:
        raise InputError(path, f"unknown extension {path.suffix or '(none)'!r}; use .parquet, .jsonl or .json")
    if not path.is_file():
        raise InputError(path, "no such file")
    return path


def rows_to_table(path, records) -> pa.Table:
    """JSON records -> a table of their columns; nested values of known JSON columns stay
    JSON text, other nested values become JSON text too, scalars keep their type."""
    names = []
    for record in records:
        for name in record:
            if name not in names:
                names.append(name)
    columns = {}
    for name in names:
        values = [record.get(name) for record in records]
        if name == "id":
            values = [_id_text(path, value, row) for row, value in enumerate(values, start=1)]
        if name in _JSON_COLUMNS or any(isinstance(v, (list, dict)) for v in values):
            values = [json_text(v) for v in values]
        try:
            columns[name] = pa.array(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            columns[name] = pa.array([None if v is None else str(v) for v in values], pa.string())
    return pa.table(columns) if columns else pa.table({})


def json_lines(path, raw=False):
    """(line number, value, problem) for each non-blank line of a JSON Lines file, `problem`
    naming why a line is not JSON (value None then; with `raw`, the line's bytes). One reader
    for every JSON Lines input; each caller decides whether a bad line stops the run or is
    reported and skipped."""
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if number == 1:
                line = without_bom(line)
            if not line.strip():
                continue
            try:
                yield number, load_json(line), None
            except orjson.JSONDecodeError as error:
                yield number, line if raw else None, f"not valid JSON ({error})"


def read_json_records(path: Path, unreadable: Unreadable | None):
    if path.suffix.lower() == ".json":
        try:
            records = load_json(without_bom(path.read_bytes()))
        except orjson.JSONDecodeError as error:
            raise InputError(path, f"not valid JSON ({error})") from None
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise InputError(path, "a .json input must be an array of objects")
        return records
    records = []
    for number, record, problem in json_lines(path, raw=True):
        if problem is None and not isinstance(record, dict):
            problem = "not a JSON object"
        if problem is None and unreadable is not None:
            try:
                _id_as_text(record.get("id"))
            except ValueError as error:
                problem = f"field id: {error}"
        if problem is not None:
            if unreadable is None:
                raise InputError(path, problem, row=number)
            salvaged = salvage(record, number, problem) if isinstance(record, bytes) else None
            if salvaged is None:
                unreadable.lines.append((number, problem))
                continue
            unreadable.malformed.append((number, salvaged["id"]))
            record = salvaged
        records.append(record)
    return records


def read_gold_table(path) -> pa.Table:
    """The gold file as one table with at least `id` and `gold_calls`; ids unique."""
    path = check_path(path)
    if path.suffix.lower() == ".parquet":
        try:
            table = pq.read_table(path)
        except (pa.ArrowException, OSError) as error:
            raise InputError(path, f"not a readable parquet file ({error})") from None
    else:
        table = rows_to_table(path, read_json_records(path, None))
    return validated_gold(table, path)


def validated_gold(table: pa.Table, path) -> pa.Table:
    """A gold table with `id` and `gold_calls`, ids as unique non-empty strings; else
    InputError naming `path`, row and field."""
    for required in ("id", "gold_calls"):
        if required not in table.column_names:
            raise InputError(path, "missing column", field=required)
    table = table.set_column(table.schema.get_field_index("id"), "id", _as_string_ids(path, table["id"]))
    ids = table["id"].to_pylist()
    seen, duplicates = set(), []
    for row, identifier in enumerate(ids, start=1):
        if identifier is None:
            raise InputError(path, "empty id", row=row, field="id")
        if identifier in seen and identifier not in duplicates:
            duplicates.append(identifier)
        seen.add(identifier)
    if duplicates:
        shown = ", ".join(duplicates[:5]) + (" ..." if len(duplicates) > 5 else "")
        raise InputError(path, f"duplicate ids: {shown}", field="id")
    return table


_IDS = "ids must be strings or integers (an integer is read as its decimal text)"


def _id_as_text(value):
    """One JSON id as text: 7, 7.0 and "7" are all "7"; a boolean, a fraction or an object cannot
    stand for an id (ValueError)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    raise ValueError(f"{_IDS}, not {value!r}")


def _id_text(path, value, row):
    """`_id_as_text`, or an error naming the file and row (gold, and .json arrays: a prediction
    line of a JSON Lines file with such an id is reported and skipped before it comes here)."""
    try:
        return _id_as_text(value)
    except ValueError as error:
        raise InputError(path, str(error), row=row, field="id") from None


def _as_string_ids(path, column):
    """The id column as text, so that an integer id in one file matches the same id written
    as a string in the other; a float column whose values are whole numbers (a writer that
    turned integers with gaps into floats) reads as those integers."""
    kind = column.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_null(kind):
        return column.cast(pa.string())
    if pa.types.is_integer(kind):
        return column.cast(pa.string())
    if pa.types.is_floating(kind):
        values = column.to_pylist()
        for row, value in enumerate(values, start=1):
            if not _whole(value):
                raise InputError(path, f"{_IDS}, not {value!r}", row=row, field="id")
        return pa.array([None if value is None else str(int(value)) for value in values], pa.string())
    raise InputError(path, f"{_IDS}, not {kind}", field="id")


def _whole(value) -> bool:
    """Whether a float id (or a null) can stand for an id: a finite whole number."""
    return value is None or (math.isfinite(value) and value.is_integer())


def _without_fractional_ids(path, batch: pa.RecordBatch, first_row: int, unreadable: Unreadable) -> pa.RecordBatch:
    """The batch without the rows whose float id is not a whole number, each reported in
    `unreadable.rows` (file, row counted from `first_row`, field): one such row cannot be tied
    to a gold row, and must not stop the rest."""
    column = batch.column("id")
    if not pa.types.is_floating(column.type):
        return batch
    values = column.to_pylist()
    keep = [_whole(value) for value in values]
    if all(keep):
        return batch
    for offset, (value, kept) in enumerate(zip(values, keep)):
        if not kept:
            unreadable.rows.append(InputError(path, f"{_IDS}, not {value!r}", row=first_row + offset, field="id"))
    return batch.filter(pa.array(keep))


def iter_prediction_batches(path, batch_size: int = 65536, unreadable: Unreadable | None = None, keep=()):
    """Yield the predictions as RecordBatches with `id`, `model`, `calls`, `output`,
    `malformed` and the `keep` columns: parquet by row groups, reading only those columns; JSON
    Lines through pyarrow's streaming reader when the calls are written as text (as callscore
    and most exporters write them), else line by line."""
    path = check_path(path)
    if path.suffix.lower() == ".parquet":
        try:
            parquet = pq.ParquetFile(path)
            _check_prediction_columns(path, parquet.schema_arrow.names)
            wanted = [name for name in (*PREDICTIONS.names, *keep) if name in parquet.schema_arrow.names]
            first_row = 1
            for batch in parquet.iter_batches(batch_size=batch_size, columns=wanted):
                rows = batch.num_rows
                if unreadable is not None:
                    batch = _without_fractional_ids(path, batch, first_row, unreadable)
                first_row += rows
                yield prediction_batch(path, batch, keep)
        except (pa.ArrowException, OSError) as error:  # a corrupt or truncated file, found at any batch
            raise InputError(path, f"not a readable parquet file ({error})") from None
        return
    unreadable = unreadable if unreadable is not None else Unreadable()
    done = 0
    if path.suffix.lower() == ".jsonl":
        try:
            for batch in _arrow_json_batches(path, keep):
                yield prediction_batch(path, batch, keep)
                done += batch.num_rows
            return
        except _NotForArrow:
            pass  # read line by line below, after the rows already given
    table = rows_to_table(path, read_json_records(path, unreadable)).slice(done)
    _check_prediction_columns(path, table.column_names)
    for batch in table.to_batches(max_chunksize=batch_size):
        yield prediction_batch(path, batch, keep)


class _NotForArrow(Exception):
    """pyarrow's JSON reader cannot read this file (nested arguments, a bad line, ...)."""


def _arrow_json_batches(path: Path, keep=()):
    """pyarrow's streaming JSON reader with callscore's prediction columns declared, chosen
    from the first record, and the `keep` columns' types inferred; raises _NotForArrow when the
    file needs the line-by-line reader."""
    first = next((record for _n, record, problem in json_lines(path) if problem is None), None)
    if not isinstance(first, dict):
        raise _NotForArrow
    calls = first.get("calls")
    if isinstance(calls, list) and all(isinstance(c, dict) and isinstance(c.get("arguments"), str) for c in calls):
        calls_type = CALLS
    elif calls is None or isinstance(calls, str):
        calls_type = pa.string()
    else:
        raise _NotForArrow
    _check_prediction_columns(path, list(first))
    schema = pa.schema([("id", pa.string()), ("model", pa.string()), ("calls", calls_type),
                        ("output", pa.string()), ("malformed", pa.string())])
    options = pa_json.ParseOptions(explicit_schema=schema,
                                   unexpected_field_behavior="infer" if keep else "ignore")
    try:
        reader = pa_json.open_json(path, read_options=pa_json.ReadOptions(block_size=16 << 20),
                                   parse_options=options)
        for batch in reader:
            yield batch.select([name for name in (*schema.names, *keep) if name in batch.schema.names])
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise _NotForArrow from None


def _check_prediction_columns(path, names):
    if "id" not in names:
        raise InputError(path, "missing column", field="id")
    if "calls" not in names and "output" not in names:
        raise InputError(path, "needs a `calls` or an `output` column", field="calls")


def prediction_batch(path, batch: pa.RecordBatch, keep=()) -> pa.RecordBatch:
    """A batch in callscore's prediction columns, followed by the `keep` columns (carried into
    the verdicts as they are); a kept column the input lacks is an error naming it."""
    ids = _as_string_ids(path, batch.column("id"))
    n = batch.num_rows
    model = batch.column("model").cast(pa.string()) if "model" in batch.schema.names else pa.nulls(n, pa.string())
    model = pc.fill_null(model, "model")
    columns = {"id": ids, "model": model}
    for name in ("calls", "output", "malformed"):
        columns[name] = batch.column(name) if name in batch.schema.names else pa.nulls(n)
    for name in keep:
        if name not in batch.schema.names:
            raise InputError(path, "no such column to keep (--keep)", field=name)
        columns[name] = batch.column(name)
    return pa.RecordBatch.from_pydict(columns)
