"""`score plot`: the figures of a paper from a verdict file, as PNG and SVG.

matplotlib is an optional extra (`pip install callscore[plot]`), imported only here. Figures are
deterministic: the Agg backend, a fixed SVG hash salt, no date in the metadata, DejaVu Sans
(shipped with matplotlib), a fixed size and dpi. DejaVu Sans has no CJK glyphs: for Chinese
model and group names the first installed CJK font of CJK_FALLBACKS is added behind it (glyph by
glyph fallback), so the same verdicts give the same figures on machines with the same fonts.
"""

from __future__ import annotations

import os
import re
import textwrap
import warnings
from pathlib import Path

import click
import pyarrow as pa
import pyarrow.compute as pc

from scorer import vocab
from scorer.aggregate import Tally
from scorer.commands.common import bad_input_exits
from scorer.verdicts import read_verdicts
from scorer.errors import InputError
from scorer.outputs import check_outputs, written_atomically

SLIP = r"slip: (?P<slip>[^\s,;)]+)"
UNNAMED_SLIP = "unnamed"
DIFFICULTY_ORDER = ("easy", "medium", "hard")
_STYLE = {
    "svg.hashsalt": "callscore",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
CJK_FALLBACKS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
                 "WenQuanYi Micro Hei", "Droid Sans Fallback", "SimHei", "Microsoft YaHei", "PingFang SC",
                 "Heiti SC", "Arial Unicode MS")
_CJK_TEXT = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# Models are told apart by the Okabe-Ito colours (distinct for the common colour-vision
# deficiencies) and, printed in grayscale, by a hatch pattern each.
MODEL_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
MODEL_HATCHES = ("", "///", "...", "xxx", "\\\\\\", "+++", "ooo", "---")
NAME_WIDTH = 18          # model names longer than this wrap onto several lines
SLIP_LABELS = {"inclusive_exclusive_end": "inclusive vs exclusive end", "whole_vs_part": "whole vs part",
               UNNAMED_SLIP: "not named"}
# One colour family per outcome, so a profile reads as "how much of each outcome" first.
_FAMILY = {vocab.CORRECT: "Greens", vocab.MISS_RECALL: "Reds", vocab.PARAM_ERROR: "Oranges",
           vocab.OVER_RECALL: "Purples"}


def _segments() -> list[tuple[str, str | None]]:
    return [(vocab.CORRECT, None)] + [
        (outcome, subtype) for outcome in vocab.OUTCOMES[1:] for subtype in vocab.SUBTYPES[outcome]
    ]


def profile_shares(tally: Tally) -> dict[str, dict[tuple, float]]:
    """model -> {(outcome, subtype): share of all the model's rows}."""
    shares = {}
    for model, grouping, values in tally.keys():
        if grouping:
            continue
        counter = tally.counts[(model, grouping, values)]
        total = sum(counter.values())
        per_segment = {}
        for category, rows in counter.items():
            key = (category[1], category[2])
            per_segment[key] = per_segment.get(key, 0) + rows
        shares[model] = {key: rows / total for key, rows in per_segment.items()}
    return shares


def accuracy_by(tally: Tally, column: str) -> tuple[list, dict[str, dict]]:
    """(column values in display order, model -> {value: accuracy or None})."""
    values, result = set(), {}
    for row_key in tally.keys():
        model, grouping, group_values = row_key
        if grouping != (column,):
            continue
        counter = tally.counts[row_key]
        total = sum(counter.values())
        correct = sum(rows for category, rows in counter.items() if category[1] == vocab.CORRECT)
        values.add(group_values[0])
        result.setdefault(model, {})[group_values[0]] = correct / total if total else None
    known = [v for v in DIFFICULTY_ORDER if v in values]
    rest = sorted((v for v in values if v not in DIFFICULTY_ORDER),
                  key=lambda v: (v is None, str(v)))
    return known + rest, result


def temporal_slips(table: pa.Table) -> dict[str, dict[str, int]]:
    """model -> {slip kind: rows}: rows with a temporal error, the slip read from `detail`
    ("slip: <kind>"; `unnamed` when the detail names none). One count per row."""
    errors = table.column("errors").combine_chunks()
    flat = pc.list_flatten(errors)
    parents = pc.list_parent_indices(errors)
    temporal = pc.fill_null(pc.equal(pc.struct_field(flat, "kind"), vocab.TEMPORAL), False)
    rows = pc.unique(pc.filter(parents, temporal))
    if len(rows) == 0:
        return {}
    picked = table.select(["model", "detail"]).take(rows)
    slips = pc.struct_field(pc.extract_regex(pc.fill_null(picked.column("detail"), ""), SLIP), "slip")
    slips = pc.fill_null(slips, UNNAMED_SLIP)
    counted = pa.table({"model": picked.column("model"), "slip": slips}).group_by(
        ["model", "slip"], use_threads=False).aggregate([([], "count_all")])
    result = {}
    for row in sorted(counted.to_pylist(), key=lambda r: (r["model"], r["slip"])):
        result.setdefault(row["model"], {})[row["slip"]] = row["count_all"]
    return result


def slip_label(kind: str) -> str:
    """A slip kind as a reader says it: off_by_one_day -> off by one day."""
    return SLIP_LABELS.get(kind, kind.replace("_", " "))


def wrapped(name: str) -> str:
    """A long model name on several lines, so that it does not squeeze the plot."""
    return textwrap.fill(str(name), NAME_WIDTH, break_on_hyphens=True, break_long_words=True)


def _model_style(index: int) -> dict:
    return {"color": MODEL_COLOURS[index % len(MODEL_COLOURS)], "hatch": MODEL_HATCHES[index % len(MODEL_HATCHES)],
            "edgecolor": "white", "linewidth": 0.5}


FIGURE_FORMATS = ((".png", {"Software": None}), (".svg", {"Date": None}),
                  (".pdf", {"CreationDate": None, "Producer": None}))


def figure_paths(directory: Path, column: str) -> list[Path]:
    """Every file `score plot` may write, so that they are checked before any is drawn."""
    return [directory / f"{name}{suffix}" for name in ("error_profile", f"accuracy_by_{column}", "temporal_slips")
            for suffix, _metadata in FIGURE_FORMATS]


def _save(figure, directory: Path, name: str) -> list[Path]:
    paths = []
    for suffix, metadata in FIGURE_FORMATS:
        path = directory / f"{name}{suffix}"
        with written_atomically(path) as handle:
            figure.savefig(handle, format=suffix[1:], dpi=150, metadata=metadata)
        paths.append(path)
    return paths


def _percent_axis(axis, ticker) -> None:
    axis.set_major_formatter(ticker.PercentFormatter(xmax=1.0, decimals=0))


def draw_profile(plt, ticker, shares: dict, directory: Path) -> list[Path]:
    models = sorted(shares)
    segments = [s for s in _segments() if any(shares[m].get(s) for m in models)]
    figure, axes = plt.subplots(figsize=(7.5, 2.2 + 0.45 * len(models)), layout="constrained")
    cmap_index = {}
    left = [0.0] * len(models)
    for outcome, subtype in segments:
        family = [s for s in segments if s[0] == outcome]
        position = cmap_index.setdefault(outcome, 0)
        cmap_index[outcome] += 1
        colour = plt.get_cmap(_FAMILY[outcome])(0.75 - 0.45 * position / max(1, len(family) - 1)
                                                if len(family) > 1 else 0.6)
        widths = [shares[m].get((outcome, subtype), 0.0) for m in models]
        label = outcome if subtype is None else f"{outcome} / {subtype}"
        axes.barh([wrapped(m) for m in models], widths, left=left, color=colour, label=label, edgecolor="white",
                  linewidth=0.5)
        left = [a + b for a, b in zip(left, widths)]
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    _percent_axis(axes.xaxis, ticker)
    axes.set_xlabel("share of all rows (%)")
    axes.set_title("Error profile per model (outcome / subtype)")
    figure.legend(loc="outside lower center", ncol=3, frameon=False, fontsize=7)
    paths = _save(figure, directory, "error_profile")
    plt.close(figure)
    return paths


def draw_accuracy(plt, ticker, order: list, accuracy: dict, column: str, directory: Path) -> list[Path]:
    models = sorted(accuracy)
    figure, axes = plt.subplots(figsize=(6.5, 3.2), layout="constrained")
    width = 0.8 / max(1, len(models))
    for index, model in enumerate(models):
        xs = [i + (index - (len(models) - 1) / 2) * width for i in range(len(order))]
        heights = [accuracy[model].get(v) or 0.0 for v in order]
        bars = axes.bar(xs, heights, width=width, label=wrapped(model), **_model_style(index))
        axes.bar_label(bars, labels=[
            "–" if accuracy[model].get(v) is None else f"{100 * accuracy[model][v]:.0f}"
            for v in order], fontsize=7, padding=1)
    axes.set_xticks(range(len(order)), ["null" if v is None else str(v) for v in order])
    axes.set_ylim(0, 1.08)
    _percent_axis(axes.yaxis, ticker)
    axes.set_xlabel(column)
    axes.set_ylabel("accuracy (%)")
    axes.set_title(f"Accuracy by {column}")
    axes.legend(title="model", frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    paths = _save(figure, directory, f"accuracy_by_{column}")
    plt.close(figure)
    return paths


def draw_slips(plt, ticker, slips: dict, directory: Path) -> list[Path]:
    models = sorted(slips)
    kinds = sorted({kind for counts in slips.values() for kind in counts})
    figure, axes = plt.subplots(figsize=(6.5, 1.2 + 0.2 * len(kinds) * max(1, len(models))),
                                layout="constrained")
    height = 0.8 / max(1, len(models))
    for index, model in enumerate(models):
        ys = [i + (index - (len(models) - 1) / 2) * height for i in range(len(kinds))]
        bars = axes.barh(ys, [slips[model].get(k, 0) for k in kinds], height=height, label=wrapped(model),
                         **_model_style(index))
        axes.bar_label(bars, fontsize=7, padding=1)
    axes.set_yticks(range(len(kinds)), [slip_label(kind) for kind in kinds])
    axes.invert_yaxis()
    axes.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    axes.set_xlabel("rows with a temporal error (count)")
    axes.set_title("Temporal slip kinds")
    axes.legend(title="model", frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    paths = _save(figure, directory, "temporal_slips")
    plt.close(figure)
    return paths


def _names_shown(table: pa.Table, column: str | None) -> list[str]:
    """Model names and values of the accuracy column: the texts a figure prints from the data."""
    shown = [table.column("model").unique()]
    if column:
        shown.append(table.column(column).cast(pa.string()).unique())
    return [value for values in shown for value in values.to_pylist() if value]


def font_families(matplotlib, names: list[str]) -> list[str]:
    """DejaVu Sans, then the first installed CJK font when a name needs one (else a note that
    those names will show as boxes)."""
    if not any(_CJK_TEXT.search(name) for name in names):
        return ["DejaVu Sans"]
    installed = {font.name for font in matplotlib.font_manager.fontManager.ttflist}
    found = next((family for family in CJK_FALLBACKS if family in installed), None)
    if found is None:
        click.echo("model or group names hold CJK characters and no CJK font is installed "
                   f"(one of: {', '.join(CJK_FALLBACKS[:4])}, ...): they will show as boxes", err=True)
        return ["DejaVu Sans"]
    return ["DejaVu Sans", found]


def _check_creatable(directory: Path) -> None:
    """The figures' directory, or the nearest one above it that exists, is a writable
    directory: checked before the verdicts are read."""
    existing = next(path for path in (directory, *directory.parents) if path.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(directory, f"-o/--output: {str(existing)!r} is not a writable directory")


@click.command("plot")
@click.argument("verdicts", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "directory", required=True, type=click.Path(file_okay=False),
              help="Directory for the figures (created if absent).")
@click.option("--by", "column", default="difficulty", show_default=True,
              help="Column of the accuracy figure.")
def plot(verdicts, directory, column):
    """Figures as PNG, SVG and PDF: error profile per model, accuracy by difficulty per model,
    and the kinds of temporal slips.

    Example: score plot verdicts.parquet -o figures/
    """
    try:
        import matplotlib
    except ImportError as error:
        raise click.ClickException(
            "score plot needs matplotlib: pip install callscore[plot]") from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    out = Path(directory)
    _check_creatable(out)
    with bad_input_exits(verdicts):
        table = read_verdicts(verdicts)
        if table.num_rows == 0:
            raise InputError(verdicts, "no verdict rows to plot")
        has_column = column in table.column_names
        tally = Tally(by=(column,) if has_column else ())
        tally.add(table)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(out, f"-o/--output: cannot create the directory ({error.strerror or error})") from None
    check_outputs([verdicts], [("-o/--output", path, None) for path in figure_paths(out, column)])
    written = []
    style = {**_STYLE, "font.family": font_families(matplotlib, _names_shown(table, column if has_column else None))}
    with matplotlib.rc_context(style), warnings.catch_warnings():
        # a missing CJK glyph was said once above (font_families); matplotlib would repeat it per glyph
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from", category=UserWarning)
        written += draw_profile(plt, ticker, profile_shares(tally), out)
        if has_column:
            order, accuracy = accuracy_by(tally, column)
            written += draw_accuracy(plt, ticker, order, accuracy, column, out)
        else:
            click.echo(f"no column {column!r} in {verdicts}: accuracy figure skipped", err=True)
        slips = temporal_slips(table) if "errors" in table.column_names else {}
        if slips:
            written += draw_slips(plt, ticker, slips, out)
        else:
            click.echo("no temporal errors: temporal slip figure skipped", err=True)
    for path in written:
        click.echo(str(path))
