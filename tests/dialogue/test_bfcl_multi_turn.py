"""BFCL multi-turn on bfcl-eval's simulators (the optional `bfcl` extra): gold against itself
passes every entry of the four categories under both verdicts; perturbations fail where BFCL's
rule and callscore's say they should; model text is read, never run."""

import json

import pytest

from scorer import bfcl_multi_turn
from scorer.compat.bfcl_eval_decoders import LIST, PROMPT

REASON = bfcl_multi_turn.missing_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


def answers(category):
    path = bfcl_multi_turn.question_file(category)
    return path, [json.loads(line) for line in (path.parent / "possible_answer" / path.name).open()]


def write(tmp_path, rows):
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


@pytest.mark.parametrize("category", bfcl_multi_turn.CATEGORIES)
def test_gold_against_itself_passes_every_entry(tmp_path, category):
    questions, gold = answers(category)
    results = write(tmp_path, [{"id": g["id"], "model": "gold", "result": [[turn] for turn in g["ground_truth"]]}
                               for g in gold])
    dialogues = bfcl_multi_turn.score_bfcl_multi_turn(results, questions).dialogues
    assert dialogues.num_rows == len(gold) == 200
    assert all(dialogues.column("bfcl_valid").to_pylist())
    assert set(dialogues.column("outcome").to_pylist()) == {"correct"}


def first_entries(tmp_path, change):
    """multi_turn_base_0 and _1, gold as results, `change(turns)` applied to entry 0."""
    questions, gold = answers("base")
    rows = [{"id": g["id"], "model": "m", "result": [[turn] for turn in g["ground_truth"]]} for g in gold[:2]]
    rows[0]["result"] = change(rows[0]["result"])
    result = bfcl_multi_turn.score_bfcl_multi_turn(write(tmp_path, rows), questions)
    dialogues = {row["id"]: row for row in result.dialogues.to_pylist()}
    turns = {row["turn"]: row for row in result.turns.to_pylist() if row["dialogue_id"] == "multi_turn_base_0"}
    assert dialogues["multi_turn_base_1"]["bfcl_valid"]
    return dialogues["multi_turn_base_0"], turns


def test_an_empty_turn_fails_both(tmp_path):
    # gold turn 2: cd(folder='temp'), grep(file_name='final_report.pdf', pattern='budget analysis')
    entry, turns = first_entries(tmp_path, lambda turns: [turns[0], [[]], *turns[2:]])
    assert (entry["bfcl_valid"], entry["bfcl_error_type"], entry["bfcl_error_turn"]) == (
        False, "multi_turn:empty_turn_model_response", 2)
    assert (turns[2]["outcome"], turns[2]["subtype"]) == ("miss_recall", "no_call")
    assert entry["first_failing_turn"] == 2


def test_a_wrong_argument_changes_the_state_and_is_an_incorrect_value(tmp_path):
    def other_directory(turns):
        first = [text.replace("mkdir(dir_name='temp')", "mkdir(dir_name='quarterly')") for text in turns[0][0]]
        return [[first], *turns[1:]]

    entry, turns = first_entries(tmp_path, other_directory)
    assert (entry["bfcl_valid"], entry["bfcl_error_type"], entry["bfcl_error_turn"]) == (
        False, "multi_turn:instance_state_mismatch", 1)
    assert (turns[1]["subtype"], turns[1]["argument"]) == ("incorrect_value", "dir_name")


def test_positional_gold_arguments_are_bound_by_signature():
    questions, _gold = answers("base")
    entry = next(e for e in bfcl_multi_turn.load_entries(questions) if e["id"] == "multi_turn_base_0")
    methods = bfcl_multi_turn.Environment(entry).methods
    assert bfcl_multi_turn.read_calls("sort('final_report.pdf')", methods) == (
        [("sort", '{"file_name":"final_report.pdf"}')], None)


def test_model_text_is_never_run(tmp_path, monkeypatch):
    questions, _gold = answers("base")
    entry = next(e for e in bfcl_multi_turn.load_entries(questions) if e["id"] == "multi_turn_base_0")
    environment = bfcl_multi_turn.Environment(entry)
    calls, malformed = bfcl_multi_turn.read_calls("__import__('os').system('touch pwned')", environment.methods)
    assert calls == [] and malformed
    # unknown methods and wrong arguments are error results, never exceptions
    assert environment.call("system", '{"command": "ls"}').startswith("Error during execution")
    assert environment.call("mkdir", '{"no_such_argument": 1}').startswith("Error during execution")
    assert not (tmp_path / "pwned").exists()


def test_the_command_prints_both_verdicts(tmp_path):
    from click.testing import CliRunner

    from scorer.cli import cli

    questions, gold = answers("miss_param")
    results = write(tmp_path, [{"id": g["id"], "model": "gold", "result": [[turn] for turn in g["ground_truth"]]}
                               for g in gold[:3]])
    out = tmp_path / "dialogues.jsonl"
    result = CliRunner().invoke(cli, ["dialogue", str(results), str(questions), "--dialogues", str(out)])
    assert result.exit_code == 0, result.output
    assert "bfcl_accuracy" in result.output
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert len(rows) == 200  # entries not predicted are scored as nothing called
    assert [(rows[g["id"]]["bfcl_valid"], rows[g["id"]]["outcome"]) for g in gold[:3]] == [(True, "correct")] * 3
    assert not rows[gold[3]["id"]]["bfcl_valid"] and rows[gold[3]["id"]]["missing_prediction"]


def fc_steps(entry, turn_texts):
    """A gold turn as an FC model writes it: one step of {name: arguments JSON} per call, then a text reply."""
    methods = bfcl_multi_turn.Environment(entry).methods
    calls = [call for text in turn_texts for call in bfcl_multi_turn.read_calls(text, methods)[0]]
    return [[{name: arguments}] for name, arguments in calls] + ["Done: I have carried out your request."]


def base_entry(number=0):
    questions, _gold = answers("base")
    return next(e for e in bfcl_multi_turn.load_entries(questions) if e["id"] == f"multi_turn_base_{number}")


def test_fc_steps_and_text_replies_are_read(tmp_path):
    questions, gold = answers("miss_param")
    entries = {e["id"]: e for e in bfcl_multi_turn.load_entries(questions)}
    rows = [{"id": g["id"], "model": "fc", "result": [fc_steps(entries[g["id"]], turn) for turn in g["ground_truth"]]}
            for g in gold[:5]]
    assert rows[0]["result"][0][0] == [{"cd": '{"folder":"document"}'}]
    result = bfcl_multi_turn.score_bfcl_multi_turn(write(tmp_path, rows), questions)
    scored = {row["id"]: row for row in result.dialogues.to_pylist()}
    # miss_param's empty gold turn gets a text reply only: no call, as BFCL wants
    assert [(scored[g["id"]]["bfcl_valid"], scored[g["id"]]["outcome"]) for g in gold[:5]] == [(True, "correct")] * 5


def test_an_fc_step_with_arguments_that_are_not_json_is_skipped_by_bfcl_and_malformed_for_callscore():
    step = bfcl_multi_turn.read_step([{"cd": "{folder: temp"}], base_entry().get("methods", {}), LIST)
    assert (step.calls, step.executed) == ([], None) and "not JSON" in step.malformed
    listed = bfcl_multi_turn.read_step([{"cd": '["temp"]'}], {}, LIST)
    assert listed.executed is None and "not a JSON object" in listed.malformed


def test_a_prompt_step_is_decoded_as_bfcl_does():
    methods = bfcl_multi_turn.Environment(base_entry()).methods
    step = bfcl_multi_turn.read_step("```\n[cd(folder='document'), mkdir(dir_name='temp')]\n```", methods, PROMPT)
    assert step.executed == [("cd", '{"folder":"document"}'), ("mkdir", '{"dir_name":"temp"}')]
    # BFCL's prompt decoder drops positional arguments; callscore binds them by the signature
    positional = bfcl_multi_turn.read_step("[sort('final_report.pdf')]", methods, PROMPT)
    assert positional.executed == [("sort", "{}")]
    assert positional.calls == [("sort", '{"file_name":"final_report.pdf"}')]
    # a text reply, and an empty step: nothing for BFCL to execute
    assert bfcl_multi_turn.read_step("I have made the folder.", methods, PROMPT).executed is None
    assert bfcl_multi_turn.read_step([], methods, LIST).executed is None


def test_an_fc_model_text_that_looks_like_calls_is_a_reply(tmp_path):
    # multi_turn_base_1, gold turn 1: ls(a=True); every gold call has keyword arguments
    questions, gold = answers("base")
    entry, turns = base_entry(1), gold[1]["ground_truth"]
    texts = [["[" + ", ".join(turn) + "]"] for turn in turns]
    rows = [{"id": gold[1]["id"], "model": "fc", "result": [texts[0], *(fc_steps(entry, t) for t in turns[1:])]},
            {"id": gold[1]["id"], "model": "prompt", "result": texts},
            # multi_turn_base_0's turn 3 is sort('final_report.pdf'): BFCL executes sort() and fails
            {"id": gold[0]["id"], "model": "prompt", "result": [["[" + ", ".join(t) + "]"]
                                                                for t in gold[0]["ground_truth"]]}]
    result = bfcl_multi_turn.score_bfcl_multi_turn(write(tmp_path, rows), questions)
    scored = {(row["model"], row["id"]): row for row in result.dialogues.to_pylist()}
    fc, prompt, positional = (scored[("fc", gold[1]["id"])], scored[("prompt", gold[1]["id"])],
                              scored[("prompt", gold[0]["id"])])
    assert (fc["bfcl_valid"], fc["bfcl_error_type"], fc["bfcl_error_turn"]) == (
        False, "multi_turn:empty_turn_model_response", 1)
    assert fc["outcome"] == "correct"   # callscore reads the calls written in the text
    assert prompt["bfcl_valid"] and prompt["outcome"] == "correct"
    assert (positional["bfcl_valid"], positional["bfcl_error_type"], positional["bfcl_error_turn"]) == (
        False, "multi_turn:execution_response_mismatch", 3)
    assert positional["outcome"] == "correct"


def test_a_result_cut_short_or_not_a_list_fails_whole_as_in_bfcl(tmp_path):
    questions, gold = answers("base")
    rows = [{"id": gold[0]["id"], "model": "m", "result": [[turn] for turn in gold[0]["ground_truth"][:2]]},
            {"id": gold[1]["id"], "model": "m", "result": "the model crashed"}]
    result = bfcl_multi_turn.score_bfcl_multi_turn(write(tmp_path, rows), questions)
    scored = {row["id"]: row for row in result.dialogues.to_pylist()}
    assert (scored[gold[0]["id"]]["bfcl_error_type"], scored[gold[0]["id"]]["bfcl_error_turn"]) == (
        "multi_turn:force_terminated", None)
    assert scored[gold[1]["id"]]["bfcl_error_type"] == "multi_turn:inference_error"
    turns = [row for row in result.turns.to_pylist() if row["dialogue_id"] == gold[1]["id"]]
    assert len(turns) == len(gold[1]["ground_truth"]) and {row["subtype"] for row in turns} == {"malformed"}


def test_a_gold_row_that_cannot_be_scored_is_named_and_skipped_not_the_file(tmp_path):
    questions, gold = answers("base")
    rows = [json.loads(line) for line in questions.open()][:3]
    rows[2]["involved_classes"] = ["NoSuchAPI"]
    (tmp_path / "possible_answer").mkdir()
    copied = tmp_path / questions.name
    copied.write_text("".join(json.dumps(row) + "\n" for row in rows))
    (tmp_path / "possible_answer" / questions.name).write_text(
        "".join(json.dumps(g) + "\n" for g in [gold[0], gold[2]]))   # no answer for entry 1
    results = write(tmp_path, [{"id": g["id"], "model": "gold", "result": [[turn] for turn in g["ground_truth"]]}
                               for g in gold[:3]])
    result = bfcl_multi_turn.score_bfcl_multi_turn(results, copied)
    assert [(row["id"], row["bfcl_valid"]) for row in result.dialogues.to_pylist()] == [("multi_turn_base_0", True)]
    assert result.notes[:2] == [
        "gold row 2 (id multi_turn_base_1) skipped: no ground_truth (a list of turns of call texts) for its id "
        "in the answer file",
        "gold row 3 (id multi_turn_base_2) skipped: no simulator for class 'NoSuchAPI'"]


QWEN_FC = "Qwen_Qwen3-8B-FC"   # result/<model>/ of Qwen/Qwen3-8B-FC: QwenFCHandler in bfcl-eval 2026.3.23


def tool_call_blocks(calls):
    """Calls as QwenFCHandler's model writes them: `<tool_call>` blocks of {name, arguments} JSON."""
    return "\n".join(f"<tool_call>\n{json.dumps({'name': name, 'arguments': json.loads(arguments)})}\n</tool_call>"
                     for name, arguments in calls)


def qwen_fc_turn(entry, turn_texts):
    """A gold turn as a vLLM-served Qwen FC model writes it: one text of its calls, then a reply."""
    methods = bfcl_multi_turn.Environment(entry).methods
    calls = [call for text in turn_texts for call in bfcl_multi_turn.read_calls(text, methods)[0]]
    return ([tool_call_blocks(calls)] if calls else []) + ["Done: I have carried out your request."]


def test_a_qwen_fc_models_tool_call_texts_are_its_calls(tmp_path):
    # QwenFCHandler.decode_execute: every block's JSON object -> convert_to_function_call -> executed
    questions, gold = answers("miss_param")
    entries = {e["id"]: e for e in bfcl_multi_turn.load_entries(questions)}
    path = tmp_path / "result" / QWEN_FC / "multi_turn" / "BFCL_v4_multi_turn_miss_param_result.json"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps({"id": g["id"], "result": [qwen_fc_turn(entries[g["id"]], turn)
                                                                 for turn in g["ground_truth"]]}) + "\n"
                            for g in gold[:5]))
    scored = {row["id"]: row for row in bfcl_multi_turn.score_bfcl_multi_turn(path, questions).dialogues.to_pylist()}
    assert {row["model"] for row in scored.values()} == {QWEN_FC}   # the folder names the model
    assert [(scored[g["id"]]["bfcl_valid"], scored[g["id"]]["outcome"]) for g in gold[:5]] == [(True, "correct")] * 5


def test_a_malformed_tool_call_text_executes_nothing(tmp_path):
    questions, gold = answers("base")
    entry = base_entry(0)
    turns = [qwen_fc_turn(entry, turn) for turn in gold[0]["ground_truth"]]
    # turn 2 (cd, grep): a block whose JSON does not parse is skipped, none left -> no call made
    broken = [[turns[1][0].replace("}}\n</tool_call>", "}\n</tool_call>")] + turns[1][1:]]
    # a block holding a JSON array: "Model did not return a list of function calls" -> no call made
    listed = [[turns[1][0].replace('<tool_call>\n{"name": "cd", "arguments": {"folder": "temp"}}',
                                   '<tool_call>\n[{"name": "cd", "arguments": {"folder": "temp"}}]')] + turns[1][1:]]
    assert listed[0][0] != turns[1][0]
    rows = [{"id": gold[0]["id"], "model": QWEN_FC, "result": turns[:1] + broken + turns[2:]},
            {"id": gold[0]["id"], "model": "Qwen/Qwen3-14B-FC", "result": turns[:1] + listed + turns[2:]}]
    scored = bfcl_multi_turn.score_bfcl_multi_turn(write(tmp_path, rows), questions).dialogues.to_pylist()
    assert [(row["bfcl_valid"], row["bfcl_error_type"], row["bfcl_error_turn"]) for row in scored
            if row["id"] == gold[0]["id"]] == [(False, "multi_turn:empty_turn_model_response", 2)] * 2

def test_decode_execute_reads_text_arguments_that_decode_ast_refuses():
    # QwenFCHandler.decode_execute hands {name: arguments} to convert_to_function_call, which
    # json.loads arguments given as a text; its decode_ast calls .items() on them and fails
    text = '<tool_call>\n{"name": "cd", "arguments": "{\\"folder\\": \\"temp\\"}"}\n</tool_call>'
    methods = bfcl_multi_turn.Environment(base_entry()).methods
    assert bfcl_multi_turn.read_step(text, methods, "QwenFCHandler").executed == [("cd", '{"folder":"temp"}')]
    # the same step of a model served with bfcl-eval's default FC handler is a text reply
    assert bfcl_multi_turn.read_step(text, methods, LIST).executed is None
