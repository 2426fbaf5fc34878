"""Judge answers folded into verdicts, and agreement between the rules and a judge.

`merge_answers` applies answers to the rows the rules left undecided (`score merge-judge`);
`audit_pairs` and `agreement` measure, on rows the rules decided, how often a judge agrees and
Cohen's kappa (`score audit`). Library code: commands import it, never each other."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from scorer import vocab
from scorer.judge import answer_key, check_fits_row, describe, kept_json

RULES, JUDGE = "rules", "judge"
LEVELS = ("outcome", "subtype")


def decided_by(table: pa.Table) -> pa.Array:
    """The existing column, or `rules` for decided rows and null for undecided ones."""
    if "decided_by" in table.column_names:
        return table.column("decided_by").combine_chunks()
    decided = pc.fill_null(table.column("decided"), False)
    return pc.if_else(decided, pa.scalar(RULES), pa.scalar(None, pa.string())).combine_chunks()


def row_index(table: pa.Table, answers: list) -> dict:
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


def answered_row(index: dict, answer: dict) -> tuple:
    """(row, None) for the one row an answer names, else (None, the problem)."""
    rows = index.get(answer_key(answer), [])
    if len(rows) == 1:
        return rows[0], None
    if not rows:
        return None, f"no verdict for {describe(answer)}"
    return None, (f"{len(rows)} rows have {describe(answer)}: answer with the record's `kept` "
                  "(score --keep COLUMN) to name one")


def merge_answers(table: pa.Table, answers: list) -> tuple[pa.Table, list, int, list]:
    """Apply judge answers to undecided rows. Returns (table, problems, rows merged, lines of
    the answers left alone).

    An answer for a row the rules decided is left alone (it is audit material); an answer for
    an unknown row or one impossible for its row is a problem and its row stays undecided."""
    index = row_index(table, answers)
    positive = table.column("positive").to_pylist()
    decided = pc.fill_null(table.column("decided"), False).to_pylist()
    problems, updates, left_alone = [], {}, []
    for line, answer in answers:
        row, problem = answered_row(index, answer)
        if problem:
            problems.append((line, problem))
            continue
        if decided[row]:
            left_alone.append(line)
            continue
        try:
            check_fits_row(answer, bool(positive[row]))
        except ValueError as error:
            problems.append((line, str(error)))
            continue
        updates[row] = answer
    columns = {name: table.column(name).combine_chunks() for name in table.column_names}
    columns["decided_by"] = decided_by(table)
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
    return merged, problems, len(rows), left_alone


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


def label_order(level: str) -> list:
    if level == "outcome":
        return list(vocab.OUTCOMES)
    return [vocab.CORRECT] + [f"{o}/{s}" for o in vocab.OUTCOMES[1:] for s in vocab.SUBTYPES[o]]


def label_of(outcome, subtype, level) -> str:
    return outcome if level == "outcome" or subtype is None else f"{outcome}/{subtype}"


def audit_pairs(table: pa.Table, answers: list) -> tuple[list, list, int]:
    """((rules (outcome, subtype), judge (outcome, subtype)) per answered row the rules
    decided, problems as (line, reason), answered rows not decided by the rules)."""
    by_rules = pc.fill_null(pc.equal(decided_by(table), RULES), False).to_pylist()
    index = row_index(table, answers)
    outcome, subtype = table.column("outcome").to_pylist(), table.column("subtype").to_pylist()
    pairs, problems, skipped = [], [], 0
    for line, answer in answers:
        row, problem = answered_row(index, answer)
        if problem:
            problems.append((line, problem))
        elif not by_rules[row]:
            skipped += 1
        else:
            pairs.append(((outcome[row], subtype[row]), (answer["outcome"], answer["subtype"])))
    return pairs, problems, skipped


def agreement_by_level(pairs: list) -> dict:
    """`agreement` of the pairs from `audit_pairs` per level: outcome, and outcome/subtype."""
    return {level: agreement([(label_of(*r, level), label_of(*j, level)) for r, j in pairs], label_order(level))
            for level in LEVELS}
