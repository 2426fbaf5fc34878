"""Impossible dates are decided temporal errors; rows without a reference time still compare
dates and clock times that need none, so a wrong time of day is temporal, not incorrect_value."""

import json

import pyarrow as pa
import pytest
from helpers import call, prediction_table, verdicts_for

from scorer.normalize.dates import impossible_date
from scorer.options import Options
from scorer.pipeline import score_tables

DATE = {"date": {"type": "string", "format": "date"}}
TIME = {"at": {"type": "string", "format": "time"}}
DATETIME = {"at": {"type": "string", "format": "date-time"}}


def _verdict(properties, gold, predicted, reference=True):
    tool = {"name": "t", "parameters": {"type": "object", "properties": properties}}
    if reference:   # helpers' reference time, Wednesday 2026-03-04
        rows = [{"id": "x", "gold_calls": [call("t", **gold)], "tools": json.dumps([tool])}]
        return verdicts_for(rows, [{"id": "x", "calls": [call("t", **predicted)]}])[("m", "x")]
    table = pa.Table.from_pylist([{"id": "x", "gold_calls": json.dumps([call("t", **gold)], ensure_ascii=False),
                                   "tools": json.dumps([tool])}])
    return score_tables(prediction_table([{"id": "x", "calls": [call("t", **predicted)]}]), table,
                        Options()).verdicts.to_pylist()[0]


@pytest.mark.parametrize("text", ["2月31日", "6月31日", "二月三十日", "2027-02-29", "2026-02-30", "2026/04/31",
                                  "2026年6月31日", "2026-13-01", "2026-00-10", "February 30", "June 31, 2026", "may 32",
                                  "6月31日到7月2日"])
def test_days_no_calendar_has(text):
    assert impossible_date(text)


@pytest.mark.parametrize("text", ["2月29日", "2028-02-29", "2026-02-28", "6月30日", "二月二十八日", "3月31号",
                                  "February 29", "12月31日", "5月1日劳动节", "明天", "31"])
def test_days_that_exist(text):
    assert not impossible_date(text)


@pytest.mark.parametrize("predicted", ["2026-02-31", "2月31日", "6月31日", "2027-02-29"])
@pytest.mark.parametrize("reference", [True, False])
def test_an_impossible_predicted_date_is_a_decided_temporal_error(predicted, reference):
    v = _verdict(DATE, {"date": "2026-03-05"}, {"date": predicted}, reference)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "temporal", True), v
    assert "invalid_date" in v["detail"]


@pytest.mark.parametrize("properties, gold, predicted", [
    (TIME, "16:45", "04:45"), (TIME, "下午4点", "上午4点"), (TIME, "16:45", "4:45 AM"),
    (DATETIME, "2026-03-05T16:45:00", "2026-03-05T04:45:00"), (DATETIME, "2026-03-05 16:45", "2026-03-05 04:45"),
])
@pytest.mark.parametrize("reference", [True, False])
def test_a_wrong_time_of_day_is_temporal(properties, gold, predicted, reference):
    name = next(iter(properties))
    v = _verdict(properties, {name: gold}, {name: predicted}, reference)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "temporal", True), v


@pytest.mark.parametrize("properties, gold, predicted", [
    (TIME, "16:45", "4:45 PM"), (TIME, "15:00", "下午3点"), (DATE, "2026-03-05", "March 5, 2026"),
    (DATETIME, "2026-03-05T16:45:00", "2026-03-05 16:45"),
])
def test_without_a_reference_time_absolute_values_still_compare_equal(properties, gold, predicted):
    name = next(iter(properties))
    v = _verdict(properties, {name: gold}, {name: predicted}, reference=False)
    assert (v["outcome"], v["decided"]) == ("correct", True), v


def test_without_a_reference_time_a_relative_value_stays_for_a_judge():
    v = _verdict(DATE, {"date": "2026-03-05"}, {"date": "明天"}, reference=False)
    assert v["decided"] is False and v["uncertain_reason"] == "no_reference_time"  # issue 15: the reason named
