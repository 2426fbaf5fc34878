"""Inputs that used to end in a traceback: each is now a clear error naming the file (and row
and field where there is one), exit status 2, or, for a huge argument, a bounded comparison."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import call, verdicts_for
from scorer.cli import cli
from scorer.normalize import MAX_COMPARED_CHARS, Context, canonical
from scorer.schema import Param

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def _run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("damage", ["garbage", "truncated", "middle"])
@pytest.mark.parametrize("side", ["predictions", "gold"])
def test_a_corrupt_parquet_file_is_named(tmp_path, damage, side):
    files = {name: tmp_path / f"{name}.parquet" for name in ("predictions", "gold")}
    for name, path in files.items():
        shutil.copy(EXAMPLES / f"{name}.parquet", path)
    data = files[side].read_bytes()
    broken = {"garbage": b"PAR1 not really",
              "truncated": data[: len(data) // 2],
              "middle": data[:1000] + b"\x00" * 4000 + data[5000:]}[damage]
    files[side].write_bytes(broken)
    result = _run(files["predictions"], files["gold"], "-q")
    assert result.exit_code == 2, result.output
    assert f"{files[side]}: not a readable parquet file" in result.output


TOOL = {"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}


@pytest.mark.parametrize("spoil,message", [
    (lambda t: t["parameters"].update(properties=["x"]), "tool f: properties is list, expected an object"),
    (lambda t: t["parameters"]["properties"]["x"].update(format=5), "tool f, parameter x: format is int"),
    (lambda t: t["parameters"]["properties"]["x"].update(type={"a": 1}), "tool f, parameter x: type is dict"),
    (lambda t: t["parameters"]["properties"]["x"].update(format=["date"]), "tool f, parameter x: format is list"),
    (lambda t: t.update(parameters=["x"]), "tool f: parameters is list"),
])
def test_a_tool_schema_keyword_of_the_wrong_type_names_the_row(tmp_path, spoil, message):
    tool = json.loads(json.dumps(TOOL))
    spoil(tool)
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "gold_calls": [call("f", x="1")], "tools": json.dumps([TOOL])}) + "\n"
                    + json.dumps({"id": "b", "gold_calls": [call("f", x="1")], "tools": json.dumps([tool])}) + "\n")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text(json.dumps({"id": "a", "model": "m", "calls": [call("f", x="1")]}) + "\n")
    result = _run(predictions, gold, "-q")
    assert result.exit_code == 2, result.output
    assert f"g.jsonl row 2, field tools: not valid tool schemas ({message}" in result.output


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+08:00", "9999-12-31T23:00:00+00:00"])
def test_a_reference_time_off_the_calendar_names_the_row(tmp_path, moment):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "reference_time": moment, "gold_calls": [call("f", date="明天")]}) + "\n")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text(json.dumps({"id": "a", "model": "m", "calls": [call("f", date="明天")]}) + "\n")
    result = _run(predictions, gold, "-q")
    assert result.exit_code == 2, result.output
    assert "g.jsonl row 1, field reference_time" in result.output and "outside the years" in result.output


def test_a_gold_date_in_year_one_is_scored():
    rows = verdicts_for([{"id": "x", "gold_calls": [call("get_weather", city="北京", date="0001-01-01")]}],
                        [{"id": "x", "calls": [call("get_weather", city="北京", date="0001-01-01")]}])
    assert rows[("m", "x")]["outcome"] == "correct"


def test_a_huge_text_value_is_compared_exactly_without_folding():
    long = "北京天气" * (MAX_COMPARED_CHARS // 4 + 1)
    canon = canonical(Param(kind="text"), long, Context(None))
    assert canon.rule == "text.too_long" and len(canon.key) < 100
    assert canonical(Param(kind="text"), long, Context(None)).key == canon.key
    assert canonical(Param(kind="text"), long.upper() + "!", Context(None)).key != canon.key
    # at the cap, values are still folded (full width, case)
    short = "ＡＢＣ" + "x" * (MAX_COMPARED_CHARS - 3)
    assert canonical(Param(kind="text"), short, Context(None)).rule != "text.too_long"


def test_a_megabyte_argument_is_scored(tmp_path):
    long = "明天北京天气怎么样" * 120_000
    rows = verdicts_for([{"id": "x", "gold_calls": [call("get_weather", city=long)]}],
                        [{"id": "x", "calls": [call("get_weather", city=long)]},
                         {"id": "x", "model": "n", "calls": [call("get_weather", city=long + "。")]}])
    assert rows[("m", "x")]["outcome"] == "correct"
    assert (rows[("n", "x")]["outcome"], rows[("n", "x")]["subtype"]) == ("param_error", "incorrect_value")
