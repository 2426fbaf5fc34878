"""`score dialogue`: multi-turn dialogues scored turn by turn, then as wholes (scorer/dialogue.py),
and agent trajectories by end state and milestones (scorer/agent.py)."""


import click

from scorer.commands.common import (
    CONTEXT_SETTINGS, capped_jobs, jobs_option, rules_option, summary_option, time_options,
)
from scorer.errors import InputError


def _bounds(_ctx, _param, value):
    from scorer.dialogue import parse_bounds

    try:
        return parse_bounds(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


@click.command("dialogue", context_settings=CONTEXT_SETTINGS)
@click.argument("predictions", type=click.Path(dir_okay=False))
@click.argument("gold", type=click.Path(dir_okay=False))
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write turn verdicts (.parquet or .jsonl).")
@click.option("--dialogues", "dialogues_path", type=click.Path(dir_okay=False),
              help="Write one verdict per dialogue (.parquet or .jsonl); `score table`/`plot` read it.")
@summary_option
@click.option("--undecided", "undecided_path", type=click.Path(dir_okay=False),
              help="Write judge-ready records of the turns the rules left undecided (.jsonl), as `score` does.")
@click.option("--gold-format", type=click.Choice(["auto", "callscore", "acebench"]), default="auto",
              show_default=True, help="Format of GOLD (acebench: multi-turn or agent data files).")
@click.option("--pred-format", default="auto", show_default=True, metavar="FORMAT",
              help="Format of PREDICTIONS when they are turn rows (as `score --pred-format`).")
@click.option("--buckets", default="5,10,20,40", show_default=True, callback=_bounds,
              help="Upper bounds of the dialogue-length buckets (1–5, 6–10, 11–20, 21–40, >40).")
@click.option("--keep", multiple=True, metavar="COLUMN",
              help="Carry a PREDICTIONS column into the verdicts; the first one names the sample of "
                   "repeated runs, over which pass^k and pass@k are reported.")
@click.option("--on-duplicate", type=click.Choice(["keep", "first", "last", "error"]), default="keep",
              show_default=True,
              help="Several rows for one (model, turn id) or (model, agent task) and no sample column kept: "
                   "score them all (with a note), only the first or the last, or stop.")
@time_options
@jobs_option
@click.option("--precision", type=click.IntRange(0, 6), default=1, show_default=True, help="Decimals of percentages.")
@rules_option
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
def dialogue_command(predictions, gold, out, dialogues_path, summary_path, undecided_path, gold_format, pred_format,
                     buckets, keep, on_duplicate, reference_time, timezone, jobs, precision, quiet):
    """Score multi-turn dialogues: a verdict per turn (slot carry-over errors name the turn
    that gave the slot, `carried_from_turn`), a verdict per dialogue (all turns correct,
    process accuracy, first failing turn), accuracy by dialogue length and turn position,
    pass^k / pass@k over samples. ACEBench agent files are scored by end state and milestones;
    BFCL multi-turn files on BFCL's simulators (the `bfcl` extra), BFCL's verdict beside ours.

    Example: score dialogue data/examples/dialogue_predictions.jsonl data/examples/dialogue_gold.jsonl
    """
    from scorer import agent, bfcl_multi_turn, dialogue, load, report
    from scorer.options import Options
    from scorer.outputs import check_outputs
    from scorer.pipeline import metadata
    from scorer.write import VerdictWriter

    check_outputs([predictions, gold], [("-o/--out", out, (".parquet", ".jsonl")),
                                       ("--dialogues", dialogues_path, (".parquet", ".jsonl")),
                                       ("--summary", summary_path, tuple(report.SUMMARY_FORMATS)),
                                       ("--undecided", undecided_path, (".jsonl",))])
    jobs = capped_jobs(jobs, quiet)
    options = Options(reference_time=reference_time, timezone=timezone, jobs=jobs, keep=tuple(keep),
                      on_duplicate=on_duplicate)
    turn_scored = not (bfcl_multi_turn.is_bfcl_multi_turn_gold(gold) or agent.is_agent_gold(gold))
    if undecided_path and not turn_scored:
        raise click.UsageError("--undecided writes undecided dialogue turns; agent and BFCL multi-turn files "
                               "are not scored turn by turn")
    try:
        if bfcl_multi_turn.is_bfcl_multi_turn_gold(gold):
            result = bfcl_multi_turn.score_bfcl_multi_turn(predictions, gold, options, buckets)
        elif agent.is_agent_gold(gold):
            result = agent.score_agent_files(predictions, gold, options)
        else:
            gold_table = dialogue.read_dialogue_gold(gold, gold_format, buckets)
            unreadable = load.Unreadable()
            predicted = dialogue.read_dialogue_predictions(predictions, gold_table, options.keep, pred_format,
                                                           unreadable=unreadable)
            carried = [name for name in ("domain", "category", "language") if name in gold_table.column_names]
            result = dialogue.score_dialogue_tables(predicted, gold_table, options, carried, predictions,
                                                    undecided_path)
            result.notes += [f"prediction line {number} unreadable, skipped: {reason}"
                             for number, reason in unreadable.lines]
    except ValueError as error:
        raise InputError(gold, str(error)) from None
    provenance = {**metadata(options), "callscore.dialogue_buckets": ",".join(map(str, buckets))}
    for path, table in ((out, result.turns), (dialogues_path, result.dialogues)):
        if path and table is not None:
            writer = VerdictWriter(path, provenance)
            writer.write(table.combine_chunks().to_batches()[0] if table.num_rows else table)
            writer.close()
    rows = result.summary(keep[0] if keep else None)
    if summary_path:
        report.write_summary(rows, summary_path, precision=precision)
    if quiet:
        return
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    passes = [row for row in rows if "pass^k" in row]
    click.echo(report.render([row for row in rows if "pass^k" not in row], "text", precision=precision))
    if passes:
        click.echo()
        click.echo(report.render(passes, "text", precision=precision))
