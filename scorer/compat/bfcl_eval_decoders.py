"""bfcl-eval 2026.3.23's `decode_ast` per handler class, for `--compat bfcl` on v3/v4 results,
and its `decode_execute`, for the multi-turn steps of scorer.bfcl_multi_turn (`decode_execute`
below: the calls `decode_ast` reads, with the differences listed there).

bfcl_models.toml names, per model, the class whose `decode_ast` its handler runs (`decoder`,
read from bfcl-eval's class tree by bench/make_bfcl_models.py); `handler_key` turns that and
the model's `is_fc_model` into the key scorer.compat.bfcl's `decode` dispatches on. The AST
runners call every decoder with `has_tool_call_tag=False` and the category's language (Python
for the relevance categories), so the `<TOOLCALL>` branch of bfcl-eval's `ast_parse` and its
JSON and XML return formats (format_sensitivity only) are not used here.

Reproduced, from the stored result (a text unless said otherwise; a handler that parses a
text raises on a list result, as `str` methods do on a list, except the prompt decoder, which
reads it as its calls as 2024-08's text handlers do: bfcl-eval's prompt handlers write texts,
and a model bfcl-eval does not list gets that decoder from its name alone):
- list of `{name: JSON arguments}` (scorer.compat.bfcl's list decoder): the FC mode of
  OpenAICompletionsHandler (and its subclasses without a decoder of their own: DeepSeek, Qwen
  and GLM APIs, Fireworks, Functionary, Grok, Kimi, Ling, Nanbeige API, Novita, QwenAgent,
  Writer, GoGoAgent), OpenAIResponsesHandler, MistralHandler, ClaudeHandler; and the lists that
  ArchHandler, Granite3FCHandler, PhiFCHandler, MistralFCHandler and NovaHandler store (they
  return them as they are, or raise on a text);
- bfcl-eval's prompt decoder (`default_decode_ast_prompting`: fences, newlines and spaces
  stripped, brackets added, `ast_parse` reading a bare call too): OSSHandler (Llama, Qwen,
  Gemma, MiniCPM, Bielik, DeepseekReasoning), NvidiaHandler, and the prompt mode of the
  fc-or-prompt API handlers above; PhiHandler after dropping a leading ```json or ```python;
  GeminiHandler's prompt mode after removing its ```tool_code fences; NemotronHandler on the
  inside of the first `<TOOLCALL>...</TOOLCALL>` (none: no call); GorillaHandler on the text
  wrapped in brackets;
- `<tool_call>\\n{json}\\n</tool_call>` blocks (QwenFCHandler, Granite4FCHandler,
  NanbeigeFCHandler, PelicanVLFCHandler, the FC models vLLM serves): every block's JSON that
  parses, each of which must be an object with `name` and `arguments`;
- JSON `{name, arguments}` objects: Falcon3FCHandler (inside the first `<tool_call>`, maybe
  fenced), BitAgentHandler, Salesforce{Llama,Qwen}Handler (an array, else `;`-separated
  objects), HammerHandler (fences removed; text that is not JSON: no call), ThinkAgentHandler
  (`'` read as `"`, the JSON after `</think>`; none: no call); LlamaHandler_3_1 (`parameters`
  for arguments; `;`-separated JSON, else the text as a Python literal);
- MiniCPMFCHandler: Python calls between `<|tool_call_start|>` and `<|tool_call_end|>` (fences
  dropped), else the message text (not a call list); FunctionGemmaHandler:
  `<start_function_call>call:name{...}<end_function_call>` read by its own state machine;
  GraniteFunctionCallingHandler and GLMHandler: their 2024-08 formats, unchanged;
- GeminiHandler FC: the list as stored, a text as a one-item list (not a call list);
  CohereHandler: a text is no call; MiningHandler (DMCito): a text is iterated as its list of
  calls would be (an empty text: no call, any other: decoding fails).

Not reproduced (the row is left undecided): CohereHandler's and MiningHandler's list results,
whose items are `{tool_name, parameters}` and `{name, arguments}` objects that scorer.io.bfcl
does not read as calls. Where a handler runs Python's `eval` on model text (LlamaHandler_3_1),
callscore reads the text as a literal: an expression BFCL would compute fails here instead.
"""

import ast
import json
import re

LIST = "list"                 # a list of {name: JSON arguments}: BFCL's function-calling handlers
PROMPT = "bfcl-eval prompt"   # bfcl-eval's default prompt decoder
GEMINI_FC = "bfcl-eval GeminiHandler"

# bfcl imports this module and reads the names above while it loads; this one reads bfcl's at call time
from scorer.compat import bfcl  # noqa: E402
_FC_OR_PROMPT = ("OpenAICompletionsHandler", "OpenAIResponsesHandler", "MistralHandler", "ClaudeHandler")
_STORED_LISTS = ("ArchHandler", "Granite3FCHandler", "PhiFCHandler", "MistralFCHandler", "NovaHandler")
_NAMESAKES = {"GorillaHandler": "bfcl-eval GorillaHandler", "CohereHandler": "bfcl-eval CohereHandler"}
_TOOL_CALL_BLOCK = re.compile(r"<tool_call>\n(.*?)\n</tool_call>", re.DOTALL)


def handler_key(decoder: str, fc: bool) -> str:
    """The decoding of a bfcl-eval handler running `decoder`'s `decode_ast` (`fc`: the model's
    `is_fc_model`, which several decoders branch on); class names that 2024-08 also used for
    another decoder are qualified."""
    if decoder in _FC_OR_PROMPT:
        return LIST if fc else PROMPT
    if decoder == "GeminiHandler":
        return GEMINI_FC if fc else "bfcl-eval GeminiHandler prompt"
    if decoder in _STORED_LISTS:
        return LIST
    if decoder in ("OSSHandler", "NvidiaHandler"):
        return PROMPT
    return _NAMESAKES.get(decoder, decoder)


def decode(key: str, calls, output, language: str):
    """The result as the decoder `key` reads it; raises as it does. `calls`: a list result
    as [(name, arguments)] (or the calls scorer.io.bfcl read from a text), `output`: a text
    result (or a list result's text items), which the text decoders read."""
    if key == GEMINI_FC:
        return [{name: arguments} for name, arguments in calls or ()] + ([output] if output is not None else [])
    if output is None:
        raise TypeError("the handler parses a text; the result is a list")
    return DECODERS[key](output, language)


def unreadable_list(key: str) -> bool:
    """Whether the handler's list results hold items scorer.io.bfcl cannot read as calls."""
    return key in ("bfcl-eval CohereHandler", "MiningHandler")


def ast_parse(text: str, language: str) -> list:
    """bfcl-eval's `ast_parse` without a tool-call tag: quotes around a Python text dropped, a
    bare call accepted, every listed call read as a call."""
    if language != "Python":
        return bfcl.ast_parse(text, language)
    text = text.strip().strip("'")
    body = ast.parse(text, mode="eval").body
    return [bfcl.resolve_call(body)] if isinstance(body, ast.Call) else bfcl.python_calls(text, bfcl.resolve_call)


def prompt_default(text: str, language: str) -> list:
    """`default_decode_ast_prompting`: fences, newlines and spaces off both ends, brackets added."""
    return ast_parse(bfcl._bracketed(text.strip("`\n ")), language)


def _phi(text: str, language, strip: bool = True):
    """`strip`: decode_ast strips the text before looking for the fence, decode_execute does not."""
    text = text.strip() if strip else text
    text = text.removeprefix("```json")
    return prompt_default(text.removeprefix("```python"), language)


def _gemini_prompt(text: str, language):
    return prompt_default(text.replace("```tool_code\n", "").replace("\n```", ""), language)


def _nemotron(text: str, language):
    found = re.search(r"<TOOLCALL>(.*?)</TOOLCALL>", text, re.DOTALL)
    return prompt_default(found.group(1), language) if found else []


def _gorilla(text: str, language):
    return ast_parse("[" + text + "]", language)


def _named(calls, arguments: str = "arguments") -> list:
    """JSON call objects -> [{name: arguments}]; a KeyError or TypeError on any other value."""
    return [{call["name"]: call[arguments]} for call in calls]


def _tool_call_objects(text: str) -> list:
    """QwenFCHandler's `_extract_tool_calls` and its check: the blocks whose JSON parses (the
    others skipped), all objects."""
    calls = []
    for block in _TOOL_CALL_BLOCK.findall(text):
        try:
            calls.append(json.loads(block))
        except (ValueError, RecursionError):
            continue
    if any(type(call) is not dict for call in calls):
        raise ValueError(f"Model did not return a list of function calls: {text}")
    return calls


def _tool_call_blocks(text: str, language):
    return [{call["name"]: dict(call["arguments"].items())} for call in _tool_call_objects(text)]


def _falcon(text: str, language):
    if "<tool_call>" not in text:
        raise ValueError(f"No <tool_call> found in the model's response: {text}")
    body = text.split("<tool_call>")[1].split("</tool_call>")[0].strip()
    if body.startswith("```") and body.endswith("```"):
        body = body.strip("`").strip()
        if body.startswith("json"):
            body = body[4:].strip()
    try:
        calls = json.loads(body)
        return _named(calls if isinstance(calls, list) else [calls])
    except (json.JSONDecodeError, KeyError, IndexError):
        raise ValueError(f"Failed to decode the model's response: {text}") from None


def _bitagent(text: str, language):
    calls = json.loads(text)
    return _named(calls if isinstance(calls, list) else [calls])


def _salesforce(text: str, language):
    try:
        calls = json.loads(text)
        calls = calls if isinstance(calls, list) else [calls]
    except json.JSONDecodeError:
        calls = [json.loads(part.strip()) for part in text.split(";")]
    return _named(calls)


def _hammer_json(text: str):
    try:
        return json.loads(text.replace("```", ""))
    except Exception:  # noqa: BLE001 -- BFCL's handler reads any failure as no call
        return []


def _hammer(text: str, language):
    return _named(_hammer_json(text))


def _think_agent(text: str, language):
    parts = text.strip().replace("'", '"').split("</think>", 1)
    return _named(json.loads(parts[1].strip() if len(parts) > 1 else "[]"))


def _llama_3_1(text: str, language):
    text = text.replace("<|python_tag|>", "")
    if ";" in text:
        calls = [json.loads(part) for part in text.split(";")]
    else:
        calls = ast.literal_eval(text)   # BFCL evals it
        if type(calls) == dict:
            calls = [calls]
    return _named(calls, "parameters")


def _minicpm_fc(text: str, language):
    """`fc2dict`: the calls between the tool-call marks (after any thought), else the text."""
    if "<|thought_end|>" in text and "<|thought_start|>" in text:
        thought, text = text.rsplit("<|thought_end|>", 1)
        if "<|thought_start|>" not in thought:   # BFCL indexes the part after it
            raise IndexError("list index out of range")
    if "<|tool_call_start|>" not in text or "<|tool_call_end|>" not in text:
        return text.strip()
    source, content = text.rsplit("<|tool_call_end|>", 1)
    source = source.split("<|tool_call_start|>", 1)[1].strip()
    if source.startswith("```"):
        source = source.lstrip("`").strip()
        if source.startswith("python"):
            source = source.lstrip("python").strip()   # characters, as BFCL strips them
    if source.endswith("```"):
        source = source.rstrip("`").strip()
    try:
        calls = []
        for statement in ast.parse(source).body:
            if not isinstance(statement.value, ast.Call):
                raise AssertionError(statement)
            calls.append(bfcl.resolve_call(statement.value))
    except Exception:  # noqa: BLE001 -- BFCL's handler reads any failure as the message text
        return content.strip()
    return calls or content.strip()


def _function_gemma(text: str, language):
    """`<start_function_call>call:name{...}<end_function_call>` blocks; a block without `{`
    is a call without arguments, one not starting `call:` is skipped."""
    decoded = []
    for block in re.findall("<start_function_call>(.*?)<end_function_call>", text, re.DOTALL):
        block = block.strip()
        if not block.startswith("call:"):
            continue
        brace = block.find("{")
        if brace < 0:
            decoded.append({block[len("call:"):].strip(): {}})
        else:
            decoded.append({block[len("call:"):brace].strip(): _GemmaArguments().parse(block[brace:])})
    return decoded


class _GemmaArguments:
    """FunctionGemma's argument reader: `{key:value,...}` with `[...]` lists, `<escape>`-quoted
    strings and bare primitives; the first value read, if a dict, else `{}`."""

    ESCAPE = "<escape>"

    def __init__(self):
        self.root, self.key_stack, self.buffer, self.pending = [], [], [], None
        self.stack = [self.root]

    def parse(self, text: str) -> dict:
        cursor = 0
        while cursor < len(text):
            if text.startswith(self.ESCAPE, cursor):
                start = cursor + len(self.ESCAPE)
                end = text.find(self.ESCAPE, start)
                value, cursor = (text[cursor:], len(text)) if end < 0 else (text[start:end], end + len(self.ESCAPE))
                self._commit()
                self._add(value)
                continue
            char = text[cursor]
            if char in "{[:]},":
                self._commit()
                self._structure(char)
            else:
                self.buffer.append(char)
            cursor += 1
        self._commit()
        return self.root[0] if self.root and isinstance(self.root[0], dict) else {}

    def _structure(self, char: str):
        if char in "{[":
            container = {} if char == "{" else []
            self._add(container)
            self.stack.append(container)
            if char == "{":
                self.key_stack.append(None)
        elif char in "}]":
            if len(self.stack) > 1:
                self.stack.pop()
                if char == "}" and self.key_stack:
                    self.key_stack.pop()
        elif char == ":" and self.pending is not None:   # the key was the value just read
            if isinstance(self.stack[-1], dict) and self.key_stack:
                self.key_stack[-1] = str(self.pending)
        self.pending = None

    def _commit(self):
        raw = "".join(self.buffer).strip()
        self.buffer.clear()
        if raw:
            self._add(_gemma_primitive(raw))

    def _add(self, value):
        container = self.stack[-1]
        if isinstance(container, list):
            container.append(value)
        elif self.key_stack and self.key_stack[-1] is not None:
            container[self.key_stack[-1]] = value
            self.key_stack[-1] = None
        else:
            self.pending = value


def _gemma_primitive(raw: str):
    if raw in ("null", "true", "false"):
        return {"null": None, "true": True, "false": False}[raw]
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def _cohere(text: str, language):
    return []


def _mining(text: str, language):
    return _named(text)


DECODERS = {  # bfcl-eval's text decoders, by key (its prompt decoder is among scorer.compat.bfcl's)
    "PhiHandler": _phi, "bfcl-eval GeminiHandler prompt": _gemini_prompt,
    "NemotronHandler": _nemotron, "bfcl-eval GorillaHandler": _gorilla,
    "QwenFCHandler": _tool_call_blocks, "Granite4FCHandler": _tool_call_blocks,
    "NanbeigeFCHandler": _tool_call_blocks, "PelicanVLFCHandler": _tool_call_blocks,
    "Falcon3FCHandler": _falcon, "BitAgentHandler": _bitagent, "SalesforceLlamaHandler": _salesforce,
    "SalesforceQwenHandler": _salesforce, "HammerHandler": _hammer, "ThinkAgentHandler": _think_agent,
    "LlamaHandler_3_1": _llama_3_1, "MiniCPMFCHandler": _minicpm_fc, "FunctionGemmaHandler": _function_gemma,
    "GraniteFunctionCallingHandler": lambda text, language: bfcl._granite(text, language),
    "GLMHandler": lambda text, language: bfcl._glm(text, language),
    "bfcl-eval CohereHandler": _cohere, "MiningHandler": _mining,
}
# decoders that read Java and JavaScript calls as source text (tree-sitter's grammars)
PARSES_SOURCE = (PROMPT, "PhiHandler", "bfcl-eval GeminiHandler prompt", "NemotronHandler", "bfcl-eval GorillaHandler")


# --- multi-turn: decode_execute ------------------------------------------------------------
# Every bfcl-eval class defines decode_execute where it defines decode_ast, and most read the
# text as decode_ast does and write each {name: arguments} as a call text to execute. Those
# whose reading differs:
_EXECUTE_DECODERS = {
    # arguments as given: convert_to_function_call parses a JSON text (decode_ast calls .items())
    **dict.fromkeys(("QwenFCHandler", "Granite4FCHandler", "NanbeigeFCHandler", "PelicanVLFCHandler"),
                    lambda text: [{call["name"]: call["arguments"]} for call in _tool_call_objects(text)]),
    "PhiHandler": lambda text: _phi(text, "Python", strip=False),
    # `xlam_json_to_python_tool_calls`: an object's `tool_calls` too, items that are not objects skipped
    "HammerHandler": lambda text: [{call.get("name", ""): call.get("arguments", {})} for call in _hammer_tool_calls(text)
                                   if isinstance(call, dict)],
}
# decode_execute through convert_to_function_call, which parses arguments given as JSON text
_CONVERTS = (LIST, "QwenFCHandler", "Granite4FCHandler", "NanbeigeFCHandler", "PelicanVLFCHandler", "GLMHandler")
# ThinkAgentHandler's calls .items() on the call texts it has just written, GorillaHandler's
# passes has_tool_call_tag as ast_parse's language: both raise on any call
_NEVER_EXECUTE = ("ThinkAgentHandler", "bfcl-eval GorillaHandler")


def _hammer_tool_calls(text: str) -> list:
    loaded = _hammer_json(text)
    if isinstance(loaded, dict):
        return loaded.get("tool_calls", [])
    return loaded if isinstance(loaded, list) else []


def decode_execute(key: str, items, output) -> list:
    """[(name, arguments dict)] that bfcl-eval's multi-turn runner executes for one step, read by
    the `decode_execute` of the handler `key` (handler_key's); raises as it does, when what it
    returns is not calls (the runner then executes nothing for the step). `items`: a list step
    as [(name, arguments as stored)], `output`: a text step."""
    if key in _NEVER_EXECUTE:
        raise ValueError(f"{key}'s decode_execute raises on any call")
    if output is not None and key in _EXECUTE_DECODERS:
        decoded = _EXECUTE_DECODERS[key](output)
    else:
        decoded = bfcl.decode(key, items, output, "Python")
    if not isinstance(decoded, list):
        raise ValueError(f"not a list of calls: {decoded!r}")
    calls = []
    for call in decoded:
        for name, arguments in call.items():
            if isinstance(arguments, str) and key in _CONVERTS:
                arguments = json.loads(arguments)
            if not isinstance(arguments, dict):
                raise ValueError(f"the arguments of {name} are not an object")
            calls.append((str(name), arguments))
    return calls
