import csv
import io
import json

import pytest
from verdict_builder import verdict, verdict_table

from scorer.aggregate import Tally
from scorer.report import HEADLINE_COLUMNS, Estimate, render, write_summary


def summary_rows():
    tally = Tally()
    tally.add(verdict_table([
        verdict(1, model="alpha"), verdict(2, "param_error", "temporal", model="alpha"),
        verdict(3, model="alpha", positive=False),
        verdict(1, model="beta"), verdict(2, model="beta"),
    ]))
    return tally.rows()


COLUMNS = ["model", "group", "n", "recall", "over_recall"]


def test_text_is_aligned_and_shows_percent_and_dash():
    text = render(summary_rows(), "text", columns=COLUMNS)
    lines = text.split("\n")
    assert text.endswith("\n") and "\r" not in text
    assert lines[0].split() == ["model", "group", "n", "Recall", "%", "Over", "Recall", "%"]
    assert lines[2].split() == ["alpha", "all", "3", "50.0", "0.0"]
    assert lines[3].split() == ["beta", "all", "2", "100.0", "–"]
    assert len({len(line) for line in lines[:2]}) == 1    # header padded to the rule


def test_markdown_precision_and_alignment():
    text = render(summary_rows(), "md", precision=2, columns=COLUMNS)
    assert text.splitlines()[1] == "| :--- | :--- | ---: | ---: | ---: |"
    assert "| alpha | all | 3 | 50.00 | 0.00 |" in text


def test_bold_best_per_column_among_models_of_the_same_group():
    text = render(summary_rows(), "md", columns=COLUMNS, bold_best=True)
    assert "| beta | all | 2 | **100.0** | – |" in text
    assert "| alpha | all | 3 | 50.0 | 0.0 |" in text   # a lone value is nobody's best
    plain = render(summary_rows(), "md", columns=COLUMNS)
    assert "**" not in plain


def test_lower_is_better_for_error_shares_and_ties_are_all_bold():
    rows = [{"model": "a", "group": "all", "param_error": 0.25},
            {"model": "b", "group": "all", "param_error": 0.10},
            {"model": "c", "group": "all", "param_error": 0.1000001}]
    text = render(rows, "md", bold_best=True)
    assert "| a | all | 25.0 |" in text
    assert "| b | all | **10.0** |" in text and "| c | all | **10.0** |" in text


def test_latex_is_booktabs_and_escaped():
    text = render(summary_rows(), "latex", columns=COLUMNS, bold_best=True)
    lines = text.splitlines()
    assert lines[:3] == ["\\begin{tabular}{llrrr}", "\\toprule",
                         "model & group & n & Recall \\% & Over Recall \\% \\\\"]
    assert "beta & all & 2 & \\textbf{100.0} & -- \\\\" in lines
    assert lines[-2:] == ["\\bottomrule", "\\end{tabular}"]
    assert "over\\_recall" in render([{"x": "over_recall"}], "latex")


def test_csv_percent_cells_and_estimates_in_three_columns():
    rows = [{"model": "a", "recall": Estimate(0.5, 0.25, 0.75), "n": 4},
            {"model": "b", "recall": Estimate(None, None, None), "n": 0}]
    parsed = list(csv.reader(io.StringIO(render(rows, "csv"))))
    assert parsed == [["model", "recall", "recall_low", "recall_high", "n"],
                      ["a", "50.0", "25.0", "75.0", "4"], ["b", "", "", "", "0"]]


def test_estimate_cell_in_markdown():
    text = render([{"model": "a", "recall": Estimate(0.5, 0.25, 0.75)}], "md")
    assert "| a | 50.0 [25.0, 75.0] |" in text


def test_json_keeps_ratios_sorted_keys_and_null():
    payload = json.loads(render(summary_rows(), "json"))
    assert payload[0]["recall"] == 0.5 and payload[1]["over_recall"] is None
    assert list(payload[0]) == sorted(payload[0])
    thirds = json.loads(render([{"share": 1 / 3}], "json"))
    assert thirds == [{"share": 0.333333}]


def test_unknown_format_is_refused():
    with pytest.raises(ValueError, match="unknown format 'html'"):
        render(summary_rows(), "html")


def test_headline_columns_exist_in_rows():
    assert set(HEADLINE_COLUMNS) <= set(summary_rows()[0])


@pytest.mark.parametrize("suffix", [".json", ".csv", ".md"])
def test_write_summary_by_extension_is_byte_deterministic(tmp_path, suffix):
    first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    write_summary(summary_rows(), first)
    write_summary(summary_rows(), second)
    assert first.read_bytes() == second.read_bytes()
    assert b"\r" not in first.read_bytes() and b"recall" in first.read_bytes()


def test_write_summary_refuses_other_extensions(tmp_path):
    with pytest.raises(ValueError, match=r"unknown summary extension '\.txt'"):
        write_summary(summary_rows(), tmp_path / "s.txt")
    assert not (tmp_path / "s.txt").exists()


def test_no_bold_when_every_model_has_the_same_value():
    rows = [{"model": m, "group": "all", "recall": 0.0} for m in ("a", "b")]
    assert "**" not in render(rows, "md", bold_best=True)


def test_counts_have_thousands_separators_except_in_csv():
    rows = [{"model": "alpha", "group": "all", "n": 1234567, "recall": 0.5, "over_recall": None}]
    assert render(rows, "text", columns=COLUMNS).split("\n")[2].split()[2] == "1,234,567"
    assert "| 1,234,567 |" in render(rows, "md", columns=COLUMNS)
    assert next(csv.DictReader(io.StringIO(render(rows, "csv", columns=COLUMNS))))["n"] == "1234567"
    assert json.loads(render(rows, "json", columns=COLUMNS))[0]["n"] == 1234567


def test_text_columns_align_on_screen_with_chinese_names():
    from scorer.report import display_width

    rows = [{"model": "天枢-13b", "group": "all", "n": 3, "recall": 0.5, "over_recall": None},
            {"model": "alpha", "group": "all", "n": 2, "recall": 1.0, "over_recall": 0.0}]
    lines = render(rows, "text", columns=COLUMNS).rstrip("\n").split("\n")
    # every line's "group" column starts at the same screen column: CJK characters are two wide
    starts = {display_width(line[:line.index("all")]) for line in lines[2:]}
    assert len(starts) == 1
    assert display_width("天枢") == 4 and display_width("ab") == 2
