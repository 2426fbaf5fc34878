"""A rule file that cannot be read or validated stops every command with status 2, naming the
file and the line, before anything is scored: never a resolver that quietly answers "not
temporal" because its vocabulary failed to load."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import cli
from scorer.rules import rules_dir

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
REFERENCE = "2026-03-04T10:00:00+08:00"


@pytest.fixture
def own_rules(tmp_path, monkeypatch):
    monkeypatch.delenv("CALLSCORE_RULES", raising=False)
    copy = tmp_path / "rules"
    shutil.copytree(rules_dir(), copy)
    monkeypatch.setenv("CALLSCORE_RULES", str(copy))  # --rules sets it; restored after the test
    return copy


def _commands(rules):
    return {
        "score": [str(EXAMPLES / "predictions.parquet"), str(EXAMPLES / "gold.parquet"), "-q", "--rules", str(rules)],
        "resolve": ["resolve", "明天", "--reference-time", REFERENCE, "--rules", str(rules)],
        "lint": ["lint", str(EXAMPLES / "gold.parquet"), "--rules", str(rules)],
    }


def _line_of(path: Path, start: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line.startswith(start))


def _assert_refused(rules, expected):
    for name, args in _commands(rules).items():
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, (name, result.output)
        assert expected in result.output, (name, result.output)
        assert "Traceback" not in result.output


def test_a_toml_syntax_error_names_the_file_and_line(own_rules):
    zh = own_rules / "temporal" / "zh.toml"
    lines = zh.read_text(encoding="utf-8").split("\n")
    lines.insert(3, "broken = = 1")
    zh.write_text("\n".join(lines), encoding="utf-8")
    _assert_refused(own_rules, f"{zh} line 4: not valid TOML")


def test_an_unknown_policy_value_names_the_file_and_line(own_rules):
    policy = own_rules / "temporal" / "policy.toml"
    policy.write_text(policy.read_text(encoding="utf-8").replace('week_start = "monday"', 'week_start = "tuesday"'),
                      encoding="utf-8")
    _assert_refused(own_rules, f"{policy} line {_line_of(policy, 'week_start')}: week_start = 'tuesday'")


def test_a_policy_value_of_the_wrong_type_is_refused(own_rules):
    policy = own_rules / "temporal" / "policy.toml"
    policy.write_text(policy.read_text(encoding="utf-8").replace("recent_includes_today = true",
                                                                 "recent_includes_today = 1"), encoding="utf-8")
    _assert_refused(own_rules, f"{policy} line {_line_of(policy, 'recent_includes_today')}")


def test_a_missing_vocabulary_file_is_named(own_rules):
    (own_rules / "numbers" / "zh.toml").unlink()
    _assert_refused(own_rules, f"{own_rules / 'numbers' / 'zh.toml'}: rule file missing")


def test_binary_garbage_in_a_tsv_names_the_file_and_line(own_rules):
    cities = own_rules / "aliases" / "cities.tsv"
    lines = cities.read_bytes().split(b"\n")
    cities.write_bytes(b"\n".join(lines[:5] + [b"\xff\xfe\x00\x13garbage"] + lines[5:]))
    _assert_refused(own_rules, f"{cities} line 6: not UTF-8")


def test_a_nul_byte_in_a_tsv_names_the_file_and_line(own_rules):
    cities = own_rules / "aliases" / "cities.tsv"
    lines = cities.read_bytes().split(b"\n")
    cities.write_bytes(b"\n".join(lines[:2] + [b"abc\x00def\tghi"] + lines[2:]))
    _assert_refused(own_rules, f"{cities} line 3: NUL byte")


def test_an_intact_copy_still_scores(own_rules):
    for name, args in _commands(own_rules).items():
        result = CliRunner().invoke(cli, args)
        assert result.exit_code in (0, 1), (name, result.output)  # lint exits 1 when it finds problems
        assert "Error" not in result.output, (name, result.output)
