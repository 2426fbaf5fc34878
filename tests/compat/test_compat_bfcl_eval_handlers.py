"""--compat bfcl on v3/v4 runs: each bfcl-eval 2026.3.23 handler's own `decode_ast`.

The expected values are read from the handlers' source (bfcl_eval/model_handler/), one model
name of bfcl-eval's list per handler, so each test also checks which decoder the name maps to.
"""

import sys
import types

import pytest

from scorer.compat import bfcl

RUN = "bfcl-eval-2026.3.23"
AREA = {"name": "area", "parameters": {"type": "dict", "required": ["base"], "properties": {
    "base": {"type": "integer"}, "unit": {"type": "string"}}}}
AREA_ANSWER = [{"area": {"base": [1], "unit": ["m", ""]}}]
QWEN = '<tool_call>\n{"name": "area", "arguments": {"base": 1}}\n</tool_call>'


def decoded(model, result, language="Python"):
    """`result` (a text, or a list as [(name, arguments)]) as the handler of `model` decodes it."""
    text = isinstance(result, str)
    return bfcl.decode(bfcl.handler_of(model, RUN), None if text else result, result if text else None, language)


def judged(model, result, category="simple"):
    text = isinstance(result, str)
    return bfcl.judge(category, [AREA], AREA_ANSWER if category == "simple" else [], model,
                      None if text else result, result if text else None, version=RUN)


def test_vllm_fc_models_are_decoded_from_their_tool_call_blocks():
    assert bfcl.handler_of("Qwen/Qwen3-8B-FC", RUN) == "QwenFCHandler"
    assert bfcl.handler_of("Qwen_Qwen3-8B-FC", RUN) == "QwenFCHandler"   # the result folder's name
    two = QWEN + '\n<tool_call>\n{"name": "area", "arguments": {"base": 2, "unit": "m"}}\n</tool_call>'
    assert decoded("Qwen/Qwen3-8B-FC", two) == [{"area": {"base": 1}}, {"area": {"base": 2, "unit": "m"}}]
    # a block whose JSON does not parse is skipped; one without its newlines is no block
    assert decoded("Qwen/Qwen3-8B-FC", "<tool_call>\n{area}\n</tool_call>\n" + QWEN) == [{"area": {"base": 1}}]
    assert decoded("Qwen/Qwen3-8B-FC", QWEN.replace("\n", "")) == []
    assert decoded("Qwen/Qwen3-8B-FC", "The area is 1.") == []
    assert judged("Qwen/Qwen3-8B-FC", QWEN).valid is True
    assert judged("Qwen/Qwen3-8B-FC", "The area is 1.").error_type == "simple_function_checker:wrong_count"
    assert judged("Qwen/Qwen3-8B-FC", "The area is 1.", "irrelevance").valid is True


def test_the_tool_call_block_decoder_fails_where_bfcls_raises():
    with pytest.raises(bfcl.DecodeError, match="did not return a list of function calls"):
        decoded("Qwen/Qwen3-8B-FC", '<tool_call>\n["area"]\n</tool_call>')
    with pytest.raises(bfcl.DecodeError, match="KeyError"):
        decoded("Qwen/Qwen3-8B-FC", '<tool_call>\n{"name": "area"}\n</tool_call>')
    with pytest.raises(bfcl.DecodeError, match="AttributeError"):   # arguments must be an object
        decoded("Qwen/Qwen3-8B-FC", '<tool_call>\n{"name": "area", "arguments": "base=1"}\n</tool_call>')
    with pytest.raises(bfcl.DecodeError, match="the result is a list"):
        decoded("Qwen/Qwen3-8B-FC", [("area", {"base": 1})])
    # a text is decoded as written, whatever calls the reader parsed from it (renamed dots, Java)
    assert bfcl.decode("QwenFCHandler", [("area", {"base": 9})], QWEN) == [{"area": {"base": 1}}]
    assert judged("Qwen/Qwen3-8B-FC", [("area", {"base": 1})]).error_type == "ast_decoder:decoder_failed"


@pytest.mark.parametrize("model, handler", [("ibm-granite/granite-4.0-350m", "Granite4FCHandler"),
                                            ("Nanbeige/Nanbeige4-3B-Thinking-2511", "NanbeigeFCHandler"),
                                            ("X-Humanoid/Pelican1.0-VL-30B-A3B-FC", "PelicanVLFCHandler")])
def test_the_other_handlers_with_qwens_decoder(model, handler):
    assert bfcl.handler_of(model, RUN) == handler
    assert decoded(model, "Done.\n" + QWEN) == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError, match="did not return a list of function calls"):
        decoded(model, "<tool_call>\n1\n</tool_call>")


def test_falcon_reads_the_json_inside_its_first_tool_call():
    model = "tiiuae/Falcon3-1B-Instruct-FC"
    fenced = '<tool_call>\n```json\n[{"name": "area", "arguments": {"base": 1}}]\n```\n</tool_call>'
    assert decoded(model, fenced) == [{"area": {"base": 1}}]
    assert decoded(model, '<tool_call>{"name": "area", "arguments": {"base": 2}}') == [{"area": {"base": 2}}]
    with pytest.raises(bfcl.DecodeError, match="No <tool_call> found"):
        decoded(model, "[area(base=1)]")
    with pytest.raises(bfcl.DecodeError, match="Failed to decode"):
        decoded(model, '<tool_call>{"name": "area"}</tool_call>')


def test_json_call_objects_of_bitagent_and_salesforce():
    assert decoded("BitAgent/BitAgent-Bounty-8B", '{"name": "area", "arguments": {"base": 1}}') == [{"area": {"base": 1}}]
    assert decoded("BitAgent/BitAgent-Bounty-8B", '[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {"b": "x"}}]') \
        == [{"f": {}}, {"g": {"b": "x"}}]
    with pytest.raises(bfcl.DecodeError, match="JSONDecodeError"):
        decoded("BitAgent/BitAgent-Bounty-8B", "[area(base=1)]")
    for model, handler in (("Salesforce/Llama-xLAM-2-8b-fc-r", "SalesforceLlamaHandler"),
                           ("Salesforce/xLAM-2-1b-fc-r", "SalesforceQwenHandler")):
        assert bfcl.handler_of(model, RUN) == handler
        # not one JSON value: `;`-separated objects
        assert decoded(model, '{"name": "f", "arguments": {"a": 1}}; {"name": "g", "arguments": {}}') == \
            [{"f": {"a": 1}}, {"g": {}}]
        with pytest.raises(bfcl.DecodeError, match="JSONDecodeError"):
            decoded(model, "I cannot help with that.")
        with pytest.raises(bfcl.DecodeError, match="KeyError"):
            decoded(model, '[{"name": "f"}]')


def test_hammer_reads_text_that_is_not_json_as_no_call():
    model = "MadeAgents/Hammer2.1-7b"
    assert decoded(model, '```\n[{"name": "area", "arguments": {"base": 1}}]\n```') == [{"area": {"base": 1}}]
    assert decoded(model, "I cannot help with that.") == []
    with pytest.raises(bfcl.DecodeError, match="TypeError"):   # one object: its keys are iterated
        decoded(model, '{"name": "area", "arguments": {"base": 1}}')


def test_think_agent_reads_the_json_after_its_thinking():
    model = "ThinkAgents/ThinkAgent-1B"
    assert decoded(model, "<think>area of 1</think>\n[{'name': 'area', 'arguments': {'unit': 'm'}}]") == \
        [{"area": {"unit": "m"}}]
    assert decoded(model, "[{'name': 'area', 'arguments': {}}]") == []   # no </think>: no call
    with pytest.raises(bfcl.DecodeError, match="JSONDecodeError"):   # every ' made ": an apostrophe breaks it
        decoded(model, "<think></think>[{'name': 'area', 'arguments': {'unit': \"it's\"}}]")


def test_llama_3_1_reads_json_or_a_python_literal_with_parameters():
    model = "meta-llama/Llama-3.1-8B-Instruct-FC"
    assert bfcl.handler_of(model, RUN) == "LlamaHandler_3_1"
    assert decoded(model, '<|python_tag|>{"name": "f", "parameters": {"n": "10"}}; {"name": "f", "parameters": {"n": "15"}}') \
        == [{"f": {"n": "10"}}, {"f": {"n": "15"}}]
    assert decoded(model, '[\n    {"name": "g", "parameters": {"k": 5}}\n]') == [{"g": {"k": 5}}]
    assert decoded(model, "{'name': 'g', 'parameters': {'k': None}}") == [{"g": {"k": None}}]
    with pytest.raises(bfcl.DecodeError):   # JSON's true is no Python name
        decoded(model, '{"name": "g", "parameters": {"k": true}}')
    with pytest.raises(bfcl.DecodeError, match="KeyError"):
        decoded(model, '{"name": "g", "arguments": {}}')


def test_minicpm_fc_reads_python_calls_between_its_marks():
    model = "openbmb/MiniCPM3-4B-FC"
    text = '<|thought_start|>weather<|thought_end|><|tool_call_start|>\n```python\nget_weather(city="Paris")\n```\n<|tool_call_end|>Sure.'
    assert decoded(model, text) == [{"get_weather": {"city": "Paris"}}]
    # `lstrip("python")` strips those characters: `pythonhotel_search` loses `pythonhot`
    assert decoded(model, "<|tool_call_start|>```pythonhotel_search(n=1)```<|tool_call_end|>") == [{"el_search": {"n": 1}}]
    assert decoded(model, " The weather is fine. ") == "The weather is fine."   # the message: no call list
    assert decoded(model, "<|tool_call_start|>get_weather(<|tool_call_end|> done ") == "done"
    assert judged(model, "The weather is fine.").error_type == "ast_decoder:decoder_wrong_output_format"
    with pytest.raises(bfcl.DecodeError, match="IndexError"):
        decoded(model, "<|tool_call_end|>x<|tool_call_start|>")
    with pytest.raises(bfcl.DecodeError, match="IndexError"):
        decoded(model, "<|thought_end|>a<|thought_start|>b")


def test_function_gemma_reads_its_call_blocks():
    model = "google/functiongemma-270m-it-FC"
    text = ("<start_function_call>call:get_weather{city:<escape>Paris<escape>,days:3,metric:true,"
            "tags:[<escape>a<escape>,b]}<end_function_call>")
    assert decoded(model, text) == [{"get_weather": {"city": "Paris", "days": 3, "metric": True, "tags": ["a", "b"]}}]
    assert decoded(model, "<start_function_call>call:locate{loc:{lat:1.5,lon:-2},n:null}<end_function_call>") == \
        [{"locate": {"loc": {"lat": 1.5, "lon": -2}, "n": None}}]
    assert decoded(model, "<start_function_call>call:list_files<end_function_call>") == [{"list_files": {}}]
    assert decoded(model, "<start_function_call>area{base:1}<end_function_call>No call.") == []
    assert decoded(model, "<start_function_call>call:area{base 1}<end_function_call>") == [{"area": {}}]
    with pytest.raises(bfcl.DecodeError, match="the result is a list"):
        decoded(model, [("area", {"base": 1})])


def test_nemotron_reads_the_calls_inside_its_toolcall_tags():
    model = "nvidia/llama-3.1-nemotron-ultra-253b-v1"
    assert decoded(model, '<think>x</think><TOOLCALL>[f(a=1), g(b="x")]</TOOLCALL>') == [{"f": {"a": 1}}, {"g": {"b": "x"}}]
    assert decoded(model, "<TOOLCALL>h()</TOOLCALL>") == [{"h": {}}]
    assert decoded(model, "[f(a=1)]") == []   # no tags: no call
    with pytest.raises(bfcl.DecodeError, match="SyntaxError"):
        decoded(model, "<TOOLCALL>[f(a=</TOOLCALL>")


def test_prompt_decoders_with_their_own_cleaning():
    assert decoded("microsoft/phi-4", "```python\n[area(base=1)]\n```") == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError, match="AssertionError"):   # JSON is no call
        decoded("microsoft/phi-4", '```json\n{"name": "area"}\n```')
    assert decoded("gemini-2.5-flash", "```tool_code\n[area(base=1)]\n```") == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError, match="SyntaxError"):
        decoded("gemini-2.5-flash", "```tool_code\narea(base=1\n```")
    # bfcl-eval's gorilla: bracketed, read by its ast_parse (a call without keywords is a call)
    assert bfcl.handler_of("gorilla-openfunctions-v2", "2024-08") == "GorillaHandler"
    assert bfcl.handler_of("mistral-large-2407-FC", "2024-08") == "list"   # listed without a handler: its name's
    assert decoded("gorilla-openfunctions-v2", "area(base=1), get_time()") == [{"area": {"base": 1}}, {"get_time": {}}]
    with pytest.raises(bfcl.DecodeError, match="AssertionError"):
        decoded("gorilla-openfunctions-v2", "[area(base=1)]")


def test_open_models_of_either_mode_use_bfcl_evals_prompt_decoder():
    # LlamaHandler and QwenHandler keep OSSHandler's decoder, FC name or not; 2024-08's
    # LlamaHandler of the same name read `get_time()` as its text
    for model in ("meta-llama/Llama-3.2-1B-Instruct-FC", "BitAgent/BitAgent-8B", "Qwen/Qwen3-8B"):
        assert bfcl.handler_of(model, RUN) == "bfcl-eval prompt"
        assert decoded(model, "[area(base=1), get_time()]") == [{"area": {"base": 1}}, {"get_time": {}}]


def test_handlers_that_store_lists():
    for model in ("katanemo/Arch-Agent-1.5B", "mistralai/Ministral-8B-Instruct-2410", "nova-micro-v1.0",
                  "gemini-2.5-flash-FC"):
        assert decoded(model, [("area", {"base": 1})]) == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):
        decoded("mistralai/Ministral-8B-Instruct-2410", "[area(base=1)]")
    # Gemini FC wraps a text in a list: the wrong output format, not a decoding failure
    assert decoded("gemini-2.5-flash-FC", "Sure.") == ["Sure."]
    assert judged("gemini-2.5-flash-FC", "Sure.").error_type == "ast_decoder:decoder_wrong_output_format"


def test_granite_and_glm_keep_their_formats_on_texts_only():
    model = "ibm-granite/granite-20b-functioncalling"
    assert bfcl.handler_of(model, RUN) == "GraniteFunctionCallingHandler"
    assert decoded(model, '<function_call> {"name": "area", "arguments": {"base": 1}} <function_call> '
                          '{"name": "no_function", "arguments": {}}') == [{"area": {"base": 1}}, "No function is called"]
    assert decoded("THUDM/glm-4-9b-chat", 'area\n{"base": 1}') == [{"area": {"base": 1}}]
    for model in ("ibm-granite/granite-20b-functioncalling", "THUDM/glm-4-9b-chat"):
        with pytest.raises(bfcl.DecodeError, match="the result is a list"):
            decoded(model, [("area", {"base": 1})])
    with pytest.raises(bfcl.DecodeError, match="JSONDecodeError"):
        decoded("THUDM/glm-4-9b-chat", "area\nbase=1")


def test_cohere_and_mining_texts_and_their_unread_lists():
    assert decoded("command-a-03-2025-FC", "I can't.") == []   # any text: no call
    assert judged("command-a-03-2025-FC", "I can't.").error_type == "simple_function_checker:wrong_count"
    assert decoded("xiaoming-14B", "") == []   # a text is iterated as a list of calls
    with pytest.raises(bfcl.DecodeError, match="string indices must be integers"):
        decoded("DM-Cito-8B-v3", "area")
    for model in ("command-a-03-2025-FC", "xiaoming-14B"):
        verdict = bfcl.judge("simple", [AREA], AREA_ANSWER, model, None, None,
                             "result item 0 is not a {name: arguments} object", version=RUN)
        assert verdict.valid is None and verdict.error_type == "unsupported"


def test_json_decoders_read_java_rows_without_tree_sitter(monkeypatch):
    monkeypatch.setattr(bfcl.bfcl_source, "can_parse", lambda language: False)
    java = {"name": "area", "parameters": {"type": "dict", "required": ["base"], "properties": {"base": {"type": "integer"}}}}
    text = '<tool_call>\n{"name": "area", "arguments": {"base": "1"}}\n</tool_call>'
    verdict = bfcl.judge("simple_java", [java], [{"area": {"base": [1]}}], "Qwen/Qwen3-8B-FC", None, text, version=RUN)
    assert verdict.valid is True
    prompt = bfcl.judge("simple_java", [java], [{"area": {"base": [1]}}], "Qwen/Qwen3-8B", None, "[area(base=1)]",
                        version=RUN)
    assert prompt.valid is None


CASES = {  # bfcl-eval handler module and class -> (a model it serves, texts to decode)
    ("local_inference.qwen_fc", "QwenFCHandler"): ("Qwen/Qwen3-8B-FC", [QWEN, "<tool_call>\n{x}\n</tool_call>" + QWEN, "no"]),
    ("local_inference.falcon_fc", "Falcon3FCHandler"): ("tiiuae/Falcon3-1B-Instruct-FC", [
        '<tool_call>\n```json\n{"name": "area", "arguments": {"base": 1}}\n```\n</tool_call>', "none"]),
    ("local_inference.hammer", "HammerHandler"): ("MadeAgents/Hammer2.1-7b", [
        '```[{"name": "area", "arguments": {"base": 1}}]```', "no", '{"name": "a"}']),
    ("local_inference.think_agent", "ThinkAgentHandler"): ("ThinkAgents/ThinkAgent-1B", [
        "<think>a</think>[{'name': 'area', 'arguments': {'base': 1}}]", "[]"]),
    ("local_inference.llama_3_1", "LlamaHandler_3_1"): ("meta-llama/Llama-3.1-8B-Instruct-FC", [
        '{"name": "f", "parameters": {"a": 1}}; {"name": "g", "parameters": {}}', "[{'name': 'f', 'parameters': {}}]"]),
    ("local_inference.functiongemma", "FunctionGemmaHandler"): ("google/functiongemma-270m-it-FC", [
        "<start_function_call>call:f{a:[1,{b:<escape>x,y<escape>}],c:2.5}<end_function_call>",
        "<start_function_call>call:g}{a:1]:b<end_function_call><start_function_call>call:h<end_function_call>"]),
    ("local_inference.salesforce_qwen", "SalesforceQwenHandler"): ("Salesforce/xLAM-2-1b-fc-r", [
        '[{"name": "f", "arguments": {"a": 1}}]', "hi"]),
    ("local_inference.phi", "PhiHandler"): ("microsoft/phi-4", ["```python\n[f(a=1)]\n```", "```json\n{}\n```"]),
    ("local_inference.granite_4", "Granite4FCHandler"): ("ibm-granite/granite-4.0-350m", [QWEN, "x"]),
}


@pytest.mark.parametrize("module, name", sorted(CASES))
def test_decoders_agree_with_bfcl_evals_handlers(module, name, monkeypatch):
    pytest.importorskip("bfcl_eval")
    pytest.importorskip("overrides")
    from bfcl_eval.constants.enums import ReturnFormat

    if "openai" not in sys.modules:   # imported by the handlers' base class for its client only
        monkeypatch.setitem(sys.modules, "openai", types.SimpleNamespace(OpenAI=object, RateLimitError=Exception))
    try:
        found = __import__(f"bfcl_eval.model_handler.{module}", fromlist=[name])
    except ImportError as error:
        pytest.skip(f"bfcl-eval's {module} needs {error.name}")
    handler_class = getattr(found, name)
    handler = handler_class.__new__(handler_class)   # decode_ast reads no state set by __init__
    model, texts = CASES[(module, name)]
    for text in texts:
        try:
            theirs = handler.decode_ast(text, ReturnFormat.PYTHON, False)
        except Exception:  # noqa: BLE001 -- any failure is BFCL's decoder_failed
            theirs = bfcl.DecodeError
        try:
            mine = decoded(model, text)
        except bfcl.DecodeError:
            mine = bfcl.DecodeError
        assert mine == theirs, text
