"""Builders shared by the tests: small gold and prediction tables from Python literals."""

import importlib
import json
import os

import pyarrow as pa
import pytest

from scorer.options import Options
from scorer.pipeline import score_tables

WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Weather forecast for a city",
    "parameters": {"type": "object", "properties": {
        "city": {"type": "string"},
        "date": {"type": "string", "format": "date"},
        "days": {"type": "integer"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
    }, "required": ["city"]},
}
FLIGHT_TOOL = {
    "name": "search_flights",
    "description": "Flights between two cities on a day",
    "parameters": {"type": "object", "properties": {
        "from_city": {"type": "string"}, "to_city": {"type": "string"},
        "date": {"type": "string", "format": "date"},
    }, "required": ["from_city", "to_city", "date"]},
}
REFERENCE = "2026-03-04T10:00:00+08:00"  # a Wednesday


def compiled_core(module: str, what: str):
    """(the compiled module, or None where it is not built; the marker for a test that needs it:
    a skip there, except under CALLSCORE_REQUIRE_EXT=1, where CI makes a missing core a failure)."""
    try:
        core = importlib.import_module(module)
    except ImportError:  # pragma: no cover - exercised where the extension is not built
        core = None
    return core, pytest.mark.skipif(core is None and not os.environ.get("CALLSCORE_REQUIRE_EXT"),
                                    reason=f"compiled {what} not built (CI sets CALLSCORE_REQUIRE_EXT=1 to make this a failure)")


def call(name, **arguments):
    return {"name": name, "arguments": arguments}


def gold_table(rows):
    """rows: dicts with id, gold_calls (list of call dicts) and optional extra columns."""
    records = []
    for row in rows:
        record = {"reference_time": REFERENCE, "tools": json.dumps([WEATHER_TOOL, FLIGHT_TOOL]), **row}
        record["gold_calls"] = json.dumps(record["gold_calls"], ensure_ascii=False)
        records.append(record)
    return pa.Table.from_pylist(records)


def prediction_table(rows):
    """rows: dicts with id, model, and calls (list) or output (text)."""
    records = []
    for row in rows:
        calls = row.get("calls")
        records.append({"id": row["id"], "model": row.get("model", "m"),
                        "calls": None if calls is None else json.dumps(calls, ensure_ascii=False),
                        "output": row.get("output")})
    return pa.table({name: pa.array([r[name] for r in records], pa.string())
                     for name in ("id", "model", "calls", "output")})


def verdicts_for(gold_rows, prediction_rows, **options):
    result = score_tables(prediction_table(prediction_rows), gold_table(gold_rows), Options(**options))
    return {(row["model"], row["id"]): row for row in result.verdicts.to_pylist()}


def string_verdict(gold, predicted, param="value", options=None, **spec):
    """The verdict of one predicted value against gold for one string parameter (`spec` adds to
    its schema: a description, a format) of a one-parameter tool."""
    tool = {"name": "t", "parameters": {"type": "object", "properties": {param: {"type": "string", **spec}}}}
    rows = [{"id": "x", "gold_calls": [call("t", **{param: gold})], "tools": json.dumps([tool])}]
    return verdicts_for(rows, [{"id": "x", "calls": [call("t", **{param: predicted})]}], **(options or {}))[("m", "x")]


def verdict(gold_calls, predicted=None, output=None, negative_type=None, **options):
    """The verdict of one prediction against one gold row."""
    gold_row = {"id": "x", "gold_calls": gold_calls}
    if negative_type:
        gold_row["negative_type"] = negative_type
    pred = {"id": "x", "calls": predicted} if output is None else {"id": "x", "output": output}
    return verdicts_for([gold_row], [pred], **options)[("m", "x")]
