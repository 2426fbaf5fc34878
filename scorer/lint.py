"""Gold lint: checks a benchmark before anyone scores against it.

Findings are (row, id, field, message) tuples, in row order; `self_score` scores the gold
against itself (each argument's first accepted value), which must be 100 % correct.
"""

from collections import defaultdict

import orjson
import pyarrow as pa

from scorer.encode import Codebook, GoldIndex
from scorer.options import Options
from scorer.parse import dump_json, load_json
from scorer.pipeline import score_tables

_JSON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
               "object": dict, "array": list}


def _first_value(raw):
    if isinstance(raw, dict) and set(raw) == {"$optional"}:
        raw = raw["$optional"]
    if isinstance(raw, dict) and set(raw) == {"$any"}:
        raw = raw["$any"][0]
    return raw


def _type_ok(declared, value) -> bool:
    expected = _JSON_TYPES.get(declared)
    if expected is None or value is None:
        return True
    if isinstance(value, bool) and declared in ("integer", "number"):
        return False
    return isinstance(value, expected)


def lint(table: pa.Table, path, options: Options) -> list:
    """Every finding about the gold rows (the file itself must already load)."""
    index = GoldIndex(table, path, options, Codebook(), Codebook(), Codebook())
    raw_tools = table["tools"].to_pylist() if "tools" in table.column_names else [None] * table.num_rows
    queries = table["query"].to_pylist() if "query" in table.column_names else [None] * table.num_rows
    times = table["reference_time"].to_pylist() if "reference_time" in table.column_names else [None] * table.num_rows
    findings = []
    by_query = defaultdict(list)
    for number, (gold, tools_json, query) in enumerate(zip(index.rows, raw_tools, queries), start=1):
        schemas = {}
        for tool in orjson.loads(tools_json) if tools_json else []:
            tool = tool.get("function", tool)
            schemas[tool["name"]] = tool.get("parameters") or {}
        if not gold.calls and gold.negative_type is None:
            findings.append((number, gold.id, "negative_type", "a row needing no call has no negative_type"))
        for name, arguments in gold.calls:
            if schemas and name not in schemas:
                findings.append((number, gold.id, "gold_calls", f"{name}: tool not offered in `tools`"))
                continue
            declared = schemas.get(name, {})
            properties = declared.get("properties") or {}
            for required in declared.get("required") or ():
                if required not in arguments:
                    findings.append((number, gold.id, "gold_calls", f"{name}: required argument {required} missing"))
            for param_name, (param, _optional, canons, raws) in arguments.items():
                if schemas and param_name not in properties:
                    findings.append((number, gold.id, "gold_calls", f"{name}.{param_name}: not defined by the tool's schema"))
                    continue
                spec = properties.get(param_name) or {}
                for raw, canon in zip(raws, canons):
                    if not _type_ok(spec.get("type"), raw):
                        findings.append((number, gold.id, "gold_calls",
                                         f"{name}.{param_name}: {raw!r} is not of type {spec.get('type')}"))
                    if spec.get("enum") and raw not in spec["enum"]:
                        findings.append((number, gold.id, "gold_calls", f"{name}.{param_name}: {raw!r} not in enum"))
                    if canon.rule == "temporal.unresolved":
                        findings.append((number, gold.id, "gold_calls",
                                         f"{name}.{param_name}: temporal value {raw!r} does not resolve"))
        if query:
            by_query[query].append((number, gold, times[number - 1]))
    for rows in by_query.values():
        for position, (number, gold, moment) in enumerate(rows):
            for _number, earlier, earlier_moment in rows[:position]:
                if earlier.normalized == gold.normalized:
                    findings.append((number, gold.id, "query", f"duplicate of {earlier.id}: same query, same gold"))
                    break
                if moment == earlier_moment:
                    findings.append((number, gold.id, "gold_calls",
                                     f"conflicts with {earlier.id}: same query and reference time, other gold"))
                    break
    return sorted(findings, key=lambda finding: finding[0])


def self_score(table: pa.Table, options: Options) -> list:
    """Rows of the gold scored against itself that are not correct: (id, outcome, subtype, detail)."""
    calls = []
    for value in table["gold_calls"].to_pylist():
        parsed = load_json(value) if isinstance(value, str) else value
        calls.append(dump_json([
            {"name": c["name"], "arguments": {k: _first_value(v) for k, v in (
                load_json(c["arguments"]) if isinstance(c["arguments"], str) else c["arguments"]).items()}}
            for c in parsed]))
    predictions = pa.table({"id": table["id"], "model": pa.array(["gold"] * table.num_rows),
                            "calls": pa.array(calls, pa.string()), "output": pa.nulls(table.num_rows, pa.string())})
    verdicts = score_tables(predictions, table, options).verdicts
    return [(v["id"], v["outcome"], v["subtype"], v["detail"]) for v in verdicts.to_pylist()
            if v["outcome"] != "correct" or not v["decided"]]
