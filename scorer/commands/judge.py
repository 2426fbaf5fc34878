"""`score merge-judge` folds an LLM judge's answers into the verdicts; `score audit` measures
how well the rules agree with a judge on rows the rules did decide."""

from __future__ import annotations

import json

import click
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from scorer import vocab
from scorer.commands.table import bad_input_exits, read_verdicts, write_verdicts
from scorer.errors import InputError
from scorer.judge import answer_key, check_fits_row, describe, kept_json, read_answers
from scorer.report import render

RULES, JUDGE = "rules", "judge"


def _read_answers_or_exit(path):
    try:
        return read_answers(path)
    except OSError as error:
        raise InputError(path, f"cannot read ({error.strerror or error})") from error
    except UnicodeDecodeError as error:
        raise InputError(path, "not UTF-8 text") from error


def _report(path, problems) -> None:
    for line, reason in problems:
        click.echo(f"{path} line {line}: {reason}", err=True)


def _decided_by(table: pa.Table) -> pa.Array:
    """The existing column, or `rules` for decided rows and null for undecided ones."""
    if "decided_by" in table.column_names:
        return table.column("decided_by").combine_chunks()
    decided = pc.fill_null(table.column("decided"), False)
    return pc.if_else(decided, pa.scalar(RULES), pa.scalar(None, pa.string())).combine_chunks()


def _row_index(table: pa.Table, answers: list) -> dict:
    """answer_key -> the rows it names, for the answered (model, id)s only: keyed without kept
    columns and, for each set of kept columns the answers echo, with their values."""
    ids = pa.array(sorted({a["id"] for _, a in answers}), pa.string())
    rows = pc.indices_nonzero(pc.fill_null(pc.is_in(table.column("id"), value_set=ids), False))
    kept_sets = {tuple(sorted(a["kept"])) for _, a in answers if a["kept"]}
    wanted = sorted({name for names in kept_sets for name in names} & set(table.column_names))
    index = {}
    for row, found in zip(rows.to_pylist(), table.select(["model", "id", *wanted]).take(rows).to_pylist()):
        keys = [(found["model"], found["id"], None)] + [
            (found["model"], found["id"], kept_json({name: found[name] for name in names}))
            for names in kept_sets if set(names) <= set(wanted)]
        for key in keys:
            index.setdefault(key, []).append(row)
    return index


def _answered_row(index: dict, answer: dict) -> tuple:
    """(row, None) for the one row an answer names, else (None, the problem)."""
    rows = index.get(answer_key(answer), [])
    if len(rows) == 1:
        return rows[0], None
    if not rows:
        return None, f"no verdict for {describe(answer)}"
    return None, (f"{len(rows)} rows have {describe(answer)}: answer with the record's `kept` "
                  "(score --keep COLUMN) to name one")


def merge_answers(table: pa.Table, answers: list) -> tuple[pa.Table, list, int]:
    """Apply judge answers to undecided rows. Returns (table, problems, rows merged).

    An answer for a row the rules decided is left alone (it is audit material); an answer for
    an unknown row or one impossible for its row is a problem and its row stays undecided."""
    index = _row_index(table, answers)
    positive = table.column("positive").to_pylist()
    decided = pc.fill_null(table.column("decided"), False).to_pylist()
    problems, updates = [], {}
    for line, answer in answers:
        row, problem = _answered_row(index, answer)
        if problem:
            problems.append((line, problem))
            continue
        if decided[row]:
            continue
        try:
            check_fits_row(answer, bool(positive[row]))
        except ValueError as error:
            problems.append((line, str(error)))
            continue
        updates[row] = answer
    columns = {name: table.column(name).combine_chunks() for name in table.column_names}
    columns["decided_by"] = _decided_by(table)
    rows = sorted(updates)
    if rows:
        mask = np.zeros(table.num_rows, dtype=bool)
        mask[rows] = True
        new_values = {
            "outcome": [updates[r]["outcome"] for r in rows],
            "subtype": [updates[r]["subtype"] for r in rows],
            "argument": [updates[r]["argument"] for r in rows],
            "detail": [f"judge: {updates[r]['reason']}" if updates[r]["reason"] else "judge"
                       for r in rows],
            "rule": [JUDGE] * len(rows),
            "decided": [True] * len(rows),
            "decided_by": [JUDGE] * len(rows),
        }
        for name, values in new_values.items():
            if name in columns:
                columns[name] = pc.replace_with_mask(
                    columns[name], pa.array(mask), pa.array(values, columns[name].type))
    merged = pa.table(columns)
    if table.schema.metadata:
        merged = merged.replace_schema_metadata(table.schema.metadata)
    return merged, problems, len(rows)


@click.command("merge-judge")
@click.argument("verdicts", type=click.Path(dir_okay=False))
@click.argument("judge_file", metavar="JUDGE.jsonl", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Merged verdicts (.parquet or .jsonl).")
def merge_judge(verdicts, judge_file, output):
    """Fold an LLM judge's answers into the rows the rules left undecided.

    Each JSONL line: {"model", "id", "outcome", "subtype", "argument", "reason"}, plus the
    record's "kept" when samples share a (model, id) (score --keep sample). Bad answers
    are reported on stderr (file, line, reason) and their rows stay undecided; every row gets
    `decided_by` (rules, judge, or null while undecided).

    Example: score merge-judge verdicts.parquet data/examples/judge_answers.jsonl -o judged.parquet
    """
    with bad_input_exits(verdicts):
        table = read_verdicts(verdicts)
        answers, problems = _read_answers_or_exit(judge_file)
    merged, row_problems, count = merge_answers(table, answers)
    _report(judge_file, sorted(problems + row_problems))
    with bad_input_exits(output):
        write_verdicts(merged, output)
    left = merged.num_rows - pc.sum(pc.fill_null(merged.column("decided"), False).cast(pa.int64())).as_py()
    click.echo(f"merged {count} judge answer(s); {len(problems) + len(row_problems)} rejected; "
               f"{left} row(s) still undecided")


def _label_order(level: str) -> list:
    if level == "outcome":
        return list(vocab.OUTCOMES)
    return [vocab.CORRECT] + [f"{o}/{s}" for o in vocab.OUTCOMES[1:] for s in vocab.SUBTYPES[o]]


def agreement(pairs: list[tuple[str, str]], labels: list[str]) -> dict:
    """Observed agreement, Cohen's kappa and the confusion matrix (rules rows x judge columns).

    kappa = (p_o - p_e) / (1 - p_e) with p_e from the two raters' label shares; None when
    p_e == 1 (both raters used one single label) or there are no pairs."""
    seen = set(labels)
    labels = labels + sorted({label for pair in pairs for label in pair} - seen)
    position = {label: i for i, label in enumerate(labels)}
    matrix = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for rules_label, judge_label in pairs:
        matrix[position[rules_label], position[judge_label]] += 1
    total = int(matrix.sum())
    if total == 0:
        return {"n": 0, "agreement": None, "kappa": None, "labels": labels, "matrix": matrix}
    observed = float(np.trace(matrix)) / total
    expected = float(matrix.sum(axis=1) @ matrix.sum(axis=0)) / total ** 2
    kappa = None if expected == 1 else (observed - expected) / (1 - expected)
    return {"n": total, "agreement": observed, "kappa": kappa, "labels": labels, "matrix": matrix}


def _matrix_rows(result: dict) -> list[dict]:
    used = [i for i, _ in enumerate(result["labels"])
            if result["matrix"][i].sum() or result["matrix"][:, i].sum()]
    return [{"rules \\ judge": result["labels"][i],
             **{result["labels"][j]: int(result["matrix"][i, j]) for j in used}} for i in used]


def _label(outcome, subtype, level) -> str:
    return outcome if level == "outcome" or subtype is None else f"{outcome}/{subtype}"


@click.command("audit")
@click.argument("verdicts", type=click.Path(dir_okay=False))
@click.argument("judge_file", metavar="JUDGE.jsonl", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "md", "json"]), default="text",
              show_default=True)
def audit(verdicts, judge_file, fmt):
    """Agreement between the rules and a judge on rows the rules decided: share agreeing,
    Cohen's kappa and the confusion matrix, per outcome and per outcome/subtype.

    Example: score audit verdicts.parquet data/examples/judge_answers.jsonl --format md
    """
    with bad_input_exits(verdicts):
        table = read_verdicts(verdicts)
        answers, problems = _read_answers_or_exit(judge_file)
    by_rules = pc.equal(_decided_by(table), RULES)
    index = _row_index(table, answers)
    outcome, subtype = table.column("outcome").to_pylist(), table.column("subtype").to_pylist()
    rules_rows = pc.fill_null(by_rules, False).to_pylist()
    pairs, skipped = [], 0
    for line, answer in answers:
        row, problem = _answered_row(index, answer)
        if problem:
            problems.append((line, problem))
        elif not rules_rows[row]:
            skipped += 1
        else:
            pairs.append(((outcome[row], subtype[row]), (answer["outcome"], answer["subtype"])))
    _report(judge_file, sorted(problems))
    results = {
        level: agreement([(_label(*r, level), _label(*j, level)) for r, j in pairs], _label_order(level))
        for level in ("outcome", "subtype")
    }
    if fmt == "json":
        payload = {level: {"n": r["n"], "agreement": r["agreement"], "kappa": r["kappa"],
                           "confusion": _matrix_rows(r)} for level, r in results.items()}
        payload["not_decided_by_rules"] = skipped
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=True))
        return
    out = []
    for level, result in results.items():
        def show(value):
            return "–" if value is None else f"{value:.3f}"
        out.append(f"{'outcome' if level == 'outcome' else 'outcome/subtype'}: "
                   f"{result['n']} row(s), agreement {show(result['agreement'])}, "
                   f"Cohen's kappa {show(result['kappa'])}\n")
        if result["n"]:
            out.append(render(_matrix_rows(result), fmt, labels=False))
        out.append("\n")
    out.append(f"{skipped} judged row(s) not decided by the rules were left out\n")
    click.echo("".join(out), nl=False)
