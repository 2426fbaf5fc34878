"""`score resolve` through click's CliRunner, on the command object itself."""

import json

from click.testing import CliRunner

from scorer.commands.resolve import resolve_command

REF = "2026-03-10T09:30:00+08:00"


def test_one_text_prints_interval_and_rule():
    result = CliRunner().invoke(resolve_command, ["下周二", "--reference-time", REF])
    assert result.exit_code == 0, result.output
    assert "start: 2026-03-17T00:00:00+08:00" in result.output
    assert "end: 2026-03-18T00:00:00+08:00" in result.output
    assert "granularity: day" in result.output
    assert "rule: zh.week" in result.output


def test_reference_without_offset_uses_timezone_option():
    result = CliRunner().invoke(resolve_command, ["明天", "--reference-time", "2026-03-10T09:30",
                                                  "--timezone", "UTC"])
    assert "start: 2026-03-11T00:00:00+00:00" in result.output


def test_not_temporal_is_said():
    result = CliRunner().invoke(resolve_command, ["五一广场", "--reference-time", REF])
    assert result.exit_code == 0
    assert "not temporal" in result.output


def test_bad_options_are_usage_errors():
    runner = CliRunner()
    for args in (["明天"], ["明天", "--reference-time", "yesterday-ish"],
                 ["明天", "--reference-time", REF, "--timezone", "Mars/Olympus"], []):
        result = runner.invoke(resolve_command, args)
        assert result.exit_code == 2, (args, result.output)


def test_file_keeps_order_and_survives_bad_lines(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text("\n".join([
        json.dumps({"text": "明天", "reference_time": REF, "other": 1}, ensure_ascii=False),
        "{not json",
        json.dumps({"text": "三星", "reference_time": REF}, ensure_ascii=False),
        json.dumps({"text": "后天"}, ensure_ascii=False),
        json.dumps({"text": "后天", "reference_time": "nonsense"}, ensure_ascii=False),
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(resolve_command, ["--file", str(cases), "--out", str(out),
                                                  "--reference-time", "2026-01-01T00:00:00+08:00"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["text"] for row in rows] == ["明天", None, "三星", "后天", "后天"]
    assert rows[0]["start"] == "2026-03-11T00:00:00+08:00" and rows[0]["rule"] == "zh.relative_day"
    assert "error" in rows[1] and rows[1]["line"] == 2
    assert rows[2]["start"] is None and "error" not in rows[2]
    assert rows[3]["start"] == "2026-01-03T00:00:00+08:00"
    assert "error" in rows[4]


def test_file_to_stdout(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"text": "2026-03-10", "reference_time": REF}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(resolve_command, ["--file", str(cases)])
    row = json.loads(result.output.strip())
    assert row["granularity"] == "day" and row["rule"] == "iso.date"
