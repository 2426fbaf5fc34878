"""The command group: default action, options before arguments, help everywhere."""

import json
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from scorer.cli import cli


def _files(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "gold_calls": [{"name": "f", "arguments": {"x": 1}}]}) + "\n")
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "a", "model": "m", "calls": [{"name": "f", "arguments": {"x": "1"}}]}) + "\n")
    return preds, gold


def test_default_command_scores(tmp_path):
    preds, gold = _files(tmp_path)
    result = CliRunner().invoke(cli, [str(preds), str(gold)])
    assert result.exit_code == 0, result.output
    assert "100.0" in result.output.splitlines()[2]


def test_options_before_arguments(tmp_path):
    preds, gold = _files(tmp_path)
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(cli, ["--out", str(out), "-q", str(preds), str(gold)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["outcome"] == "correct"


def test_every_command_is_named_in_the_readme():
    readme = (DATA.parents[1] / "README.md").read_text(encoding="utf-8")
    for name, command in cli.commands.items():
        if not command.hidden:
            assert f"score {name}" in readme, name


def test_every_command_has_help():
    runner = CliRunner()
    top = runner.invoke(cli, ["--help"])
    assert top.exit_code == 0 and "[OPTIONS] PREDICTIONS... GOLD" in top.output
    for name, command in cli.commands.items():
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert command.help, f"{name} has no help text"


DATA = __import__("pathlib").Path(__file__).resolve().parents[1] / "data"


def test_provider_dump_scored_directly(tmp_path):
    gold = tmp_path / "gold.jsonl"
    rows = [
        {"id": "flight-1", "gold_calls": [{"name": "search_flights", "arguments": {
            "origin": "PEK", "destination": "SHA", "date": "2026-03-11", "cabin": "economy"}}]},
        {"id": "flight-2", "gold_calls": [{"name": "search_flights", "arguments": {"origin": "PEK", "destination": "CAN"}}]},
        {"id": "flight-3", "gold_calls": [{"name": "search_flights", "arguments": {"origin": "PEK"}}]},
    ]
    gold.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(cli, [str(DATA / "outputs" / "anthropic.jsonl"), str(gold), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    verdicts = {v["id"]: v for v in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert verdicts["flight-1"]["outcome"] == "correct"
    assert (verdicts["flight-2"]["outcome"], verdicts["flight-2"]["subtype"]) == ("over_recall", "extra_call")
    assert verdicts["flight-3"]["subtype"] == "no_call"


def test_bfcl_files_scored_directly(tmp_path):
    questions = DATA / "bfcl" / "v1" / "gorilla_openfunctions_v1_test_simple.json"
    first = json.loads(questions.read_text().splitlines()[0])
    answer = json.loads((DATA / "bfcl" / "v1" / "possible_answer" / questions.name).read_text().splitlines()[0])
    name, accepted = next(iter(answer["ground_truth"].items()))
    arguments = {key: values[0] for key, values in accepted.items() if values and values[0] != ""}
    results = tmp_path / "gorilla_openfunctions_v1_test_simple_result.json"
    results.write_text(json.dumps({"id": first["id"], "result": [{name: json.dumps(arguments)}]}) + "\n")
    result = CliRunner().invoke(cli, [str(results), str(questions), "--pred-format", "bfcl", "--gold-format", "bfcl",
                                      "-o", str(tmp_path / "v.jsonl"), "-q"])
    assert result.exit_code == 0, result.output
    verdict = json.loads((tmp_path / "v.jsonl").read_text().splitlines()[0])
    assert (verdict["id"], verdict["outcome"]) == (first["id"], "correct")


def test_ambiguous_or_unknown_format_asks_for_the_option(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"key": "1", "answer": 3}) + "\n")
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "1", "calls": []}) + "\n")
    result = CliRunner().invoke(cli, [str(preds), str(gold)])
    assert result.exit_code == 2 and "--gold-format" in result.output


def test_rules_lists_files_with_version_and_hash():
    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.startswith("aliases/cities.tsv\tversion 1\t") for line in lines)
    assert lines[-1].startswith("rules ") and len(lines[-1].rsplit(": ", 1)[1]) == 16


def _own_rules(tmp_path, relative: str, addition: str):
    """A copy of the shipped rules with `addition` appended to one file; (checkout, copy)."""
    root = DATA.parents[1]
    rules = tmp_path / "rules"
    shutil.copytree(root / "rules", rules)
    with open(rules / relative, "a", encoding="utf-8") as handle:
        handle.write(addition)
    return root, rules


def test_own_rules_directory_changes_what_counts_as_equal(tmp_path):
    root, rules = _own_rules(tmp_path, "aliases/cities.tsv", "东京\t江户\n")
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "gold_calls": [{"name": "f", "arguments": {"city": "东京"}}]},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "a", "calls": [{"name": "f", "arguments": {"city": "江户"}}]},
                                ensure_ascii=False) + "\n", encoding="utf-8")
    outcomes = []
    for extra in ([], ["--rules", str(rules)]):
        out = tmp_path / f"v{len(extra)}.jsonl"
        subprocess.run([sys.executable, "-m", "scorer", str(preds), str(gold), "-o", str(out), "-q", *extra],
                       check=True, cwd=root)
        outcomes.append(json.loads(out.read_text(encoding="utf-8"))["outcome"])
    assert outcomes == ["param_error", "correct"]


def test_lint_and_resolve_read_an_own_rules_directory_too(tmp_path):
    root, rules = _own_rules(tmp_path, "holidays/holidays.toml",
                             '[holiday."校庆"]\nrule = "gregorian"\ndate = "05-20"\n')
    tools = [{"name": "f", "parameters": {"type": "object",
                                          "properties": {"date": {"type": "string", "format": "date"}}}}]
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "gold_calls": [{"name": "f", "arguments": {"date": "校庆"}}],
                                "reference_time": "2026-03-01T10:00:00+08:00", "tools": json.dumps(tools)},
                               ensure_ascii=False) + "\n", encoding="utf-8")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "scorer", *args], cwd=root, capture_output=True, text=True)

    assert run("lint", str(gold)).returncode == 1
    assert run("lint", str(gold), "--rules", str(rules)).returncode == 0
    resolved = run("resolve", "校庆", "--reference-time", "2026-03-01T10:00:00+08:00", "--rules", str(rules))
    assert "start: 2026-05-20T00:00:00+08:00" in resolved.stdout
    assert "not temporal" in run("resolve", "校庆", "--reference-time", "2026-03-01T10:00:00+08:00").stdout


def test_lint_reads_a_benchmark_format_named_by_gold_format():
    bfcl = DATA / "bfcl" / "v4" / "BFCL_v4_simple_python.json"
    runner = CliRunner()
    named = runner.invoke(cli, ["lint", str(bfcl), "--gold-format", "bfcl"])
    assert named.exit_code in (0, 1), named.output   # 1: findings; never a usage or input error
    assert "gold against itself" in named.output
    wrong = runner.invoke(cli, ["lint", str(bfcl), "--gold-format", "callscore"])
    assert wrong.exit_code == 2 and "Error: " in wrong.output  # read as callscore JSON: refused


def test_a_usage_error_of_the_scoring_command_names_score_not_a_hidden_command(tmp_path):
    preds, gold = _files(tmp_path)
    result = CliRunner().invoke(cli, ["--no-such-option", str(preds), str(gold)], prog_name="score")
    assert result.exit_code == 2
    assert result.output.splitlines()[:2] == ["Usage: score [OPTIONS] PREDICTIONS... GOLD",
                                              "Try 'score --help' for help."]
    assert "score run" not in result.output


def test_a_usage_error_of_a_subcommand_still_names_it():
    result = CliRunner().invoke(cli, ["table", "--no-such-option", "v.parquet"], prog_name="score")
    assert result.exit_code == 2 and result.output.startswith("Usage: score table [OPTIONS] VERDICTS")


@pytest.mark.parametrize("args, option, message", [
    (["table", "v.parquet", "--ci", "nan"], "--ci", "'nan' is not a number"),
    (["table", "v.parquet", "--ci", "1"], "--ci", "not in the range 0<x<1"),
    (["table", "v.parquet", "--seed", "-1"], "--seed", "-1 is not in the range x>=0"),
    (["table", "v.parquet", "--bootstrap", "100000000"], "--bootstrap", "not in the range 1<=x<=100000"),
    (["p.jsonl", "g.jsonl", "--fuzzy-high", "nan"], "--fuzzy-high", "'nan' is not a number"),
    (["p.jsonl", "g.jsonl", "--fuzzy-low", "nan"], "--fuzzy-low", "'nan' is not a number"),
])
def test_options_out_of_range_are_refused_before_any_file_is_read(args, option, message):
    """The files named do not exist: an option checked after reading would report them instead."""
    result = CliRunner().invoke(cli, args, prog_name="score")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}': " in result.output and message in result.output


def test_a_huge_argument_leaves_detail_one_readable_line(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "gold_calls": [{"name": "f", "arguments": {"note": "short"}}]}) + "\n")
    huge = "x" * 1_000_000
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "a", "model": "m", "calls": [{"name": "f", "arguments": {"note": huge}}]}) + "\n")
    result = CliRunner().invoke(cli, [str(preds), str(gold), "-o", str(tmp_path / "v.jsonl"), "-q"])
    assert result.exit_code == 0, result.output
    verdict = json.loads((tmp_path / "v.jsonl").read_text())
    line = "note: gold short, predicted " + huge
    cut = len(line) - 500   # 250 characters kept at each end
    assert verdict["detail"] == f"{line[:250]} …[{cut:,} characters cut]… {line[-250:]}"
    assert [error["predicted"] for error in verdict["errors"]] == [huge]   # the whole value is kept there


def test_note_counts_have_the_thousands_separators_of_the_tables():
    from scorer.duplicates import Duplicates
    from scorer.pipeline import Result

    result = Result(tally=None, unknown_ids=12345, first_unknown_ids=["x"], missing_predictions=1000,
                    scoring_errors=1001, first_scoring_error="boom", judge_rows=2500, judge_tokens=1234567,
                    judge_file="u.jsonl", no_reference_rows=1500, gold_without_reference=2000,
                    salvaged_lines=[(n, str(n)) for n in range(1200)], unreadable_lines=[(n, "bad") for n in range(1005)])
    result.duplicates = Duplicates("keep", 1, "p.jsonl")
    result.duplicates.count, result.duplicates.first = 4321, ["m/1"]
    notes = "\n".join(result.notes())
    for phrase in ("4,321 repeated (model, id) prediction(s)", "warning: 1,500 verdict row(s)", "one of the 2,000 gold row(s)", "12,345 prediction(s) with an id",
                   "1,000 gold id(s)", "1,001 row(s) raised", "2,500 undecided row(s)", "about 1,234,567 prompt tokens",
                   "1,200 prediction line(s) not valid JSON", "... 1,000 more unreadable lines"):
        assert phrase in notes


def test_table_by_length_bucket_is_in_numeric_order_not_in_order_of_appearance(tmp_path):
    buckets = ["06–10", "01–05", ">40", "21–40", "11–20"]
    verdicts = tmp_path / "dialogues.jsonl"
    verdicts.write_text("".join(json.dumps({"model": "m", "id": str(i), "positive": True, "outcome": "correct",
                                            "subtype": None, "decided": True, "missing_prediction": False,
                                            "turns": bucket}, ensure_ascii=False) + "\n"
                                for i, bucket in enumerate(buckets)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["table", str(verdicts), "--by", "turns", "--format", "csv"])
    assert result.exit_code == 0, result.output
    shown = [line.split(",")[1] for line in result.output.splitlines()[1:]]
    assert shown == ["all", "01–05", "06–10", "11–20", "21–40", ">40"]
