"""`--compat bfcl`: the verdicts of BFCL's AST checker, per model handler and per version.

callscore's own rules differ from BFCL's on purpose (docs/deliberate_differences.md); this
mode drops them and follows BFCL instead, so that a paper can reproduce BFCL numbers. The
rules, read from BFCL's source (the 2024-08 leaderboard's `model_handler/` and
`eval_checker/`; bfcl-eval 2026.3.23's `eval_checker/ast_eval/ast_checker.py`) and pinned to
the 2024-08 run by its published score files (`../shared/peers/bfcl-2024-08`; docs/parity.md
lists every row where this module and those files still disagree):

Decoding (`decode_ast` of the handler BFCL used for the model: its own model lists, as data in
bfcl_models.toml; a model it does not list gets a handler read from its name)
- function-calling handlers (`-FC` names of OpenAI, Claude, Mistral, Cohere, functionary,
  Firework; Gemini and Yi whatever the name): the result must be a list of `{name: JSON
  arguments}`; a text result, or a list holding text, fails to decode.
- prompt handlers write Python calls: `ast.parse` of the text in eval mode; the body must be a
  list (or tuple) whose every element is a call. OpenAI's parses the text as written (so
  `f(a=1)` without brackets fails); the others add a missing `[` and `]` after dropping one
  leading space (Claude, OSS), removing every newline (Llama) or unescaping markdown `\\_`
  (Mistral); gorilla's wraps the text in brackets; Nexus reads `;` as a separator; Nvidia and
  Arctic join a list of quoted call strings; Deepseek takes the first `[...]` of a code fence,
  Gemma the first `[` to the last `]`, Databricks unquotes every quoted span first. A call with
  keyword arguments decodes to `{name: {keyword: value}}`, one without keywords to its source
  text (not a call: "wrong output format"). Values: constants (`...` as the text "..."),
  lists, tuples, dicts, a bare name as its text, a nested call, arithmetic evaluated (names in
  it are unknown: decoding fails), a unary operator applied as negation (BFCL reads `-x` and
  `+x` alike); anything else fails.
- Hermes: line by line, the first line after a `<tool_call>` line is one JSON object with single
  quotes turned into double; Glaive: the JSON after `<functioncall>`; xLAM: one JSON object
  whose `tool_calls` list holds `{name, arguments}` (or that list itself); granite:
  `<function_call>`-separated JSON objects, `no_function` and text that is not JSON kept as
  text (wrong output format); GLM: `name` on the first line, JSON arguments on the second.
- bfcl-eval 2026.3.23's handlers (its model list names the class whose `decode_ast` each
  model's handler runs): every one reproduced from the stored result in
  scorer/compat/bfcl_eval_decoders.py (the list of {name: JSON arguments} of FC API models, its
  prompt decoder, which strips fences and spaces, brackets the text and accepts a bare call, the
  `<tool_call>` blocks of the FC models vLLM serves, JSON call objects, `<TOOLCALL>` tags, ...),
  except the list results of Cohere and Mining, whose items the reader does not keep (left
  undecided). bench/parity_v4.py: 100.00 % of 58,254 generated single-turn rows, in the FC,
  prompt, Qwen FC and xLAM shapes; a model no list names gets its defaults (a list for an FC
  name, the prompt decoder otherwise).

Checking (simple, multiple, parallel, java, javascript categories)
- the number of calls must equal the number of gold calls; parallel calls are matched greedily
  in gold order, each against the first unmatched prediction that passes;
- a call passes when its name is the declared one (with `.` read as `_` for models BFCL sent
  renamed names), every required parameter is there, every given parameter is declared and in
  the possible answer, every possible-answer parameter without `""` is given, and each value
  has its declared type (an int is accepted for a float, not inside arrays; a value of the
  possible answer's own type is taken as a variable) and is among the accepted values: strings
  compared after removing spaces and `,./-_*^`, lower-cased, `'` as `"`; lists element-wise
  the same; dicts key by key against each accepted dict (2024-08: with as many keys, nested
  dicts one level down); lists of dicts in order.
- Java and JavaScript values are source text, converted by the declared type as BFCL's
  converters do (scorer/compat/bfcl_source.py) before the same checks; prompt-mode texts are
  read by tree-sitter's grammars (the `bfcl-java` extra; without it those rows are undecided).
- relevance rows (no gold call): valid when decoding fails or yields no call.
"""


import ast
import json
import re
from dataclasses import dataclass

from scorer.compat import bfcl_eval_decoders, bfcl_models, bfcl_source
from scorer.io.bfcl import NO_ACCEPTED_VALUE
from scorer.parse import constant_arithmetic

_FC_NAME = re.compile(r"(?:^|[-_/])FC(?:$|[-_])", re.IGNORECASE)
_FC_FAMILIES = ("gemini", "functionary")
_STANDARDIZE = re.compile(r"[ ,./\-_*^]")
PYTHON_TYPES = {"string": str, "integer": int, "float": float, "boolean": bool, "array": list,
                "tuple": list, "dict": dict, "any": str}
_NESTED_TYPES = ("array", "tuple")
_JSON_SCHEMA_TO_BFCL = {"object": "dict", "number": "float", "integer": "integer", "string": "string",
                        "boolean": "boolean", "array": "array"}


class DecodeError(Exception):
    """The handler's decoder raised: BFCL's `ast_decoder:decoder_failed`."""


# ---------------------------------------------------------------- decoding


def handler_of(model: str, version: str | None = None) -> str:
    """The BFCL handler that decoded this model's results: BFCL's own model list
    (scorer/compat/bfcl_models.toml; the run's `version` first) for a model it lists (for
    bfcl-eval's, the class whose `decode_ast` its handler runs, scorer/compat/bfcl_eval_decoders.py);
    else, in a newer run that a v3/v4 file names, bfcl-eval's defaults (its list decoder for a
    function-calling name, its prompt decoder otherwise); else (the 2024-08 run, or no run named)
    one read from the name."""
    found = bfcl_models.listed(model, version)
    if found is not None and "decoder" in found[1]:   # a bfcl-eval handler: the decode_ast it runs
        return bfcl_eval_decoders.handler_key(found[1]["decoder"], found[1]["fc"])
    if found is not None and "handler" in found[1]:   # 2024-08 lists two renamed-dot models without one
        return found[1]["handler"]
    if version not in (None, "2024-08"):   # a model a newer run does not list (served locally): its defaults
        return _LIST_DECODE if _FC_NAME.search(model) else _PROMPT_DEFAULT
    lowered = model.lower()
    for mark, handler in (("hermes", "HermesHandler"), ("xlam", "xLAMHandler"), ("granite", "GraniteHandler"),
                          ("glm", "GLMHandler"), ("gorilla-openfunctions", "GorillaHandler")):
        if mark in lowered:  # text formats of their own, whatever the label
            return handler
    if _FC_NAME.search(model) or any(name in lowered for name in _FC_FAMILIES):
        return _LIST_DECODE
    if "mistral" in lowered or "mixtral" in lowered:
        return "MistralHandler"
    if lowered.startswith(("gpt", "o1")):
        return "OpenAIHandler"
    if "claude" in lowered:
        return "ClaudePromptingHandler"
    return "LlamaHandler"  # open models, and any other name


def decode(handler: str, calls, output, language: str = "Python", fc_named: bool = False):
    """A result as BFCL's `handler` decodes it (`decode_ast`): a list (of `{name: arguments}`
    dicts when the format is right), anything else BFCL's decoder returned, or DecodeError.
    `calls` is the list result as [(name, arguments dict)], `output` the text result (a list
    result holding text has both); `fc_named`: "FC" is in the model's name, which several
    handlers read to choose between their list and text decoders."""
    try:
        if handler in bfcl_eval_decoders.DECODERS or handler == bfcl_eval_decoders.GEMINI_FC:
            return bfcl_eval_decoders.decode(handler, calls, output, language)
        if reads_list(handler, fc_named) or output is None:
            if output is not None:
                raise DecodeError("'str' object has no attribute 'keys'")
            decoded = [{name: arguments} for name, arguments in calls or ()]
            if language != "Python" and handler in _TEXT_VALUES_IN_LIST:
                decoded = [{name: {key: str(value) for key, value in arguments.items()}}
                           for call in decoded for name, arguments in call.items()]
            return decoded
        return _TEXT_HANDLERS[handler](output, language)
    except DecodeError:
        raise
    except (SyntaxError, ValueError, TypeError, KeyError, AttributeError, IndexError, NameError,
            ZeroDivisionError, OverflowError, RecursionError, MemoryError, AssertionError,
            bfcl_source.SourceError) as error:
        raise DecodeError(f"{type(error).__name__}: {error}") from None


def reads_list(handler: str, fc_named: bool) -> bool:
    """Whether the handler decodes a list of {name: arguments} (else a text)."""
    return handler in _LIST_HANDLERS or (handler in _FC_NAMED and fc_named)


def ast_parse(text: str, language: str):
    """BFCL's `ast_parse`: Python calls, or the Java or JavaScript call inside the brackets."""
    if language == "Java":
        return bfcl_source.java_calls(text[1:-1])
    if language == "JavaScript":
        return bfcl_source.js_calls(text[1:-1])
    return python_calls(text)


def _bracketed(text: str, space: str = "") -> str:
    if not text.startswith("["):
        text = "[" + space + text
    if not text.endswith("]"):
        text = text + space + "]"
    return text


def _one_space_off(text: str, language):   # OSSHandler, ClaudePromptingHandler
    return ast_parse(_bracketed(text[1:] if text[:1] == " " else text), language)


def _llama(text: str, language):
    return ast_parse(_bracketed(text.replace("\n", "")), language)


def _mistral(text: str, language):
    return ast_parse(_bracketed(text.replace("\\_", "_")), language)


def _cohere(text: str, language):
    return ast_parse(_bracketed(text), language)


def _gorilla(text: str, language):
    return ast_parse("[" + text + "]", language)


def _quoted_calls_joined(text: str) -> str:
    """NvidiaHandler's and ArcticHandler's text: newlines out, bracketed with spaces, and a
    list of quoted call strings (['f(a=1)', 'g(b=2)']) unquoted into one list."""
    text = _bracketed(text.replace("\n", ""), " ")
    if text.startswith("['"):
        text = text.replace("['", "[").replace("', '", ", ").replace("','", ", ")
    if text.endswith("']"):
        text = text.replace("']", "]")
    return text


def _nvidia(text: str, language):
    return ast_parse(_quoted_calls_joined(text), language)


def _databricks(text: str, language):
    """Every quoted span unquoted, indented newlines joined; the text as written if that fails."""
    joined = _bracketed(re.sub(r"'([^']*)'", r"\1", text).replace("\n    ", ""))
    if joined.startswith("['"):
        joined = joined.replace("['", "[")
    try:
        return ast_parse(joined, language)
    except Exception:  # noqa: BLE001 -- BFCL's handler retries on any error
        return ast_parse(text, language)


def _deepseek(text: str, language):
    """The first [...] inside the first code fence (an IndexError without one)."""
    return ast_parse(re.findall(r"\[[^\]]*\]", text.split("```")[1])[0], language)


def _gemma(text: str, language):
    return ast_parse("[" + re.search(r"\[(.*)\]", text, re.DOTALL).group(1) + "]", language)


def _nexus(text: str, language):
    """Calls separated (and maybe ended) by `;`; `out_of_domain` anywhere: no call."""
    decoded = ast_parse("[" + text.removesuffix(";").replace(";", ",") + "]", language)
    return "irrelevant" if "out_of_domain" in text else decoded


def _glaive(text: str, language):
    call = json.loads(text.split("<functioncall>")[-1].replace("'", ""))
    arguments = call["arguments"]
    if language != "Python":
        arguments = {key: str(value) for key, value in arguments.items()}
    return [{call["name"]: arguments}]


def _hermes(text: str, language):
    decoded, inside = [], False
    for line in text.split("\n"):
        if line == "<tool_call>":
            inside = True
        elif line == "</tool_call>":
            inside = False
        else:
            if inside:
                call = json.loads(line.replace("'", '"'))
                arguments = call["arguments"]
                if language != "Python":  # BFCL passes Java and JavaScript values on as Python text
                    arguments = {key: str(value) for key, value in arguments.items()}
                decoded.append({call["name"]: arguments})
            inside = False
    return decoded


def _xlam(text: str, language):
    try:
        value = json.loads(text)
    except ValueError:
        return text  # not a list: the wrong output format
    calls = value if isinstance(value, list) else value.get("tool_calls", [])
    return [{call.get("name", ""): call.get("arguments", {})} for call in calls if isinstance(call, dict)]


def _granite(text: str, language):
    decoded = []
    for part in text.split("<function_call>"):
        part = part.strip()
        if not part:
            continue
        try:
            call = json.loads(part)
        except ValueError:
            decoded.append(part)
            continue
        name = call.get("name", "").strip()
        if name == "no_function":
            decoded.append("No function is called")
        else:
            decoded.append({name: call.get("arguments", {})})
    return decoded


def _glm(text: str, language):
    lines = text.split("\n")
    if len(lines) == 1:
        return [lines[0]]
    return [{lines[0]: json.loads(lines[1])}]


_LIST_DECODE = bfcl_eval_decoders.LIST
_PROMPT_DEFAULT = bfcl_eval_decoders.PROMPT
_TEXT_HANDLERS = {  # BFCL 2024-08's handlers that read a text, by class name
    "OpenAIHandler": ast_parse, "ClaudeFCHandler": ast_parse, "FunctionaryHandler": ast_parse,   # as written
    "FireworkAIHandler": ast_parse,
    "ClaudePromptingHandler": _one_space_off, "OSSHandler": _one_space_off, "LlamaHandler": _llama,
    "MistralHandler": _mistral, "CohereHandler": _cohere, "GorillaHandler": _gorilla, "NvidiaHandler": _nvidia,
    "ArcticHandler": _nvidia, "DatabricksHandler": _databricks, "DeepseekHandler": _deepseek, "GemmaHandler": _gemma,
    "NexusHandler": _nexus, "GlaiveHandler": _glaive, "HermesHandler": _hermes, "xLAMHandler": _xlam,
    "GraniteHandler": _granite, "GLMHandler": _glm,
    _PROMPT_DEFAULT: lambda text, language: bfcl_eval_decoders.prompt_default(text, language),
}
_LIST_HANDLERS = ("GeminiHandler", "YiHandler", _LIST_DECODE)  # lists whatever the name
# lists when "FC" is in the model's name, texts otherwise
_FC_NAMED = ("OpenAIHandler", "ClaudeFCHandler", "FunctionaryHandler", "FireworkAIHandler", "MistralHandler",
             "CohereHandler", "ClaudePromptingHandler")
_TEXT_VALUES_IN_LIST = ("ClaudePromptingHandler",)  # its list decoder turns Java/JS values into text


def python_calls(source: str, resolve=None) -> list:
    """BFCL's `ast_parse` for Python: a list (or tuple) of calls in eval mode, each read by
    `resolve` (2024-08's `resolve_ast_by_type` unless given)."""
    resolve = resolve or _value
    body = ast.parse(source, mode="eval").body
    if not isinstance(body, (ast.List, ast.Tuple, ast.Set)):
        raise AttributeError(f"'{type(body).__name__}' object has no attribute 'elts'")
    decoded = []
    for element in body.elts:
        if not isinstance(element, ast.Call):
            raise AssertionError("")
        decoded.append(resolve(element))
    return decoded


def resolve_call(node: ast.Call) -> dict:
    """BFCL's `resolve_ast_call`: `{dotted name: {keyword: value}}`; positional arguments dropped."""
    parts, func = [], node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return {".".join(reversed(parts)): {keyword.arg: _value(keyword.value) for keyword in node.keywords}}


def _value(node):
    """One argument expression, read as BFCL's `resolve_ast_by_type` reads it."""
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else node.value
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.operand, ast.Constant):
            raise AttributeError(f"'{type(node.operand).__name__}' object has no attribute 'value'")
        return -node.operand.value
    if isinstance(node, ast.List):
        return [_value(item) for item in node.elts]
    if isinstance(node, ast.Dict):
        return {_value(key): _value(value) for key, value in zip(node.keys, node.values)}
    if isinstance(node, ast.BinOp):
        return constant_arithmetic(node, sequences=True)  # BFCL evals it; only constants here
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return ast.unparse(node) if not node.keywords else resolve_call(node)
    if isinstance(node, ast.Tuple):
        return tuple(_value(item) for item in node.elts)
    if isinstance(node, ast.Lambda):
        raise TypeError("'Lambda' object is not subscriptable")
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.value) + "[" + ast.unparse(node.slice) + "]"
    raise ValueError(f"Unsupported AST type: {type(node)}")


def is_call_list(decoded) -> bool:
    """BFCL's `is_function_calling_format_output`: a list of dicts."""
    return isinstance(decoded, list) and all(isinstance(item, dict) for item in decoded)


def has_no_call(decoded) -> bool:
    """BFCL's `is_empty_output`, for relevance rows."""
    return not is_call_list(decoded) or not decoded or (len(decoded) == 1 and not decoded[0])


# ---------------------------------------------------------------- checking


def standardize(text: str) -> str:
    """BFCL's `standardize_string`."""
    return _STANDARDIZE.sub("", text).lower().replace("'", '"')


def _standardized_list(values):
    return [standardize(value) if type(value) is str else value for value in values]


class Invalid(Exception):
    """A check failed: BFCL's error_type and message (`cause`: the error type of the last
    failed pairing, for a parallel call that matched no prediction)."""

    def __init__(self, error_type: str, message: str, cause: str | None = None):
        super().__init__(message)
        self.error_type, self.cause = error_type, cause


def _answer_type(accepted):
    return next((type(value) for value in accepted if value != ""), None)


def _type_check(param, value, accepted, type_name, expected, nested):
    """BFCL's `type_checker`: True when the value is a variable (of the possible answer's
    type, not the declared one); raises Invalid on a type error."""
    answer_type = _answer_type(accepted)
    is_variable = answer_type is not None and answer_type != expected
    if type(value) == expected:
        if nested is None:
            return is_variable
        for answer in accepted:
            if type(answer) == list and not all(_nested_item_ok(param, item, answer, nested) for item in value):
                continue
            return is_variable
        kind = "type_error:nested" if type(value) == answer_type else "type_error:simple"  # BFCL's fall-through
        raise Invalid(kind, f"nested type checking failed for parameter {param!r}: "
                      f"expected {type_name} of {nested.__name__}, got {value!r}")
    if answer_type is not None and type(value) == answer_type:
        return True
    raise Invalid("type_error:simple", f"incorrect type for parameter {param!r}: expected {type_name}, "
                  f"got {type(value).__name__} ({value!r})")


def _nested_item_ok(param, item, answer, nested) -> bool:
    try:
        _type_check(param, item, answer, nested.__name__, nested, None)
    except Invalid:
        return False
    return True


def _string_ok(value, accepted) -> bool:
    return standardize(value) in [standardize(a) for a in accepted if type(a) is str]


def _list_ok(value, accepted) -> bool:
    """BFCL's `list_checker`. It walks every accepted value as a sequence, so the `""` of an
    optional parameter stands for `[]` (and any other text for its characters)."""
    return _standardized_list(list(value)) in [_standardized_list(answer) for answer in accepted
                                                if isinstance(answer, (list, str))]


def _dict_check(param, value: dict, accepted):
    """BFCL's `dict_checker`: the value must match one accepted dict key by key."""
    failure = Invalid("dict_checker:unclear", f"{param}: no accepted dict")
    for answer in accepted:
        if answer == "":
            continue
        failure = None
        for key, item in value.items():
            if not isinstance(answer, dict) or key not in answer:
                failure = Invalid("value_error:dict_key", f"{param}: unexpected dict key {key!r}")
                break
            options = _standardized_list(answer[key])
            if (standardize(item) if type(item) is str else item) not in options:
                failure = Invalid("value_error:dict_value", f"{param}: invalid value for {key!r}: {item!r}")
                break
        if failure is None and isinstance(answer, dict):
            for key, options in answer.items():
                if key not in value and "" not in options:
                    failure = Invalid("value_error:dict_key", f"{param}: missing dict key {key!r}")
                    break
        if failure is None:
            return
    raise failure


def _list_dict_check(param, value: list, accepted):
    """BFCL's `list_dict_checker`: dicts in order, against one accepted list of dicts."""
    failure = Invalid("list_dict_checker:unclear", f"{param}: no accepted list")
    for answer in accepted:  # `""` has length 0 to BFCL: it accepts `[]`
        if not isinstance(answer, (list, str)) or len(value) != len(answer):
            failure = Invalid("value_error:list_dict_count", f"{param}: wrong number of dictionaries")
            continue
        try:
            for item, expected in zip(value, answer):
                if not isinstance(item, dict):
                    raise Invalid("value_error:dict_key", f"{param}: list item {item!r} is not a dict")
                _dict_check(param, item, [expected])
        except Invalid as problem:
            failure = problem
            continue
        return
    raise failure


def _bfcl_type(spec) -> str:
    if not isinstance(spec, dict):
        return "any"
    if "x-bfcl-type" in spec:
        return spec["x-bfcl-type"]
    declared = spec.get("type")
    return declared if declared in PYTHON_TYPES else _JSON_SCHEMA_TO_BFCL.get(declared, "any")


def check_call(function: dict, predicted, answer: dict, renamed_dots: bool = False, language: str = "Python",
               version: str | None = None):
    """BFCL's `simple_function_checker`: raises Invalid, or returns when the call passes.
    `language`: Java and JavaScript values are source text, converted by their declared type
    first (scorer/compat/bfcl_source.py); `version` "2024-08": that run's dict checker."""
    accepted_by_param = next(iter(answer.values()))
    name = function["name"]
    parameters = function.get("parameters") or {}
    details = parameters.get("properties") or {}
    if renamed_dots:
        name = name.replace(".", "_")
    if not isinstance(predicted, dict) or name not in predicted:
        raise Invalid("simple_function_checker:wrong_func_name", f"function name {name!r} not found")
    given = predicted[name]
    for param in parameters.get("required") or ():
        if param not in given:
            raise Invalid("simple_function_checker:missing_required", f"missing required parameter {param!r}")
    for param, value in given.items():
        if param not in details or param not in accepted_by_param:
            raise Invalid("simple_function_checker:unexpected_param", f"unexpected parameter {param!r}")
        accepted = accepted_by_param[param]
        type_name = _bfcl_type(details[param])
        if language == "Python":
            expected, nested = _python_types(param, details[param], type_name)
        else:
            expected, nested, value = _converted(param, details[param], type_name, value, language)
        if type_name == "tuple" and type(value) == tuple:
            value = list(value)
        if language == "Python" and type_name == "float" and type(value) == int:
            value = float(value)
        if not _type_check(param, value, accepted, type_name, expected, nested):
            if expected == dict:
                (_dict_check_2024_08 if version == "2024-08" else _dict_check)(param, value, accepted)
                continue
            if expected == list and nested == dict:
                _list_dict_check(param, value, accepted)
                continue
            if expected == str:
                if not _string_ok(value, accepted):
                    raise Invalid("value_error:string", f"invalid value for {param!r}: {value!r}")
                continue
            if expected == list:
                if not _list_ok(value, accepted):
                    raise Invalid("value_error:list/tuple", f"invalid value for {param!r}: {value!r}")
                continue
        if not _contains(accepted, value):
            raise Invalid("value_error:others", f"invalid value for {param!r}: {value!r}")
    for param, accepted in accepted_by_param.items():
        if param not in given and "" not in accepted:
            raise Invalid("simple_function_checker:missing_optional",
                          f"optional parameter {param!r} not provided and not marked as optional")


def _python_types(param, spec, type_name):
    """(type, item type or None) that BFCL's Python checker expects of a parameter."""
    if type_name not in PYTHON_TYPES:
        raise Invalid("checker_error", f"type {type_name!r} of {param!r} is not a Python type to BFCL")
    nested = None
    if type_name in _NESTED_TYPES:
        item_type = _bfcl_type(spec.get("items"))
        nested = PYTHON_TYPES.get(item_type)
        if nested is None:
            raise Invalid("checker_error", f"item type {item_type!r} of {param!r} is not a Python type to BFCL")
    return PYTHON_TYPES[type_name], nested


def _converted(param, spec, type_name, value, language):
    """(type, item type or None, value converted) for a Java or JavaScript parameter: the
    value must be source text, read by the declared type as BFCL's converters read it."""
    types, convert, error_type = bfcl_source.CONVERTERS[language]
    if type_name not in types:
        raise Invalid("checker_error", f"type {type_name!r} of {param!r} is not a {language} type to BFCL")
    if type(value) != str:
        raise Invalid(error_type, f"incorrect type for parameter {param!r}: expected String, got "
                      f"{type(value).__name__} ({value!r})")
    nested, item_type = None, None
    if type_name in bfcl_source.NESTED_CONVERSION:
        item_type = _bfcl_type(spec.get("items"))
        if item_type not in types:
            raise Invalid("checker_error", f"item type {item_type!r} of {param!r} is not a {language} type to BFCL")
        nested = types[item_type]
    try:
        return types[type_name], nested, convert(value, type_name, item_type)
    except bfcl_source.Unconvertible as error:
        raise Invalid("checker_error", f"{param}: {error}") from None


def _dict_check_2024_08(param, value: dict, accepted):
    """The 2024-08 run's `dict_checker`: an accepted dict with as many keys, each value among
    its accepted ones (a dict of accepted values checked the same way, one level down)."""
    failure = Invalid("dict_checker:unclear", f"{param}: no accepted dict")
    for answer in accepted:
        if answer == "":
            continue
        if not isinstance(answer, dict) or len(value) != len(answer):
            failure = Invalid("value_error:dict_items", f"{param}: wrong number of parameters for dictionary")
            continue
        try:
            for key, item in value.items():
                if key not in answer:
                    raise Invalid("value_error:dict_key", f"{param}: unexpected parameter {key!r}")
                options = answer[key]
                if isinstance(options, dict):
                    _dict_check_2024_08(param, item, [options])
                elif (standardize(item) if type(item) is str else item) not in _standardized_list(options):
                    raise Invalid("value_error:dict_value", f"{param}: invalid value for {key!r}: {item!r}")
        except Invalid as problem:
            failure = problem
            continue
        return
    raise failure


def _contains(accepted, value) -> bool:
    try:
        return value in accepted
    except TypeError:
        return False


def _description(functions, name):
    return next((function for function in functions if function.get("name") == name), None)


def check(category: str, functions: list, decoded: list, answers: list, renamed_dots: bool = False,
          version: str | None = None, answer_entries: int | None = None):
    """BFCL's `ast_checker` for one row of an AST category: raises Invalid, or returns.
    `answer_entries`: the entries of BFCL's answer, each a call to its count, when they are
    not the answers (parallel_multiple_function_179 of 2024-08 writes a parameter beside them)."""
    language = language_of(category)
    if len(decoded) != (answer_entries or len(answers)):
        kind = "parallel_function_checker_no_order" if "parallel" in category else (
            "multiple_function_checker" if "multiple" in category else "simple_function_checker")
        raise Invalid(f"{kind}:wrong_count", f"wrong number of functions: {len(decoded)} for {len(answers)}")
    if "parallel" in category:
        matched = set()
        for answer in answers:
            function = _description(functions, next(iter(answer)))
            problem = None
            for index, predicted in enumerate(decoded):
                if index in matched:
                    continue
                try:
                    _checked(function, predicted, answer, renamed_dots, language, version)
                except Invalid as failure:
                    problem = failure
                    continue
                matched.add(index)
                problem = None
                break
            if problem is not None:
                raise Invalid("parallel_function_checker_no_order:cannot_find_match", str(problem),
                              problem.error_type)
        return
    if "multiple" in category:
        _checked(_description(functions, next(iter(answers[0]))), decoded[0], answers[0], renamed_dots, language, version)
        return
    _checked(functions[0], decoded[0], answers[0], renamed_dots, language, version)


def _checked(function, predicted, answer, renamed_dots, language, version):
    if function is None:
        raise Invalid("checker_error", f"no declared function {next(iter(answer))!r}")
    check_call(function, predicted, answer, renamed_dots, language, version)


def language_of(category: str) -> str:
    """The language BFCL checks a category's calls in."""
    return "JavaScript" if "javascript" in category else "Java" if "java" in category else "Python"


# ---------------------------------------------------------------- one row


def accepted_values(value) -> list:
    """callscore gold notation -> BFCL's list of accepted values (the inverse of
    scorer.io.bfcl.convert_accepted): `$any` lists them, `$optional` adds `""`."""
    if value == NO_ACCEPTED_VALUE:
        return []
    if isinstance(value, dict) and set(value) == {"$optional"}:
        inner = value["$optional"]
        return ([] if inner == "" else accepted_values(inner)) + [""]
    if isinstance(value, dict) and set(value) == {"$any"}:
        return [_answer_value(item) for item in value["$any"]]
    return [_answer_value(value)]


def _answer_value(value):
    if isinstance(value, dict):
        return {key: accepted_values(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_answer_value(item) for item in value]
    return value


def functions_from_tools(tools: list) -> list:
    """OpenAI-style tools (as scorer.io.bfcl writes them) -> BFCL function documents."""
    functions = []
    for tool in tools:
        if isinstance(tool, dict) and tool.get("type") == "function" and isinstance(tool.get("function"), dict):
            tool = tool["function"]
        functions.append(tool)
    return functions


def category_of_row(category, gold_calls: list, functions: list, expect) -> str:
    """The BFCL category deciding the checker; rows from other sources get the category their
    shape would have in BFCL."""
    if category:
        return category
    if expect in ("no_call", "any_call") or not gold_calls:
        return "relevance" if expect != "any_call" else "live_relevance"
    if len(gold_calls) > 1:
        return "parallel_multiple_function" if len(functions) > 1 else "parallel_function"
    return "multiple_function" if len(functions) > 1 else "simple"


@dataclass(frozen=True)
class Verdict:
    """BFCL's verdict on one row: valid (None: not reproduced), its error type and message,
    the cause of a parallel mismatch, and how many calls were decoded."""

    valid: bool | None
    error_type: str | None = None
    message: str | None = None
    cause: str | None = None
    decoded: int = 0


_NO_CALL_CATEGORIES = ("relevance", "irrelevance", "live_irrelevance")


def judge(category: str, functions: list, answers: list, model: str, calls, output,
          unreadable: str | None = None, renamed_dots: bool = False, version: str | None = None,
          answer_entries: int | None = None) -> Verdict:
    """BFCL's verdict on one row of `model` (its handler decodes the result). `calls`: a list
    result as [(name, arguments dict)]; `output`: a text result; `unreadable`: why a reader
    could not take a list result apart (arguments that are not JSON): decoding fails.
    `renamed_dots`: BFCL sent the model the function names with `.` as `_`; `version`: the
    BFCL run ("2024-08", else the latest reproduced); `answer_entries`: how many entries BFCL's
    possible answer has when that is not the number of gold calls."""
    handler, fc_named = handler_of(model, version), "FC" in model
    language = language_of(category)
    text_decoded = output is not None and not reads_list(handler, fc_named)
    if unreadable and bfcl_eval_decoders.unreadable_list(handler):
        return Verdict(None, "unsupported", f"{handler} reads list items that are not {{name: arguments}} "
                       f"objects, which callscore does not keep: {unreadable}")
    source_text = handler in _TEXT_HANDLERS or handler in bfcl_eval_decoders.PARSES_SOURCE
    if text_decoded and source_text and language != "Python" and not bfcl_source.can_parse(language):
        return Verdict(None, "unsupported", f"BFCL reads {language} calls with tree-sitter: "
                       "pip install 'callscore[bfcl-java]' to reproduce this row")
    try:
        if unreadable and not text_decoded:
            raise DecodeError(unreadable)
        decoded = decode(handler, calls, output, language, fc_named)
    except DecodeError as error:
        if category in _NO_CALL_CATEGORIES:
            return Verdict(True)
        if category == "live_relevance":
            return Verdict(False, "relevance_error:decoder_failed", str(error))
        return Verdict(False, "ast_decoder:decoder_failed", f"decoding failed: {error}"[:300])
    count = len(decoded) if is_call_list(decoded) else 0
    if category in _NO_CALL_CATEGORIES:
        if has_no_call(decoded):
            return Verdict(True)
        return Verdict(False, "relevance_error:decoder_success", "a call was decoded on a row that needs none", None, count)
    if category == "live_relevance":
        return Verdict(not has_no_call(decoded), None, None, None, count)
    if not is_call_list(decoded):
        return Verdict(False, "ast_decoder:decoder_wrong_output_format", f"not a list of calls: {decoded!r}"[:300])
    try:
        check(category, functions, decoded, answers, renamed_dots and text_decoded, version, answer_entries)
    except Invalid as problem:
        return Verdict(False, problem.error_type, str(problem)[:300], problem.cause, count)
    return Verdict(True, None, None, None, count)
