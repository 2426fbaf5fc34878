import json

import pyarrow as pa
import pytest
from verdict_builder import verdict, verdict_table

from scorer import judge
from scorer.tables import GOLD_FIXED


def gold_table():
    schema = GOLD_FIXED.append(pa.field("query", pa.string()))
    return pa.Table.from_pylist([
        {"id": "1", "gold_calls": [{"name": "play_song", "arguments": '{"song": "稻香"}'}],
         "reference_time": None, "tools": '[{"name": "play_song"}]', "negative_type": None,
         "query": "放一首稻香"},
        {"id": "2", "gold_calls": [], "reference_time": None, "tools": None,
         "negative_type": "no_tool", "query": None},
    ], schema=schema)


def undecided_verdicts():
    doubt = {"call": 0, "argument": "song", "kind": "uncertain", "gold": "稻香",
             "predicted": "稻香 (live)"}
    return verdict_table([
        verdict(1, "param_error", "incorrect_value", model="a", decided=False,
                argument="song", uncertain_reason="free text in the fuzzy band",
                errors=[doubt], normalized_gold='[{"name":"play_song","arguments":{"song":"稻香"}}]',
                normalized_pred='[{"name":"play_song","arguments":{"song":"稻香 (live)"}}]'),
        verdict(1, model="b"),
        verdict(2, "over_recall", "no_tool", model="a", positive=False, decided=None),
    ])


def test_one_record_per_undecided_row_with_everything_a_judge_needs():
    records = list(judge.undecided_records(undecided_verdicts(), gold_table()))
    assert [(r["model"], r["id"]) for r in records] == [("a", "1"), ("a", "2")]
    first = records[0]
    assert first["query"] == "放一首稻香"
    assert first["tools"] == [{"name": "play_song"}]
    assert first["gold_calls"] == [{"name": "play_song", "arguments": {"song": "稻香"}}]
    assert first["predicted_calls"] == [{"name": "play_song", "arguments": {"song": "稻香 (live)"}}]
    assert first["in_doubt"] == [{"call": 0, "argument": "song", "gold": "稻香",
                                  "predicted": "稻香 (live)"}]
    assert first["tentative"]["outcome"] == "param_error"
    assert first["uncertain_reason"] == "free text in the fuzzy band"
    assert "放一首稻香" in first["prompt"] and "稻香 (live)" in first["prompt"]
    assert '"model": "a", "id": "1"' in first["prompt"]
    assert first["estimated_tokens"] == judge.estimate_tokens(first["prompt"])
    assert records[1]["query"] is None and "(not given)" in records[1]["prompt"]


def test_predicted_calls_come_from_the_predictions_when_given():
    calls = [[{"name": "play_song", "arguments": '{"song": "稻香 live"}'}], None]
    first = next(judge.undecided_records(undecided_verdicts(), gold_table(), calls))
    assert first["predicted_calls"] == [{"name": "play_song", "arguments": {"song": "稻香 live"}}]


def test_template_is_overridable_and_its_comments_are_stripped(tmp_path):
    custom = tmp_path / "prompt.txt"
    custom.write_text("# version: 9\n# purpose: test\nJudge {model_json}/{id_json}: {in_doubt}\n",
                      encoding="utf-8")
    first = next(judge.undecided_records(undecided_verdicts(), gold_table(),
                                         template=judge.load_template(custom)))
    assert first["prompt"].startswith('Judge "a"/"1": [{"argument": "song"')


def test_shipped_template_uses_only_documented_placeholders():
    text = judge.load_template()
    assert not text.startswith("#")
    assert "{taxonomy}" in text and "{in_doubt}" in text


def test_undecided_writer_counts_rows_and_tokens(tmp_path):
    records = list(judge.undecided_records(undecided_verdicts(), gold_table()))
    path = tmp_path / "undecided.jsonl"
    writer = judge.UndecidedWriter(path)
    writer.add(iter(records))
    rows, tokens = writer.close()
    assert rows == 2 and tokens == sum(r["estimated_tokens"] for r in records)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["id"] == "1" and len(lines) == 2
    counting = judge.UndecidedWriter()  # no path: counted for the summary, nothing written
    counting.add(records)
    assert counting.close() == (rows, tokens)


@pytest.mark.parametrize("text, tokens", [("abcd" * 10, 10), ("北京天气" * 3, 8), ("北京 ab", 3), ("", 0)])
def test_token_estimate_weights_cjk_and_other_characters(text, tokens):
    assert judge.estimate_tokens(text) == tokens


def test_validate_answer_accepts_the_taxonomy():
    answer = judge.validate_answer({"model": "a", "id": 7, "outcome": "param_error",
                                    "subtype": "temporal", "reason": "off by a day", "extra": 1})
    assert answer == {"model": "a", "id": "7", "outcome": "param_error", "subtype": "temporal",
                      "argument": None, "reason": "off by a day", "kept": None}
    assert judge.validate_answer({"model": "a", "id": "1", "outcome": "correct"})["subtype"] is None


@pytest.mark.parametrize("answer, reason", [
    ([], "expected a JSON object"),
    ({"id": "1", "outcome": "correct"}, "missing key 'model'"),
    ({"model": "a", "id": None, "outcome": "correct"}, "'id' must be a string"),
    ({"model": "a", "id": "1", "outcome": "wrong"}, "outcome 'wrong' is not one of"),
    ({"model": "a", "id": "1", "outcome": "correct", "subtype": "temporal"}, "subtype null"),
    ({"model": "a", "id": "1", "outcome": "param_error", "subtype": "no_call"}, "subtype 'no_call'"),
    ({"model": "a", "id": "1", "outcome": "correct", "reason": 3}, "'reason' must be a string"),
])
def test_validate_answer_rejects_bad_shapes(answer, reason):
    with pytest.raises(ValueError, match=reason):
        judge.validate_answer(answer)


def test_answer_must_fit_its_row():
    over = {"outcome": "over_recall", "subtype": "no_tool"}
    with pytest.raises(ValueError, match="gold is \\[\\]"):
        judge.check_fits_row(over, positive=True)
    judge.check_fits_row(over, positive=False)
    with pytest.raises(ValueError, match="needs gold calls"):
        judge.check_fits_row({"outcome": "param_error", "subtype": "temporal"}, positive=False)


def test_read_answers_reports_lines_and_duplicates(tmp_path):
    path = tmp_path / "judge.jsonl"
    path.write_text("\n".join([
        '{"model": "a", "id": "1", "outcome": "correct"}',
        "not json",
        "",
        '{"model": "a", "id": "1", "outcome": "correct"}',
    ]) + "\n", encoding="utf-8")
    answers, problems = judge.read_answers(path)
    assert [line for line, _ in answers] == [1]
    assert problems[0][0] == 2 and problems[0][1].startswith("not valid JSON")
    assert problems[1] == (4, "second answer for model a id 1 (first on line 1)")
