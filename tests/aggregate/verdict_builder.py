"""Small verdict tables for tests of aggregation, reports and the judge plumbing, built with
the fixed schema of scorer/tables.py so they look exactly like what the scorer writes."""

import pyarrow as pa

from scorer.tables import VERDICTS_FIXED


def verdict(id, outcome="correct", subtype=None, model="m", positive=True, decided=True,
            missing=False, **extra) -> dict:
    """One verdict row; unspecified fixed columns get neutral values, `extra` are gold columns."""
    row = {name: None for name in VERDICTS_FIXED.names}
    row.update(model=model, id=str(id), positive=positive, outcome=outcome, subtype=subtype,
               decided=decided, missing_prediction=missing, errors=[])
    row.update(extra)
    return row


def verdict_table(rows: list[dict]) -> pa.Table:
    """Rows -> Arrow table: the fixed columns with their schema, then carried columns as strings."""
    carried = []
    for row in rows:
        carried.extend(k for k in row if k not in VERDICTS_FIXED.names and k not in carried)
    schema = pa.schema(list(VERDICTS_FIXED) + [pa.field(name, pa.string()) for name in carried])
    return pa.Table.from_pylist(rows, schema=schema)
