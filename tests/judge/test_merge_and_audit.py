import json

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from verdict_builder import verdict, verdict_table

from scorer.audit import agreement
from scorer.commands.judge import audit, merge_judge
from scorer.verdicts import read_verdicts


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def verdict_file(tmp_path, suffix=".parquet"):
    table = verdict_table([
        verdict(1, "param_error", "incorrect_value", model="a", decided=False, argument="song"),
        verdict(2, "correct", model="a", decided=False),
        verdict(3, "over_recall", "no_tool", model="a", positive=False, decided=False),
        verdict(4, "miss_recall", "no_call", model="a"),
        verdict(1, model="b"),
    ])
    path = tmp_path / f"verdicts{suffix}"
    if suffix == ".parquet":
        pq.write_table(table, path)
    else:
        write_jsonl(path, table.to_pylist())
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_merge_judge_folds_good_answers_and_reports_bad_ones(tmp_path, suffix):
    answers = write_jsonl(tmp_path / "judge.jsonl", [
        {"model": "a", "id": "1", "outcome": "correct", "subtype": None, "reason": "live version"},
        {"model": "a", "id": "2", "outcome": "param_error", "subtype": "no_call"},   # bad subtype
        {"model": "a", "id": "3", "outcome": "param_error", "subtype": "temporal"},  # negative row
        {"model": "a", "id": "9", "outcome": "correct"},                             # unknown row
        {"model": "a", "id": "4", "outcome": "correct"},                             # decided by rules
    ])
    out = tmp_path / f"merged{suffix}"
    result = CliRunner().invoke(merge_judge, [str(verdict_file(tmp_path, suffix)), str(answers),
                                              "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{answers} line 2: subtype 'no_call' is not one of param_error" in result.stderr
    assert f"{answers} line 3: param_error/temporal needs gold calls" in result.stderr
    assert f"{answers} line 4: no verdict for model a id 9" in result.stderr
    assert "merged 1 judge answer(s); 3 rejected; 2 row(s) still undecided" in result.stdout
    rows = {(r["model"], r["id"]): r for r in read_verdicts(out).to_pylist()}
    judged = rows[("a", "1")]
    assert (judged["outcome"], judged["subtype"], judged["decided"], judged["decided_by"]) == \
        ("correct", None, True, "judge")
    assert judged["detail"] == "judge: live version"
    assert rows[("a", "2")]["decided_by"] is None and rows[("a", "2")]["decided"] is False
    assert rows[("a", "4")]["outcome"] == "miss_recall" and rows[("a", "4")]["decided_by"] == "rules"


def test_merge_judge_output_is_byte_identical_on_rerun(tmp_path):
    answers = write_jsonl(tmp_path / "judge.jsonl",
                          [{"model": "a", "id": "1", "outcome": "correct"}])
    verdicts = verdict_file(tmp_path)
    for name in ("one.parquet", "two.parquet"):
        CliRunner().invoke(merge_judge, [str(verdicts), str(answers), "-o", str(tmp_path / name)])
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()


def test_bad_verdict_files_exit_2_naming_file_line_and_field(tmp_path):
    answers = write_jsonl(tmp_path / "judge.jsonl", [])
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"model": "a"}\n{oops\n', encoding="utf-8")
    result = CliRunner().invoke(merge_judge, [str(broken), str(answers), "-o", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2
    assert f"{broken} row 2: not valid JSON" in result.output
    assert not (tmp_path / "o.jsonl").exists()
    partial = write_jsonl(tmp_path / "partial.jsonl", [{"model": "a", "id": "1"}])
    result = CliRunner().invoke(audit, [str(partial), str(answers)])
    assert result.exit_code == 2 and "field positive, outcome, subtype" in result.output
    result = CliRunner().invoke(audit, [str(tmp_path / "absent.parquet"), str(answers)])
    assert result.exit_code == 2 and "absent.parquet: no such file" in result.output
    result = CliRunner().invoke(audit, [str(verdict_file(tmp_path)), str(tmp_path / "none.jsonl")])
    assert result.exit_code == 2 and "none.jsonl: cannot read" in result.output


def test_agreement_and_kappa_by_hand():
    pairs = [("a", "a")] * 20 + [("a", "b")] * 5 + [("b", "a")] * 10 + [("b", "b")] * 15
    result = agreement(pairs, ["a", "b"])
    # p_o = 35/50; p_e = (25*30 + 25*20) / 50^2 = 0.5
    assert result["agreement"] == pytest.approx(0.7)
    assert result["kappa"] == pytest.approx(0.4)
    assert result["matrix"].tolist() == [[20, 5], [10, 15]]
    assert agreement([("a", "a")] * 3, ["a", "b"])["kappa"] is None
    assert agreement([], ["a"])["agreement"] is None


def test_audit_compares_only_rows_decided_by_the_rules(tmp_path):
    verdicts = tmp_path / "v.parquet"
    pq.write_table(verdict_table([
        verdict(1, model="a"), verdict(2, "param_error", "temporal", model="a"),
        verdict(3, "param_error", "incorrect_value", model="a"),
        verdict(4, "miss_recall", "no_call", model="a", decided=False),
    ]), verdicts)
    answers = write_jsonl(tmp_path / "judge.jsonl", [
        {"model": "a", "id": "1", "outcome": "correct"},
        {"model": "a", "id": "2", "outcome": "param_error", "subtype": "incorrect_value"},
        {"model": "a", "id": "3", "outcome": "param_error", "subtype": "incorrect_value"},
        {"model": "a", "id": "4", "outcome": "correct"},
        {"model": "a", "id": "5", "outcome": "bogus"},
    ])
    result = CliRunner().invoke(audit, [str(verdicts), str(answers), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert f"{answers} line 5: outcome 'bogus'" in result.stderr
    payload = json.loads(result.stdout)
    assert payload["outcome"]["n"] == 3 and payload["outcome"]["agreement"] == 1.0
    assert payload["subtype"]["agreement"] == pytest.approx(2 / 3)
    assert payload["not_decided_by_rules"] == 1
    confusion = {row["rules \\ judge"]: row for row in payload["subtype"]["confusion"]}
    assert confusion["param_error/temporal"]["param_error/incorrect_value"] == 1
    text = CliRunner().invoke(audit, [str(verdicts), str(answers)]).stdout
    assert "outcome: 3 row(s), agreement 1.000" in text
    # p_o = 2/3; p_e = (1*1 + 1*0 + 1*2) / 9 = 1/3; kappa = (2/3 - 1/3) / (2/3)
    assert "outcome/subtype: 3 row(s), agreement 0.667, Cohen's kappa 0.500" in text
    assert text.splitlines()[1].split() == ["rules", "\\", "judge", "correct", "param_error"]


def test_merge_judge_says_how_many_answers_it_left_to_the_rules(tmp_path):
    answers = write_jsonl(tmp_path / "judge.jsonl", [
        {"model": "a", "id": "1", "outcome": "correct"},                  # undecided: merged
        {"model": "a", "id": "4", "outcome": "correct"},                  # decided by the rules
        {"model": "b", "id": "1", "outcome": "miss_recall", "subtype": "no_call"},   # decided by the rules
    ])
    result = CliRunner().invoke(merge_judge, [str(verdict_file(tmp_path)), str(answers), "-o",
                                              str(tmp_path / "merged.parquet")])
    assert result.exit_code == 0, result.output
    assert ("note: 2 answer(s) for rows the rules decided left unused (first: line 2); "
            "`score audit` compares them with the rules") in result.stderr
    assert "merged 1 judge answer(s); 0 rejected; 2 row(s) still undecided" in result.stdout
