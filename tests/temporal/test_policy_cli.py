"""--policy NAME=VALUE on the commands: it changes resolutions, scoring (in worker processes
too), is recorded in the verdict file and changes the rules hash; bad values are usage errors."""

import json
import os

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from scorer.cli import cli
from scorer.temporal.policy import use_policy

REF = "2026-03-10T09:30:00+08:00"   # a Tuesday


@pytest.fixture(autouse=True)
def _no_policy_left_behind():
    yield
    use_policy([])  # the option is process-wide; later tests must see the defaults


def test_resolve_follows_the_policy():
    runner = CliRunner()
    default = runner.invoke(cli, ["resolve", "周六", "--reference-time", REF])
    nearest = runner.invoke(cli, ["resolve", "周六", "--reference-time", REF, "--policy", "bare_weekday=nearest"])
    assert "start: 2026-03-14T00:00:00+08:00" in default.output
    assert "start: 2026-03-07T00:00:00+08:00" in nearest.output
    hours = runner.invoke(cli, ["resolve", "早上", "--reference-time", REF, "--policy", "part_of_day.早上=6-10"])
    assert "end: 2026-03-10T10:00:00+08:00" in hours.output


def test_the_policy_ends_with_the_command(monkeypatch):
    """A command run in-process (tests, a notebook) leaves no policy behind: the code and child
    processes after it read the defaults, or the policy that was set before it."""
    from scorer.temporal.policy import POLICY_ENV, default_policy

    monkeypatch.delenv(POLICY_ENV, raising=False)
    use_policy([])
    assert CliRunner().invoke(cli, ["resolve", "周六", "--reference-time", REF,
                                    "--policy", "bare_weekday=nearest"]).exit_code == 0
    assert POLICY_ENV not in os.environ and default_policy().bare_weekday == "upcoming_including_today"
    use_policy(["two_digit_year=past"])
    CliRunner().invoke(cli, ["resolve", "周六", "--reference-time", REF, "--policy", "bare_weekday=nearest"])
    assert json.loads(os.environ[POLICY_ENV]) == ["two_digit_year=past"]
    assert (default_policy().bare_weekday, default_policy().two_digit_year) == ("upcoming_including_today", "past")


@pytest.mark.parametrize("pair, named", [("bare_weekday=soon", "bare_weekday"), ("weekstart=monday", "weekstart"),
                                         ("no_equals_sign", "NAME=VALUE")])
def test_bad_policy_is_a_usage_error_naming_it(pair, named):
    result = CliRunner().invoke(cli, ["resolve", "周六", "--reference-time", REF, "--policy", pair])
    assert result.exit_code == 2 and named in result.output


def test_rules_lists_the_policies_with_their_values():
    runner = CliRunner()
    listed = runner.invoke(cli, ["rules", "--policies"]).output
    assert "bare_weekday\tupcoming_including_today\t" in listed and "two_digit_year\tnearest\t" in listed
    changed = runner.invoke(cli, ["rules", "--policies", "--policy", "bare_weekday=nearest"]).output
    assert "bare_weekday\tnearest\t" in changed


def test_rules_lists_issue_27s_policies_with_their_defaults():
    listed = CliRunner().invoke(cli, ["rules", "--policies", "--policy", "window_whole_units=year,month"]).output
    for row in ("sequence_rolling\t(none)\tsecond | minute | hour | day | week | month | quarter | year",
                "window_whole_units\tyear,month\t", "clock_single_digit\tfive_minutes\tfive_minutes | minutes",
                "after_before\tfrom_start\tfrom_start | from_end",
                "unmarked_date_after_year\tgregorian\tgregorian | unmarked_month_day"):
        assert row in listed, row


def _files(tmp_path):
    tools = json.dumps([{"type": "function", "function": {"name": "book", "parameters": {
        "type": "object", "properties": {"date": {"type": "string", "format": "date"}}}}}])
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "a", "reference_time": REF, "tools": tools,
                                "gold_calls": [{"name": "book", "arguments": {"date": "周六"}}]}) + "\n")
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"id": "a", "model": "m",
                                 "calls": [{"name": "book", "arguments": {"date": "2026-03-07"}}]}) + "\n")
    return str(preds), str(gold)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_scoring_uses_records_and_hashes_the_policy(tmp_path, jobs):
    preds, gold = _files(tmp_path)
    runner = CliRunner()
    plain, nearest = tmp_path / "plain.parquet", tmp_path / "nearest.parquet"
    assert runner.invoke(cli, [preds, gold, "-o", str(plain), "-q", "-j", jobs]).exit_code == 0
    result = runner.invoke(cli, [preds, gold, "-o", str(nearest), "-q", "-j", jobs,
                                 "--policy", "bare_weekday=nearest"])
    assert result.exit_code == 0, result.output
    assert pq.read_table(plain).column("outcome").to_pylist() == ["param_error"]   # 周六 = 03-14
    assert pq.read_table(nearest).column("outcome").to_pylist() == ["correct"]     # 周六 = 03-07
    meta_plain, meta_nearest = pq.read_schema(plain).metadata, pq.read_schema(nearest).metadata
    assert json.loads(meta_nearest[b"callscore.options"])["policy"] == ["bare_weekday=nearest"]
    assert meta_plain[b"callscore.rules_hash"] != meta_nearest[b"callscore.rules_hash"]
