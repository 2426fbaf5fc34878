"""Reward functions for RL on tool use, in the signatures TRL, verl and OpenRLHF call.

    >>> reward = make_reward(mode="fractional")                  # TRL GRPO by default
    >>> reward(prompts, completions, gold_calls=[...], tools=[...], reference_time=[...])
    [1.0, 0.833..., 0.0, ...]

A completion is scored exactly as `score` scores an `output` (same parser, normalizer and
optimal call matching: 北京市 = 北京, 明天 = the date it names against the sample's reference
time); the reward is read from the matcher's error list, so no comparison logic lives here.

Components, each in [0, 1], returned for logging (`reward.last_components`, verl's dict,
OpenRLHF's `extra_logs`):
- `format`: the completion reads as calls (or as a plain reply): not malformed;
- `correct`: the verdict is `correct`;
- `calls`: matched calls (same tool name; one to one, optimally paired) over max(gold calls,
  predicted calls); f1 mode: 2·matched / (gold + predicted);
- `arguments`: gold arguments of matched calls that were given (an optional one left out
  counts as given) over gold arguments + extra predicted arguments (those of unmatched calls
  included); f1 mode: 2·right / (gold + right + extra);
- `values`: as `arguments`, counting only arguments whose normalized value is right.
A row whose gold needs no call scores `correct` on calls, arguments and values.

Modes: `binary` = correct; `fractional` and `f1` = the weighted mean of calls, arguments and
values; `weights` may also give `format` a weight (default 0) and re-weight the others.

Undecided comparisons (a free text in the fuzzy band, a date that did not resolve) cannot
wait for a judge: `undecided="tentative"` (default) takes the rules' tentative verdict (the
value counts as right, the row as correct unless something else is wrong); a number in [0, 1]
is the credit such a value earns instead, and the binary reward of an undecided row.
An argument the tool's schema does not define counts as extra, as the tentative verdict does.

Gold comes per sample in the batch (columns `gold_calls`, and optionally `tools`,
`reference_time`, `negative_type`; names configurable), in the notation of gold files, or
from a `Gold` set given once, the samples naming their gold row by `id_column`. The first
normalizes that batch's distinct gold rows on every call; the second never does (faster).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
import pyarrow as pa

from scorer import match_py as m
from scorer.api import Gold
from scorer.match import match
from scorer.parse import dump_json, json_text

MODES = ("binary", "fractional", "f1")
COMPONENTS = ("format", "correct", "calls", "arguments", "values")
DEFAULT_WEIGHTS = {"binary": {"correct": 1.0}, "fractional": {"calls": 1.0, "arguments": 1.0, "values": 1.0},
                   "f1": {"calls": 1.0, "arguments": 1.0, "values": 1.0}}
_WRONG_VALUE = (m.E_INCORRECT_VALUE, m.E_TEMPORAL)
_GOLD_CACHE = 8   # gold sets built from in-batch gold kept for reuse (an eval set scored each step)


def completion_text(completion) -> tuple[Any, str | None]:
    """(calls, output) of a completion: a string is raw output; a chat-message list gives its
    last assistant message, whose `tool_calls` are calls and whose text content is output."""
    if completion is None or isinstance(completion, str):
        return None, completion
    if isinstance(completion, dict):
        completion = [completion]
    message = next((mes for mes in reversed(completion) if mes.get("role", "assistant") == "assistant"), {})
    if message.get("tool_calls"):
        return message["tool_calls"], None
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return None, content


class Reward:
    """Scores completions against gold and turns the matcher's errors into components."""

    def __init__(self, mode: str = "fractional", weights: dict | None = None, undecided: str | float = "tentative",
                 gold: Gold | None = None, id_column: str = "id", gold_column: str = "gold_calls",
                 tools_column: str = "tools", reference_time_column: str = "reference_time",
                 negative_type_column: str = "negative_type", **options):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.weights = dict(DEFAULT_WEIGHTS[mode] if weights is None else weights)
        unknown = set(self.weights) - set(COMPONENTS)
        if unknown or not any(self.weights.values()) or min(self.weights.values()) < 0:
            raise ValueError(f"weights name components among {', '.join(COMPONENTS)}, non-negative, not all 0")
        if undecided != "tentative" and not (isinstance(undecided, (int, float)) and 0 <= undecided <= 1):
            raise ValueError("undecided must be 'tentative' or a number in [0, 1]")
        self.mode, self.undecided, self.gold, self.options = mode, undecided, gold, options
        self.id_column, self.gold_column, self.tools_column = id_column, gold_column, tools_column
        self.reference_time_column, self.negative_type_column = reference_time_column, negative_type_column
        self._built: dict[tuple, tuple[Gold, dict]] = {}
        self._row_of_id = {} if gold is None else {i: row for row, i in enumerate(gold._scorer.gold_ids.to_pylist())}
        self.last_components: dict[str, list[float]] = {}

    # ------------------------------------------------------------------ scoring
    def score(self, completions: Sequence, columns: dict) -> tuple[list[float], dict[str, list[float]]]:
        """(rewards, components) of completions, gold from `columns` (dataset columns by name)."""
        gold, g_rows = self._gold_rows(len(completions), columns)
        scorer = gold._scorer
        calls, outputs = zip(*map(completion_text, completions)) if completions else ((), ())
        encoded = scorer.encoder.encode(g_rows, [None if c is None else dump_json(c) for c in calls], list(outputs))
        matched = match(scorer.gold.arrays, encoded.arrays, encoded.pair_keys, encoded.pair_status,
                        gold.options.temporal_format == "strict")
        components = self._components(scorer.gold.arrays, encoded.arrays, matched)
        total = sum(self.weights.values())
        rewards = sum(weight * components[name] for name, weight in self.weights.items()) / total
        self.last_components = {name: values.tolist() for name, values in components.items()}
        return rewards.tolist(), self.last_components

    def _gold_rows(self, count: int, columns: dict) -> tuple[Gold, np.ndarray]:
        if self.gold is not None:
            ids = _column(columns, self.id_column, count)
            where = self._row_of_id
            missing = [str(i) for i in ids if str(i) not in where]
            if missing:
                raise KeyError(f"ids not in gold: {', '.join(missing[:5])}")
            return self.gold, np.array([where[str(i)] for i in ids], np.int64)
        names = (self.gold_column, self.tools_column, self.reference_time_column, self.negative_type_column)
        values = [_column(columns, name, count, required=name == self.gold_column) for name in names]
        keys = [tuple(json_text(v) for v in row) for row in zip(*values)]
        distinct = tuple(dict.fromkeys(keys))
        found = self._built.get(distinct)
        if found is None:
            table = pa.table({"id": [str(i) for i in range(len(distinct))],
                              **{name: pa.array([key[k] for key in distinct], pa.string())
                                 for k, name in enumerate(("gold_calls", "tools", "reference_time", "negative_type"))}})
            found = (Gold.from_table(table, **self.options), {key: row for row, key in enumerate(distinct)})
            if len(self._built) >= _GOLD_CACHE:
                self._built.pop(next(iter(self._built)))
            self._built[distinct] = found
        gold, row_of = found
        return gold, np.array([row_of[key] for key in keys], np.int64)

    def _components(self, gold: m.Gold, pred: m.Predictions, matched: m.Matched) -> dict[str, np.ndarray]:
        n = len(pred.row_gold)
        out = {name: np.zeros(n) for name in COMPONENTS}
        tentative = self.undecided == "tentative"
        # plain lists: indexing numpy arrays element by element costs more than the work
        g_call_off, g_arg_off = gold.row_call_off.tolist(), gold.call_arg_off.tolist()
        p_call_off, p_arg_off = pred.row_call_off.tolist(), pred.call_arg_off.tolist()
        err_off, kinds, g_calls, p_calls, g_args = (matched.err_off.tolist(), matched.err_kind.tolist(),
                                                     matched.err_gcall.tolist(), matched.err_pcall.tolist(),
                                                     matched.err_garg.tolist())
        out["format"][:] = (pred.row_flags & m.ROW_MALFORMED) == 0
        correct = (matched.outcome == m.O_CORRECT).astype(float)
        if not tentative:
            correct[matched.decided == 0] = float(self.undecided)
        out["correct"][:] = correct
        for row, g_row in enumerate(pred.row_gold.tolist()):
            g_first, g_last = g_call_off[g_row], g_call_off[g_row + 1]
            p_first = p_call_off[row]
            n_gold, n_pred = g_last - g_first, p_call_off[row + 1] - p_first
            if n_gold == 0:
                out["calls"][row] = out["arguments"][row] = out["values"][row] = correct[row]
                continue
            lost_calls, extra, missing, wrong = set(), 0, 0, 0.0
            for e in range(err_off[row], err_off[row + 1]):
                kind = kinds[e]
                if kind == m.E_PARTIAL_CALLS:
                    lost_calls.add(g_calls[e])
                elif kind in (m.E_WRONG_TOOL, m.E_EXTRA_CALL):   # an unmatched call: its arguments are extra
                    extra += p_arg_off[p_first + p_calls[e] + 1] - p_arg_off[p_first + p_calls[e]]
                elif kind == m.E_MISSING_ARG:
                    missing += 1
                elif kind in _WRONG_VALUE and g_args[e] >= 0:
                    wrong += 1
                elif kind == m.E_UNKNOWN_ARG or kind == m.E_INCORRECT_VALUE:  # an argument gold lacks
                    extra += 1
                elif kind == m.E_UNCERTAIN and not tentative:
                    wrong += 1 - float(self.undecided)
            matched_calls = n_gold - len(lost_calls)
            gold_args = g_arg_off[g_last] - g_arg_off[g_first]
            given = gold_args - sum(g_arg_off[g_first + i + 1] - g_arg_off[g_first + i] for i in lost_calls)
            names_right = given - missing
            values_right = names_right - wrong
            if self.mode == "f1":
                calls = 2 * matched_calls / (n_gold + n_pred)
                names = _ratio(2 * names_right, gold_args + names_right + extra, calls)
                values = _ratio(2 * values_right, gold_args + names_right + extra, calls)
            else:
                calls = matched_calls / max(n_gold, n_pred)
                names = _ratio(names_right, gold_args + extra, calls)
                values = _ratio(values_right, gold_args + extra, calls)
            out["calls"][row], out["arguments"][row], out["values"][row] = calls, names, values
        return out

    # ------------------------------------------------------------------ trainer signatures
    def trl(self, prompts: Sequence, completions: Sequence, **kwargs) -> list[float]:
        """TRL GRPO: dataset columns arrive as keyword lists."""
        return self.score(completions, kwargs)[0]

    def verl(self, data_source: str, solution_str: str, ground_truth, extra_info: dict | None = None) -> dict:
        """verl: one sample; `ground_truth` is the gold calls (JSON text or list) or a dict of
        gold columns; `extra_info` may carry tools, reference_time, negative_type (or an id)."""
        columns = dict(extra_info or {})
        if isinstance(ground_truth, dict) and self.gold_column in ground_truth:
            columns.update(ground_truth)
        elif self.gold is None:
            columns[self.gold_column] = ground_truth
        columns = {name: [value] for name, value in columns.items()}
        rewards, components = self.score([solution_str], columns)
        return {"score": rewards[0], **{name: values[0] for name, values in components.items()}}

    def openrlhf(self, queries: Sequence, prompts: Sequence, labels: Sequence) -> dict:
        """OpenRLHF: `labels` hold each sample's gold (calls, or a dict of gold columns); the
        query is the prompt followed by the completion, which is scored."""
        completions = [query[len(prompt):] if query.startswith(prompt) else query
                       for query, prompt in zip(queries, prompts)]
        columns: dict[str, list] = {}
        for index, label in enumerate(labels):
            label = label if isinstance(label, dict) and self.gold_column in label else {self.gold_column: label}
            for name, value in label.items():
                columns.setdefault(name, [None] * len(labels))[index] = value
        rewards, components = self.score(completions, columns)
        try:
            import torch  # OpenRLHF runs under torch and takes tensors; lists without it
        except ImportError:
            return {"rewards": rewards, "scores": list(rewards), "extra_logs": components}
        return {"rewards": torch.tensor(rewards), "scores": torch.tensor(rewards),
                "extra_logs": {name: torch.tensor(values) for name, values in components.items()}}


def _ratio(numerator, denominator, otherwise) -> float:
    """A share, clipped to [0, 1]; `otherwise` when nothing is counted (calls without arguments)."""
    return otherwise if denominator <= 0 else min(1.0, max(0.0, numerator / denominator))


def _column(columns: dict, name: str, count: int, required: bool = True) -> list:
    values = columns.get(name)
    if values is None:
        if required:
            raise KeyError(f"reward needs the dataset column {name!r} (see make_reward's column names)")
        return [None] * count
    if len(values) != count:
        raise ValueError(f"column {name!r} has {len(values)} values for {count} completions")
    return list(values)


def make_reward(mode: str = "fractional", weights: dict | None = None, *, trainer: str = "trl",
                undecided: str | float = "tentative", gold: Gold | None = None, **columns_and_options) -> Callable:
    """A reward function in `trainer`'s signature ("trl", "verl" or "openrlhf"); see the
    module docstring for modes, weights, components and the `undecided` policy. Keyword
    arguments: the column names (gold_column, tools_column, reference_time_column,
    negative_type_column, id_column with `gold`) and scoring options (reference_time,
    timezone, fuzzy_high, ...). The function's `reward` attribute is the `Reward` behind it
    (its `last_components` hold the last batch's components)."""
    reward = Reward(mode, weights, undecided, gold, **columns_and_options)
    function = {"trl": reward.trl, "verl": reward.verl, "openrlhf": reward.openrlhf}.get(trainer)
    if function is None:
        raise ValueError(f"trainer must be trl, verl or openrlhf, not {trainer!r}")

    def reward_func(*args, **kwargs):
        return function(*args, **kwargs)

    reward_func.__name__ = reward_func.__qualname__ = f"callscore_{mode}"
    reward_func.__doc__ = function.__doc__
    reward_func.reward = reward
    return reward_func
