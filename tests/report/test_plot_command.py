import sys

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from verdict_builder import verdict, verdict_table

from scorer.aggregate import Tally
from scorer.commands.plot import accuracy_by, plot, temporal_slips


def temporal_error(slip=None):
    detail = "date: gold 2026-03-10, predicted 2026-03-11" + (f" (slip: {slip})" if slip else "")
    error = {"call": 0, "argument": "date", "kind": "temporal", "gold": "2026-03-10",
             "predicted": "2026-03-11"}
    return {"detail": detail, "errors": [error, dict(error, kind="incorrect_value")]}


def rows():
    return [
        verdict(1, model="a", difficulty="hard"),
        verdict(2, "param_error", "temporal", model="a", difficulty="easy",
                **temporal_error("off_by_one_day")),
        verdict(3, "param_error", "temporal", model="a", difficulty="medium",
                **temporal_error("off_by_one_day")),
        verdict(4, "param_error", "temporal", model="b", difficulty="easy", **temporal_error()),
        verdict(5, model="b", positive=False, difficulty="expert"),
        verdict(6, "param_error", "incorrect_value", model="b", difficulty="easy",
                errors=[{"call": 0, "argument": "x", "kind": "incorrect_value", "gold": "1",
                         "predicted": "2"}]),
    ]


def test_temporal_slips_counted_once_per_row_from_the_detail():
    assert temporal_slips(verdict_table(rows())) == {
        "a": {"off_by_one_day": 2}, "b": {"unnamed": 1}}
    assert temporal_slips(verdict_table([verdict(1)])) == {}


def test_difficulty_in_natural_order_then_others_sorted():
    tally = Tally(by=("difficulty",))
    tally.add(verdict_table(rows()))
    order, accuracy = accuracy_by(tally, "difficulty")
    assert order == ["easy", "medium", "hard", "expert"]
    assert accuracy["a"]["hard"] == 1.0 and accuracy["b"]["easy"] == 0.0
    assert "medium" not in accuracy["b"]


def test_figures_written_and_byte_identical_on_rerun(tmp_path):
    pytest.importorskip("matplotlib")
    verdicts = tmp_path / "v.parquet"
    pq.write_table(verdict_table(rows()), verdicts)
    outputs = []
    for name in ("one", "two"):
        result = CliRunner().invoke(plot, [str(verdicts), "-o", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        outputs.append(tmp_path / name)
    names = sorted(p.name for p in outputs[0].iterdir())
    assert names == sorted(f"{stem}.{ext}" for stem in
                           ("error_profile", "accuracy_by_difficulty", "temporal_slips")
                           for ext in ("png", "svg", "pdf"))
    for name in names:
        assert (outputs[0] / name).read_bytes() == (outputs[1] / name).read_bytes(), name
    svg = (outputs[0] / "error_profile.svg").read_text()
    assert "<dc:date>" not in svg and "param_error / temporal" in svg


def test_missing_column_and_no_temporal_errors_skip_their_figures(tmp_path):
    pytest.importorskip("matplotlib")
    verdicts = tmp_path / "v.parquet"
    pq.write_table(verdict_table([verdict(1), verdict(2, "miss_recall", "no_call")]), verdicts)
    result = CliRunner().invoke(plot, [str(verdicts), "-o", str(tmp_path / "figs")])
    assert result.exit_code == 0, result.output
    assert "no column 'difficulty'" in result.stderr and "no temporal errors" in result.stderr
    assert sorted(p.name for p in (tmp_path / "figs").iterdir()) == [
        "error_profile.pdf", "error_profile.png", "error_profile.svg"]


def test_without_matplotlib_the_error_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    verdicts = tmp_path / "v.parquet"
    pq.write_table(verdict_table(rows()), verdicts)
    result = CliRunner().invoke(plot, [str(verdicts), "-o", str(tmp_path / "figs")])
    assert result.exit_code == 1
    assert "pip install callscore[plot]" in result.output


def test_empty_verdicts_exit_2(tmp_path):
    pytest.importorskip("matplotlib")
    verdicts = tmp_path / "v.parquet"
    pq.write_table(verdict_table([verdict(1)]).slice(0, 0), verdicts)
    result = CliRunner().invoke(plot, [str(verdicts), "-o", str(tmp_path / "figs")])
    assert result.exit_code == 2 and "no verdict rows to plot" in result.output


def _matplotlib_with_fonts(*names):
    """A stand-in for the matplotlib module whose font manager lists these fonts."""
    from types import SimpleNamespace

    fonts = [SimpleNamespace(name=name) for name in names]
    return SimpleNamespace(font_manager=SimpleNamespace(fontManager=SimpleNamespace(ttflist=fonts)))


def test_a_cjk_font_backs_dejavu_only_when_a_name_needs_one(capsys):
    from scorer.commands.plot import font_families

    installed = _matplotlib_with_fonts("DejaVu Sans", "WenQuanYi Zen Hei", "Noto Sans CJK SC")
    assert font_families(installed, ["qiming-7b", "easy"]) == ["DejaVu Sans"]
    assert font_families(installed, ["启明-7b", "easy"]) == ["DejaVu Sans", "Noto Sans CJK SC"]
    assert capsys.readouterr().err == ""
    assert font_families(_matplotlib_with_fonts("DejaVu Sans"), ["启明-7b"]) == ["DejaVu Sans"]
    assert "no CJK font is installed" in capsys.readouterr().err


def test_slip_kinds_read_as_words():
    from scorer.commands.plot import slip_label

    assert slip_label("off_by_one_day") == "off by one day"
    assert slip_label("inclusive_exclusive_end") == "inclusive vs exclusive end"
    assert slip_label("unnamed") == "not named"


def test_long_model_names_wrap_and_short_ones_stay():
    from scorer.commands.plot import NAME_WIDTH, wrapped

    long = "qwen2.5-72b-instruct-fc-2024-09-19-awq"
    assert "\n" in wrapped(long) and all(len(line) <= NAME_WIDTH for line in wrapped(long).split("\n"))
    assert wrapped("gpt-4o") == "gpt-4o"


def test_models_differ_by_hatch_as_well_as_colour(tmp_path, monkeypatch):
    """Read in grey or by a colour-blind reader, each model's bars still differ: the drawn
    figure is inspected, bar by bar."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colors, ticker

    from scorer.commands import plot as plot_module

    drawn = []
    monkeypatch.setattr(plot_module, "_save", lambda figure, directory, name: drawn.append(figure) or [])
    models = [f"m{index}" for index in range(5)]
    plot_module.draw_accuracy(plt, ticker, ["easy", "hard"], {m: {"easy": 0.5, "hard": 0.25} for m in models},
                              "difficulty", tmp_path)
    (figure,) = drawn
    styles = {}
    for container, model in zip(figure.axes[0].containers, models):
        bars = list(container)
        assert len({(bar.get_hatch(), colors.to_hex(bar.get_facecolor())) for bar in bars}) == 1  # one style per model
        styles[model] = (bars[0].get_hatch() or "", colors.to_hex(bars[0].get_facecolor()))
    assert len({hatch for hatch, _colour in styles.values()}) == len(models)
    assert len({colour for _hatch, colour in styles.values()}) == len(models)
    assert styles["m0"][1] == "#0072b2"    # Okabe-Ito blue first, not matplotlib's default cycle


def test_missing_cjk_glyphs_are_said_once_not_per_glyph(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import warnings

    from scorer.commands import plot as plot_module

    monkeypatch.setattr(plot_module, "font_families", lambda matplotlib, names: ["DejaVu Sans"])
    verdicts = tmp_path / "v.parquet"
    pq.write_table(verdict_table([{**verdict(1), "model": "天枢-13b"}]), verdicts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = CliRunner().invoke(plot, [str(verdicts), "-o", str(tmp_path / "figs")])
    assert result.exit_code == 0, result.output
    assert [w for w in caught if "missing from" in str(w.message)] == []
