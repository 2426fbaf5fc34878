"""`score merge-judge` folds an LLM judge's answers into the verdicts; `score audit` measures
how well the rules agree with a judge on rows the rules did decide (the logic: scorer.audit)."""

from __future__ import annotations

import json

import click
import pyarrow as pa
import pyarrow.compute as pc

from scorer.audit import agreement_by_level, audit_pairs, merge_answers
from scorer.commands.common import bad_input_exits
from scorer.errors import InputError
from scorer.judge import read_answers
from scorer.outputs import check_outputs
from scorer.report import render
from scorer.verdicts import read_verdicts, write_verdicts


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
    check_outputs([verdicts, judge_file], [("-o/--output", output, (".parquet", ".jsonl"))])
    with bad_input_exits(verdicts):
        table = read_verdicts(verdicts)
        answers, problems = _read_answers_or_exit(judge_file)
    merged, row_problems, count, left_alone = merge_answers(table, answers)
    _report(judge_file, sorted(problems + row_problems))
    with bad_input_exits(output):
        write_verdicts(merged, output)
    left = merged.num_rows - pc.sum(pc.fill_null(merged.column("decided"), False).cast(pa.int64())).as_py()
    if left_alone:
        click.echo(f"note: {len(left_alone):,} answer(s) for rows the rules decided left unused (first: line "
                   f"{left_alone[0]}); `score audit` compares them with the rules", err=True)
    click.echo(f"merged {count:,} judge answer(s); {len(problems) + len(row_problems):,} rejected; "
               f"{left:,} row(s) still undecided")


def _matrix_rows(result: dict) -> list[dict]:
    used = [i for i, _ in enumerate(result["labels"])
            if result["matrix"][i].sum() or result["matrix"][:, i].sum()]
    return [{"rules \\ judge": result["labels"][i],
             **{result["labels"][j]: int(result["matrix"][i, j]) for j in used}} for i in used]


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
    pairs, row_problems, skipped = audit_pairs(table, answers)
    _report(judge_file, sorted(problems + row_problems))
    results = agreement_by_level(pairs)
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
