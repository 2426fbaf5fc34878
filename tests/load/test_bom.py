"""A UTF-8 byte order mark at the start of a JSON or JSON Lines file (Windows editors write
one) is read one way by every reader: skipped, so that the file scores, merges, tabulates and
resolves exactly as it does without it. Each case runs one command on copies of its input
files with and without the mark and compares what it prints and writes."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"
BFCL = ROOT / "tests" / "data" / "bfcl" / "v1"
OUTPUTS = ROOT / "tests" / "data" / "outputs"
BOM = b"\xef\xbb\xbf"


def _bfcl_results(directory: Path) -> None:
    """A BFCL result file answering each question of the simple sample with its first accepted values."""
    answers = (BFCL / "possible_answer" / "gorilla_openfunctions_v1_test_simple.json").read_text().splitlines()
    lines = []
    for line in answers:
        answer = json.loads(line)
        name, accepted = next(iter(answer["ground_truth"].items()))
        arguments = {key: values[0] for key, values in accepted.items() if values and values[0] != ""}
        lines.append(json.dumps({"id": answer["id"], "result": [{name: json.dumps(arguments)}]}))
    (directory / "gorilla_openfunctions_v1_test_simple_result.json").write_text("\n".join(lines) + "\n")


def _gold_array(directory: Path) -> None:
    rows = [json.loads(line) for line in (EXAMPLES / "gold.jsonl").read_text(encoding="utf-8").splitlines()]
    (directory / "gold.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def _provider_gold(directory: Path) -> None:
    """A gold row with no call for each record of the provider dump."""
    ids = [json.loads(line)["id"] for line in (OUTPUTS / "openai_chat.jsonl").read_text().splitlines() if line]
    (directory / "gold.jsonl").write_text("".join(json.dumps({"id": i, "gold_calls": []}) + "\n" for i in ids))


def _verdicts(directory: Path) -> None:
    result = CliRunner().invoke(cli, [str(EXAMPLES / "predictions.parquet"), str(EXAMPLES / "gold.parquet"),
                                      "-o", str(directory / "verdicts.jsonl"), "-q"])
    assert result.exit_code == 0, result.output


def _cases(directory: Path) -> None:
    (directory / "cases.jsonl").write_text('{"text": "下周二", "reference_time": "2026-03-10T09:30:00+08:00"}\n',
                                           encoding="utf-8")


# name -> (files copied or made, the files that get the mark, the command with its output file)
CASES = {
    "score, JSON Lines": ([EXAMPLES / "predictions.jsonl", EXAMPLES / "gold.jsonl"],
                          ["predictions.jsonl", "gold.jsonl"], ["predictions.jsonl", "gold.jsonl", "-o", "out.jsonl"]),
    "score, gold as a JSON array": ([EXAMPLES / "predictions.jsonl", _gold_array], ["gold.json"],
                                    ["predictions.jsonl", "gold.json", "-o", "out.jsonl"]),
    "score, BFCL files": ([BFCL / "gorilla_openfunctions_v1_test_simple.json", _bfcl_results],
                          ["gorilla_openfunctions_v1_test_simple.json",
                           "possible_answer/gorilla_openfunctions_v1_test_simple.json",
                           "gorilla_openfunctions_v1_test_simple_result.json"],
                          ["gorilla_openfunctions_v1_test_simple_result.json",
                           "gorilla_openfunctions_v1_test_simple.json", "-o", "out.jsonl"]),
    "score, a provider dump": ([OUTPUTS / "openai_chat.jsonl", _provider_gold], ["openai_chat.jsonl"],
                               ["openai_chat.jsonl", "gold.jsonl", "-o", "out.jsonl"]),
    "table": ([_verdicts], ["verdicts.jsonl"], ["table", "verdicts.jsonl", "-o", "out.md"]),
    "merge-judge": ([_verdicts, EXAMPLES / "judge_answers.jsonl"], ["verdicts.jsonl", "judge_answers.jsonl"],
                    ["merge-judge", "verdicts.jsonl", "judge_answers.jsonl", "-o", "out.jsonl"]),
    "dialogue": ([EXAMPLES / "dialogue_predictions.jsonl", EXAMPLES / "dialogue_gold.jsonl"],
                 ["dialogue_predictions.jsonl", "dialogue_gold.jsonl"],
                 ["dialogue", "dialogue_predictions.jsonl", "dialogue_gold.jsonl", "-o", "out.jsonl", "-j", "1"]),
    "resolve --file": ([_cases], ["cases.jsonl"], ["resolve", "--file", "cases.jsonl", "--out", "out.jsonl"]),
}


def _prepare(directory: Path, sources: list, marked: list, with_bom: bool) -> None:
    directory.mkdir()
    for source in sources:
        if callable(source):
            source(directory)
        else:
            shutil.copy(source, directory / source.name)
    if (directory / "gorilla_openfunctions_v1_test_simple.json").exists():
        (directory / "possible_answer").mkdir()
        shutil.copy(BFCL / "possible_answer" / "gorilla_openfunctions_v1_test_simple.json", directory / "possible_answer")
    if with_bom:
        for name in marked:
            path = directory / name
            path.write_bytes(BOM + path.read_bytes())


def _run(directory: Path, command: list, monkeypatch):
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(cli, command)
    out = next(iter(directory.glob("out.*")), None)
    return result.exit_code, result.output, out.read_bytes() if out else None


@pytest.mark.parametrize("case", list(CASES))
def test_a_byte_order_mark_changes_nothing(tmp_path, monkeypatch, case):
    sources, marked, command = CASES[case]
    # one folder name for both (a BFCL result's model is the folder it is in)
    plain_dir, bom_dir = tmp_path / "plain" / "run", tmp_path / "bom" / "run"
    plain_dir.parent.mkdir(), bom_dir.parent.mkdir()
    _prepare(plain_dir, sources, marked, with_bom=False)
    _prepare(bom_dir, sources, marked, with_bom=True)
    assert all((bom_dir / name).read_bytes().startswith(BOM) for name in marked)
    plain = _run(plain_dir, command, monkeypatch)
    assert plain[0] == 0, plain[1]
    assert plain[2], "the command wrote nothing"
    assert _run(bom_dir, command, monkeypatch) == plain
