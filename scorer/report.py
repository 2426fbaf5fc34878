"""Metric rows -> text for a terminal, Markdown, CSV, JSON or LaTeX, byte for byte the same
on every run: fixed float formatting, "\\n" line endings, JSON keys sorted.

Rows are dicts as `Tally.rows()` makes them. A value is rendered by its type: str as is, int as
a count, float as a share in percent with `precision` decimals, `Estimate` as a share with its
confidence interval, None as "–" (an empty cell in CSV, null in JSON). JSON keeps the exact
ratios (0..1, rounded to 6 decimals) for machines; the other formats show percentages.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from pathlib import Path
from typing import NamedTuple

from scorer.aggregate import HEADLINE, METRIC_BY_NAME
from scorer.outputs import written_atomically

DASH = "–"
FORMATS = ("text", "md", "csv", "json", "latex")
HEADLINE_COLUMNS = ("model", "group", *HEADLINE)
_JSON_DECIMALS = 6

_LABELS = {
    "recall": "Recall", "accuracy": "Accuracy", "miss_recall": "Miss Recall",
    "param_error": "Param Error", "over_recall": "Over Recall", "extra_call": "Extra Call",
    "decided": "Decided", "missing_n": "Missing", "undecided_n": "Undecided",
    "correct_n": "Correct",
}


class Estimate(NamedTuple):
    """A share with a confidence interval; None parts when undefined."""

    value: float | None
    low: float | None
    high: float | None


def _is_share_column(rows: list[dict], column: str) -> bool:
    """Floats and estimates are shares; a column of nulls is one if the metric is."""
    values = [row.get(column) for row in rows if row.get(column) is not None]
    if values:
        return any(isinstance(value, (float, Estimate)) for value in values)
    metric = METRIC_BY_NAME.get(column)
    return metric is not None and metric.is_share


def _percent(value: float | None, precision: int) -> str:
    return DASH if value is None else f"{100 * value:.{precision}f}"


def _cell(value, precision: int, grouped: bool = True) -> str:
    """A cell as text: percentages for shares, counts with thousands separators (`grouped`;
    not in CSV, which programs read)."""
    if value is None:
        return DASH
    if isinstance(value, Estimate):
        if value.value is None:
            return DASH
        return (f"{_percent(value.value, precision)} "
                f"[{_percent(value.low, precision)}, {_percent(value.high, precision)}]")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _percent(value, precision)
    if isinstance(value, int) and grouped:
        return f"{value:,}"
    return str(value)


def display_width(text: str) -> int:
    """Columns a text takes in a terminal: wide and full-width characters (CJK) take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 0 if unicodedata.combining(char) else 1
               for char in text)


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * max(width - display_width(text), 0)
    return space + text if right else text + space


_OUTCOME_INITIALS = {"miss_recall": "MR", "param_error": "PE", "over_recall": "OR"}


def label(column: str) -> str:
    """Readable header: `Recall`, `PE Temporal` (MR/PE/OR: Miss Recall, Param Error, Over
    Recall), or the column name itself."""
    if column in _LABELS:
        return _LABELS[column]
    outcome, sep, subtype = column.partition("/")
    if sep and outcome in _OUTCOME_INITIALS:
        words = subtype.removesuffix("_n").replace("_", " ").title()
        return f"{_OUTCOME_INITIALS[outcome]} {words}" + (" n" if subtype.endswith("_n") else "")
    return column


def _header(column: str, share: bool) -> str:
    return f"{label(column)} %" if share else label(column)


def _point(value) -> float | None:
    return value.value if isinstance(value, Estimate) else value


def best_cells(rows: list[dict], columns: list[str], precision: int) -> set[tuple[int, str]]:
    """(row index, column) of the best value per share column among comparable rows.

    Comparable rows share every non-metric column but `model` (the same group); best is the
    highest for recall/accuracy/decided, the lowest for error shares; ties (as displayed)
    are all best; a set of fewer than two distinct values has no best."""
    keys = [c for c in columns if c != "model" and not _is_share_column(rows, c)
            and c not in METRIC_BY_NAME]
    sets: dict[tuple, list[int]] = {}
    for index, row in enumerate(rows):
        sets.setdefault(tuple(str(row.get(k)) for k in keys), []).append(index)
    best = set()
    for column in columns:
        metric = METRIC_BY_NAME.get(column)
        if metric is None or not metric.is_share:
            continue
        for members in sets.values():
            shown = {i: _point(rows[i].get(column)) for i in members}
            shown = {i: round(100 * v, precision) for i, v in shown.items() if v is not None}
            if len(set(shown.values())) < 2:
                continue
            target = max(shown.values()) if metric.higher_is_better else min(shown.values())
            best.update((i, column) for i, v in shown.items() if v == target)
    return best


def _columns_of(rows: list[dict], columns: list[str] | None) -> list[str]:
    if columns is not None:
        return list(columns)
    seen: dict[str, None] = {}
    for row in rows:
        seen.update(dict.fromkeys(row))
    return list(seen)


def render(rows: list[dict], fmt: str, precision: int = 1, columns: list[str] | None = None,
           bold_best: bool = False, labels: bool = True) -> str:
    """The rows as one text in `fmt` (text, md, csv, json, latex); `bold_best` marks the best
    value per column in md and LaTeX; `labels` turns metric names into readable headers
    (text, md, LaTeX) and adds the % unit to share columns."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose one of {', '.join(FORMATS)})")
    columns = _columns_of(rows, columns)
    if fmt == "json":
        return _json(rows, columns)
    if fmt == "csv":
        return _csv(rows, columns, precision)
    headers = [_header(c, _is_share_column(rows, c)) if labels else c for c in columns]
    best = best_cells(rows, columns, precision) if bold_best else set()
    if fmt == "text":
        return _text(rows, columns, headers, precision)
    if fmt == "md":
        return _markdown(rows, columns, headers, precision, best)
    return _latex(rows, columns, headers, precision, best)


def _numeric_column(rows: list[dict], column: str) -> bool:
    return all(isinstance(row.get(column), (int, float, Estimate, type(None))) for row in rows)


def _text(rows, columns, header, precision) -> str:
    body = [[_cell(row.get(c), precision) for c in columns] for row in rows]
    widths = [max(display_width(line[i]) for line in [header, *body]) for i in range(len(columns))]
    right = [_numeric_column(rows, c) for c in columns]

    def line(cells):
        return "  ".join(_pad(cell, w, r) for cell, w, r in zip(cells, widths, right)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(cells) for cells in body)]) + "\n"


def _markdown(rows, columns, headers, precision, best) -> str:
    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    header = [escape(h) for h in headers]
    align = ["---:" if _numeric_column(rows, c) else ":---" for c in columns]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    for index, row in enumerate(rows):
        cells = []
        for column in columns:
            text = escape(_cell(row.get(column), precision))
            cells.append(f"**{text}**" if (index, column) in best else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", DASH: "--",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def _latex(rows, columns, headers, precision, best) -> str:
    spec = "".join("r" if _numeric_column(rows, c) else "l" for c in columns)
    header = [latex_escape(h) for h in headers]
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", " & ".join(header) + r" \\",
             "\\midrule"]
    for index, row in enumerate(rows):
        cells = []
        for column in columns:
            text = latex_escape(_cell(row.get(column), precision))
            cells.append(f"\\textbf{{{text}}}" if (index, column) in best else text)
        lines.append(" & ".join(cells) + r" \\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def _csv(rows, columns, precision) -> str:
    """Percent cells as in the other tables; an Estimate becomes three columns."""
    estimates = {c for c in columns if any(isinstance(row.get(c), Estimate) for row in rows)}
    header = []
    for column in columns:
        header += [column, f"{column}_low", f"{column}_high"] if column in estimates else [column]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        cells = []
        for column in columns:
            value = row.get(column)
            if column in estimates:
                parts = value if isinstance(value, Estimate) else Estimate(None, None, None)
                cells += ["" if p is None else _percent(p, precision) for p in parts]
            else:
                cells.append("" if value is None else _cell(value, precision, grouped=False))
        writer.writerow(cells)
    return buffer.getvalue()


def _json_value(value):
    if isinstance(value, Estimate):
        return {name: _json_value(part) for name, part in value._asdict().items()}
    if isinstance(value, float):
        return round(value, _JSON_DECIMALS)
    return value


def _json(rows, columns) -> str:
    payload = [{c: _json_value(row.get(c)) for c in columns} for row in rows]
    return json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


SUMMARY_FORMATS = {".json": "json", ".csv": "csv", ".md": "md"}


def write_summary(rows: list[dict], path, precision: int = 1) -> None:
    """Write every column of the rows in the format the extension names (.json, .csv, .md)."""
    path = Path(path)
    fmt = SUMMARY_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(
            f"{path}: unknown summary extension {path.suffix or '(none)'!r} "
            f"(use {', '.join(SUMMARY_FORMATS)})")
    text = render(rows, fmt, precision=precision)
    with written_atomically(path) as handle:
        handle.write(text.encode("utf-8"))
