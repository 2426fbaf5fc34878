"""Dumps of provider responses -> prediction rows (scorer.tables.PREDICTIONS).

A dump is a JSON file holding one record or a list of records, or JSONL with one record per
line (`.jsonl`/`.ndjson`; a `.json` file that is not one JSON document is read as JSONL too).

Providers (`detect_provider` names them; `provider=` forces one for the whole file)
- `openai_chat`: Chat Completions, `choices[0].message.tool_calls` (or the legacy
  `function_call`) and `content`; a completions-style `choices[0].text` is read as text; a
  bare assistant message (`role`, `content`, `tool_calls`) is read like its completion.
  Servers that put Qwen/Hermes `<tool_call>` text in `content` are covered: when a message
  has no structured calls its text is parsed.
- `openai_responses`: Responses API, `output` items of type `function_call` (name, arguments
  string) and `message` items with `output_text` parts.
- `anthropic`: Messages, `content` blocks of type `tool_use` (name, input object) and `text`.
- `gemini`: `candidates[0].content.parts[]` with `functionCall` {name, args} (or the Python
  SDK's `function_call`) and `text` (thought parts skipped).
- `text`: raw model text (Qwen/Hermes `<tool_call>`, Python calls, prose), read by
  scorer.parse.parse_output.

The wrapper convention: where a record's id and model come from
- `{"id": ..., "model": ..., "response": {...}}`: the response is wrapped. `response` may be a
  provider response, a JSON text of one, or raw model text. The OpenAI Batch output line
  (`{"id", "custom_id", "response": {"status_code", "body": {...}}, "error"}`) is this shape
  with the completion in `body`; a status other than 200 or an `error` makes the row malformed.
- `{"custom_id": ..., "result": {"type": "succeeded", "message": {...}}}`: an Anthropic Message
  Batches result; any other `type` (errored, canceled, expired) makes the row malformed.
- `{"id": ..., "model": ..., "output": "raw text"}` (or `text`, `content`, `generated_text`):
  a raw-text record, provider `text`.
- Anything else is a bare provider response.
The row's id is the wrapper's first present field of `custom_id`, `id`, `request_id`, `key`
(custom_id first: in OpenAI Batch output `id` is the batch request's own id), else the same
fields of the wrapper's or the response's `metadata` object. A bare response's own `id`
(`chatcmpl-...`, `msg_...`) is the provider's, never the benchmark's, and is not used. A
record without an id gets `<file name>#<record number>` and is malformed ("record has no id"),
so it shows among the unknown ids instead of vanishing. The model is the wrapper's `model`,
else the response's `model` (Gemini: `modelVersion`), else `model`.

Rows: `calls` holds the calls read, as {name, arguments as canonical JSON}, `[]` for an
answer without a call; `output` keeps the response's text for the record; `malformed` says
why a record could not be read (then `calls` is null) and the other records go on. A file
that is not JSON raises InputError naming the file and the line (the record number in a JSON
list).
"""

from pathlib import Path

import orjson
import pyarrow as pa

from scorer.errors import InputError
from scorer.load import json_lines, without_bom
from scorer.parse import parse_calls_value, parse_output
from scorer.tables import PREDICTIONS

PROVIDERS = ("openai_chat", "openai_responses", "anthropic", "gemini", "text")
DEFAULT_MODEL = "model"

_ID_FIELDS = ("custom_id", "id", "request_id", "key")
_TEXT_FIELDS = ("output", "text", "content", "generated_text")
_JSONL_SUFFIXES = (".jsonl", ".ndjson")


class _BadRecord(Exception):
    """A record that cannot be read; the message is the row's `malformed` reason."""


def _text_field(record: dict):
    return next((record[field] for field in _TEXT_FIELDS if isinstance(record.get(field), str)), None)


def _response_provider(response) -> str | None:
    if isinstance(response, str):
        return "text"
    if not isinstance(response, dict):
        return None
    if "choices" in response:
        return "openai_chat"
    if "candidates" in response or "promptFeedback" in response:
        return "gemini"
    if response.get("object") == "response" or isinstance(response.get("output"), list):
        return "openai_responses"
    if response.get("type") == "message" or (
            isinstance(response.get("content"), list) and "stop_reason" in response):
        return "anthropic"
    if "tool_calls" in response or response.get("role") == "assistant":
        return "openai_chat"  # an assistant message without its completion around it
    if _text_field(response) is not None:
        return "text"
    return None


def _unwrap(record):
    """(wrapper, response, error): the wrapper is {} for a bare response."""
    if not isinstance(record, dict):
        return {}, record, None
    if "response" in record:
        response, error = record["response"], record.get("error")
        if isinstance(response, dict) and "status_code" in response and "body" in response:
            status, body = response["status_code"], response["body"]
            if status != 200 and not error:
                reason = body.get("error") if isinstance(body, dict) else None
                error = f"status {status}" + (f": {_error_text(reason)}" if reason else "")
            response = body
        if isinstance(response, str) and response.lstrip()[:1] == "{":
            try:
                decoded = orjson.loads(response)
            except orjson.JSONDecodeError:
                decoded = None
            if _response_provider(decoded) not in (None, "text"):
                response = decoded  # a response saved as JSON text; otherwise raw model text
        return record, response, error
    result = record.get("result")
    if isinstance(result, dict) and ("message" in result or "type" in result):
        kind = result.get("type", "succeeded")
        error = None if kind == "succeeded" else (result.get("error") or kind)
        return record, result.get("message"), error
    if _response_provider(record) == "text":
        return record, _text_field(record), None
    return {}, record, None


def detect_provider(obj) -> str | None:
    """The provider whose response shape a record (wrapped or bare) has, or None."""
    _, response, _ = _unwrap(obj)
    return _response_provider(response)


def _record_id(wrapper: dict, response) -> str | None:
    holders = [wrapper, wrapper.get("metadata"),
               response.get("metadata") if isinstance(response, dict) else None]
    for holder in holders:
        if isinstance(holder, dict):
            for field in _ID_FIELDS:
                if holder.get(field) is not None:
                    return str(holder[field])
    return None


def _record_model(wrapper: dict, response) -> str:
    for holder, field in ((wrapper, "model"), (response, "model"), (response, "modelVersion")):
        if isinstance(holder, dict) and isinstance(holder.get(field), str):
            return holder[field]
    return DEFAULT_MODEL


def _error_text(error) -> str:
    if isinstance(error, dict):
        inner = error.get("error") if isinstance(error.get("error"), dict) else error
        return str(inner.get("message") or inner.get("type") or error)
    return str(error)


def _joined(texts) -> str | None:
    texts = [text for text in texts if isinstance(text, str)]
    return "\n".join(texts) if texts else None


def _content_text(content) -> str | None:
    if isinstance(content, str) or content is None:
        return content
    if isinstance(content, list):
        return _joined(part.get("text") for part in content if isinstance(part, dict))
    raise _BadRecord(f"message content is a {type(content).__name__}")


def _field(holder, name: str, what: str, kind=list):
    value = holder.get(name) if isinstance(holder, dict) else None
    if not isinstance(value, kind) or (kind is list and not value):
        raise _BadRecord(f"{what} has no {name}")
    return value


def _openai_chat(response):
    if "choices" not in response:
        return _message_calls(response)
    choice = _field(response, "choices", "response")[0]
    if isinstance(choice, dict) and "message" not in choice and isinstance(choice.get("text"), str):
        return [], choice["text"]
    return _message_calls(_field(choice, "message", "choice", dict))


def _message_calls(message: dict):
    items = message.get("tool_calls") or []
    if not items and isinstance(message.get("function_call"), dict):
        items = [message["function_call"]]
    return items, _content_text(message.get("content"))


def _openai_responses(response):
    if response.get("error"):
        raise _BadRecord(f"provider error: {_error_text(response['error'])}")
    output = response.get("output")
    if not isinstance(output, list):
        raise _BadRecord("response has no output")
    items = [item for item in output if isinstance(item, dict) and item.get("type") == "function_call"]
    texts = (part.get("text") for item in output
             if isinstance(item, dict) and item.get("type") == "message"
             for part in item.get("content") or () if isinstance(part, dict))
    return items, _joined(texts)


def _anthropic(response):
    content = response.get("content")
    if not isinstance(content, list):
        raise _BadRecord("message has no content blocks")
    blocks = [block for block in content if isinstance(block, dict)]
    items = [block for block in blocks if block.get("type") == "tool_use"]
    return items, _joined(block.get("text") for block in blocks if block.get("type") == "text")


def _gemini(response):
    candidates = response.get("candidates")
    if not isinstance(candidates, list) or not candidates:
        feedback = response.get("promptFeedback") or {}
        blocked = feedback.get("blockReason") if isinstance(feedback, dict) else None
        raise _BadRecord("response has no candidates" + (f" (blocked: {blocked})" if blocked else ""))
    candidate = candidates[0] if isinstance(candidates[0], dict) else {}
    if candidate.get("finishReason") == "MALFORMED_FUNCTION_CALL":
        raise _BadRecord("finishReason MALFORMED_FUNCTION_CALL"
                         + (f": {candidate['finishMessage']}" if candidate.get("finishMessage") else ""))
    content = candidate.get("content") or {}
    parts = [part for part in content.get("parts") or () if isinstance(part, dict)]
    items = []
    for part in parts:
        call = part.get("functionCall", part.get("function_call"))
        if call is not None:
            items.append({"name": call.get("name"), "args": call.get("args")} if isinstance(call, dict) else call)
    return items, _joined(part.get("text") for part in parts if not part.get("thought"))


def _text(response):
    if not isinstance(response, str):
        raise _BadRecord("record holds no model text")
    return [], response


_READERS = {
    "openai_chat": _openai_chat,
    "openai_responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "text": _text,
}


def _read_record(record, provider: str | None):
    """One record -> (id or None, model, calls or None, output, malformed)."""
    wrapper, response, error = _unwrap(record)
    record_id, model = _record_id(wrapper, response), _record_model(wrapper, response)
    output = None
    try:
        if error:
            raise _BadRecord(f"provider error: {_error_text(error)}")
        if isinstance(response, dict) and response.get("error") and "choices" not in response:
            raise _BadRecord(f"provider error: {_error_text(response['error'])}")
        kind = provider or _response_provider(response)
        if kind is None:
            raise _BadRecord("not a response of a known provider")
        if kind != "text" and not isinstance(response, dict):
            raise _BadRecord(f"not a {kind} response")
        try:
            items, output = _READERS[kind](response)
        except (AttributeError, TypeError, KeyError, IndexError) as problem:
            raise _BadRecord(f"unexpected shape for a {kind} response ({type(problem).__name__}: {problem})") from None
        parsed = parse_calls_value(items) if items else parse_output(output)
        if parsed.malformed:
            raise _BadRecord(parsed.malformed)
    except _BadRecord as problem:
        return record_id, model, None, output, str(problem)
    calls = [{"name": name, "arguments": arguments} for name, arguments in parsed.calls]
    return record_id, model, calls, output, None


def _json_records(path: Path, data: bytes):
    """(record number, record) pairs: a JSON document's items, or one per JSONL line."""
    if path.suffix.lower() not in _JSONL_SUFFIXES:
        try:
            document = orjson.loads(data)
        except orjson.JSONDecodeError as whole:
            first = data.lstrip().split(b"\n", 1)[0]
            try:
                orjson.loads(first)
            except orjson.JSONDecodeError:
                raise InputError(path, f"not valid JSON ({whole.msg})", row=whole.lineno) from None
        else:
            return list(enumerate(document if isinstance(document, list) else [document], 1))
    records = []
    for number, record, problem in json_lines(path):
        if problem is not None:
            raise InputError(path, problem, row=number)
        records.append((number, record))
    return records


def read_provider_dump(path, provider: str | None = None) -> pa.Table:
    """A dump of provider responses -> a predictions table, one row per record."""
    path = Path(path)
    if provider is not None and provider not in PROVIDERS:
        raise InputError(path, f"unknown provider {provider!r}; one of {', '.join(PROVIDERS)}")
    try:
        data = path.read_bytes()
    except OSError as problem:
        raise InputError(path, f"cannot read the file ({problem.strerror})") from None
    data = without_bom(data)
    columns = {name: [] for name in PREDICTIONS.names}
    for number, record in (_json_records(path, data) if data.strip() else []):
        record_id, model, calls, output, malformed = _read_record(record, provider)
        if record_id is None:
            record_id, calls = f"{path.name}#{number}", None
            malformed = "record has no id" + (f"; {malformed}" if malformed else "")
        for name, value in zip(PREDICTIONS.names, (record_id, model, calls, output, malformed)):
            columns[name].append(value)
    return pa.Table.from_pydict(columns, schema=PREDICTIONS)
