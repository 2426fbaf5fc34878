import pyarrow as pa
import pytest
from verdict_builder import verdict, verdict_table

from scorer.aggregate import METRICS, Tally, metrics_of


def sample_rows():
    """Model a: 6 positives, 4 negatives, one of everything worth counting."""
    return [
        verdict(1, model="a", difficulty="easy"),
        verdict(2, model="a", difficulty="easy"),
        verdict(3, "miss_recall", "no_call", model="a", difficulty="hard", missing=True),
        verdict(4, "param_error", "temporal", model="a", difficulty="hard", decided=False),
        verdict(5, "param_error", "incorrect_value", model="a", difficulty="hard"),
        verdict(6, "over_recall", "extra_call", model="a", difficulty="easy"),
        verdict(7, model="a", positive=False, difficulty="easy"),
        verdict(8, model="a", positive=False, difficulty="hard"),
        verdict(9, "over_recall", "no_tool", model="a", positive=False, difficulty="hard"),
        verdict(10, "over_recall", "other_tool", model="a", positive=False, difficulty=None),
        verdict(1, model="b", difficulty="easy"),
    ]


def rows_by_group(tally):
    return {(row["model"], row["group"]): row for row in tally.rows()}


def test_metric_definitions_on_a_hand_counted_model():
    tally = Tally()
    tally.add(verdict_table(sample_rows()))
    row = rows_by_group(tally)[("a", "all")]
    assert (row["n"], row["P"], row["N"]) == (10, 6, 4)
    assert row["recall"] == 2 / 6
    assert row["accuracy"] == 4 / 10
    assert row["miss_recall"] == 1 / 6
    assert row["param_error"] == 2 / 6
    assert row["over_recall"] == 2 / 4          # over negatives only
    assert row["extra_call"] == 1 / 6           # over positives, apart from over_recall
    assert row["param_error/temporal"] == 1 / 6
    assert row["over_recall/no_tool"] == 1 / 4
    assert row["over_recall/beyond_capability"] == 0.0
    assert row["over_recall/no_tool_n"] == 1
    assert row["param_error_n"] == 2
    assert row["decided"] == 9 / 10
    assert row["undecided_n"] == 1
    assert row["missing_n"] == 1


def test_zero_denominator_is_none_not_an_error():
    tally = Tally()
    tally.add(verdict_table(sample_rows()))
    only_positive = rows_by_group(tally)[("b", "all")]
    assert only_positive["N"] == 0
    assert only_positive["over_recall"] is None
    assert only_positive["over_recall/no_tool"] is None
    assert only_positive["recall"] == 1.0


def test_groups_per_model_all_first_then_sorted_values_with_null_first():
    tally = Tally(by=("difficulty",))
    tally.add(verdict_table(sample_rows()))
    assert [(r["model"], r["group"]) for r in tally.rows()] == [
        ("a", "all"), ("a", "difficulty=null"), ("a", "difficulty=easy"),
        ("a", "difficulty=hard"), ("b", "all"), ("b", "difficulty=easy"),
    ]
    hard = rows_by_group(tally)[("a", "difficulty=hard")]
    assert (hard["n"], hard["P"], hard["N"]) == (5, 3, 2)


def test_crossed_grouping_and_separate_groupings():
    rows = [verdict(i, difficulty=d, domain=m) for i, (d, m) in
            enumerate([("easy", "x"), ("easy", "y"), ("hard", "x")])]
    crossed = Tally(by=(("difficulty", "domain"),))
    crossed.add(verdict_table(rows))
    assert [r["group"] for r in crossed.rows()] == [
        "all", "difficulty=easy, domain=x", "difficulty=easy, domain=y",
        "difficulty=hard, domain=x"]
    separate = Tally(by=("difficulty", "domain"))
    separate.add(verdict_table(rows))
    assert [r["group"] for r in separate.rows()] == [
        "all", "difficulty=easy", "difficulty=hard", "domain=x", "domain=y"]


def test_merging_batch_tallies_equals_one_tally_and_is_associative():
    table = verdict_table(sample_rows())
    whole = Tally(by=("difficulty",))
    whole.add(table)
    parts = []
    for batch in table.to_batches(max_chunksize=3):
        part = Tally(by=("difficulty",))
        part.add(batch)
        parts.append(part)
    assert len(parts) == 4
    left = parts[0].merge(parts[1]).merge(parts[2]).merge(parts[3])
    right = parts[0].merge(parts[1].merge(parts[2].merge(parts[3])))
    assert left.rows() == whole.rows() == right.rows()
    assert parts[3].merge(parts[0]).merge(parts[2]).merge(parts[1]).rows() == whole.rows()


def test_merge_refuses_different_groupings():
    with pytest.raises(ValueError, match="grouped differently"):
        Tally(by=("difficulty",)).merge(Tally())


def test_add_names_missing_columns_and_accepts_empty_tables():
    tally = Tally(by=("domain",))
    with pytest.raises(ValueError, match="domain"):
        tally.add(verdict_table([verdict(1)]))
    empty = verdict_table([verdict(1, domain="x")]).slice(0, 0)
    tally.add(empty)
    assert tally.rows() == []


def test_outcome_outside_taxonomy_names_the_row():
    table = verdict_table([verdict(1), verdict(2, "param_error", "no_call")])
    with pytest.raises(ValueError, match=r"row 2 \(id 2\).*param_error/no_call"):
        Tally().add(table)


def test_null_decided_counts_as_undecided():
    table = verdict_table([verdict(1, decided=None)])
    tally = Tally()
    tally.add(table)
    assert tally.rows()[0]["decided"] == 0.0


def test_every_subtype_has_a_share_and_a_count():
    names = {metric.name for metric in METRICS}
    for name in ("miss_recall/no_call", "miss_recall/malformed", "param_error/missing_arg",
                 "over_recall/beyond_capability", "over_recall/unspecified",
                 "over_recall/extra_call"):
        assert name in names and f"{name}_n" in names


def test_metrics_of_an_empty_counter():
    values = metrics_of({})
    assert values["n"] == 0 and values["recall"] is None and values["accuracy"] is None


def test_record_batch_and_table_give_the_same_rows():
    table = verdict_table(sample_rows())
    from_table, from_batch = Tally(), Tally()
    from_table.add(table)
    from_batch.add(pa.RecordBatch.from_pylist(table.to_pylist(), schema=table.schema))
    assert from_table.rows() == from_batch.rows()
