"""The `score` command: a thin layer over scorer.pipeline. `score PREDICTIONS GOLD` scores
(the hidden default command); subcommands sit beside it (`score resolve`, `score table`, ...).
"""

import os
import signal
import sys

import click

from scorer import __version__
from scorer.commands.common import CONTEXT_SETTINGS, BadInputError, FiniteRange, capped_jobs, gold_format_option, \
    jobs_option, policy_option, rules_option, summary_option, time_options
from scorer.commands.dialogue import dialogue_command
from scorer.commands.judge import audit, merge_judge
from scorer.commands.lint import lint_command
from scorer.commands.plot import plot
from scorer.commands.resolve import resolve_command
from scorer.commands.rules import rules_command
from scorer.commands.table import table
from scorer.compat import bfcl_models
from scorer.errors import InputError
from scorer.progress import Progress

DEFAULT_COMMAND = "run"


class DefaultGroup(click.Group):
    """A group whose default command runs when the first argument names no subcommand, so
    `score p.parquet g.parquet` and `score --out v.parquet p g` both score."""

    def parse_args(self, ctx, args):
        group_options = {"-h", "--help", "--version"}
        if args and args[0] not in self.commands and args[0] not in group_options:
            args = [DEFAULT_COMMAND, *args]
        elif not args:
            args = ["--help"]
        return super().parse_args(ctx, args)

    def format_help(self, ctx, formatter):
        """`score --help` is first the scoring command's own usage and options (what a user
        came for), then the subcommands."""
        run = self.commands[DEFAULT_COMMAND]
        run_ctx = click.Context(run, info_name=ctx.info_name, parent=None)
        run.format_usage(run_ctx, formatter)
        run.format_help_text(run_ctx, formatter)
        run.format_options(run_ctx, formatter)
        self.format_commands(ctx, formatter)
        with formatter.section("Other"):
            formatter.write_dl([("--version", "Show the version and exit."),
                                ("score COMMAND --help", "Help for a subcommand.")])

    def invoke(self, ctx):
        """Bad input exits 2 with its message; Ctrl-C exits 130 as shells expect (128 + SIGINT),
        not 1 with click's `Aborted!`; writers have removed their partial files by then."""
        try:
            return super().invoke(ctx)
        except InputError as error:
            raise BadInputError(str(error)) from None
        except KeyboardInterrupt:
            raise SystemExit(128 + signal.SIGINT) from None


class ScoringContext(click.Context):
    """The scoring command's context is named as the user typed it: `score`, never the hidden
    `score run`, in usage errors and their `Try ... -h` hint."""

    @property
    def command_path(self):
        return self.parent.command_path if self.parent is not None else super().command_path


class ScoringCommand(click.Command):
    context_class = ScoringContext


@click.group(cls=DefaultGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="callscore")
def cli():
    """callscore: judge-free scoring of LLM function calls.

    \b
    score PREDICTIONS GOLD [options]     score predictions, print the summary
    score COMMAND --help                 help for a subcommand

    Example: score data/examples/predictions.parquet data/examples/gold.parquet
    """


@cli.command(DEFAULT_COMMAND, hidden=True, context_settings=CONTEXT_SETTINGS, cls=ScoringCommand)
@click.argument("predictions", nargs=-1, required=True, type=click.Path())
@click.argument("gold", type=click.Path(dir_okay=False))
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write verdicts (.parquet or .jsonl).")
@summary_option
@click.option("--undecided", "undecided_path", type=click.Path(dir_okay=False),
              help="Write one judge-ready record per undecided row (.jsonl), prompt included.")
@gold_format_option
@click.option("--pred-format", default="auto", show_default=True, metavar="FORMAT",
              help="Format of PREDICTIONS: auto, callscore, bfcl, acebench, evalscope, openai, responses, "
                   "anthropic, gemini, qwen or provider (detected per record).")
@click.option("--renamed-dots", is_flag=True,
              help="BFCL results of an API that forbids dots in function names: read math_factorial "
                   "as the declared math.factorial (--compat bfcl takes BFCL's own setting per model; "
                   "this overrides it).")
@click.option("--compat", type=click.Choice(["callscore", "bfcl"] + [f"bfcl@{v}" for v in bfcl_models.releases()]),
              default="callscore", show_default=True,
              help="bfcl: BFCL's AST-checker verdicts (the decoder of BFCL's handler for each model, its "
                   "renamed dots per model, Java/JavaScript converters, string and type rules) instead of "
                   "callscore's rules, to reproduce BFCL numbers; of the version a BFCL gold file's name "
                   "tells (v1 files: 2024-08), else the latest. bfcl@VERSION: that version's.")
@click.option("--keep", multiple=True, metavar="COLUMN",
              help="Carry a PREDICTIONS column into the verdicts and judge records, e.g. a sample index "
                   "(repeatable).")
@click.option("--on-duplicate", type=click.Choice(["keep", "first", "last", "error"]), default="keep",
              show_default=True,
              help="Several predictions for one (model, id) and no sample column kept: score them all "
                   "(with a note), only the first or the last, or stop.")
@click.option("--by", multiple=True, metavar="COLUMN",
              help="Also summarize per value of a gold column or a kept column (repeatable).")
@time_options
@click.option("--temporal-format", type=click.Choice(["lenient", "strict"]), default="lenient", show_default=True,
              help="strict: a raw relative expression (下周二) where a date is expected is a temporal error.")
@click.option("--range-end", type=click.Choice(["inclusive", "exclusive"]),
              help="The tools' end-of-range convention when schemas do not declare it (x-inclusive-end); "
                   "then an end given in the other convention is accepted.")
@click.option("--fuzzy-high", type=FiniteRange(0, 100), default=90.0, show_default=True,
              help="Free-text similarity (0-100) at or above which values are equal.")
@click.option("--fuzzy-low", type=FiniteRange(0, 100), default=60.0, show_default=True,
              help="Similarity below which values differ; in between the row is left undecided.")
@click.option("--batch-size", type=click.IntRange(1), default=65536, show_default=True, help="Rows per batch.")
@jobs_option
@click.option("--precision", type=click.IntRange(0, 6), default=1, show_default=True, help="Decimals of percentages.")
@click.option("--engine", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="ray: score on Ray Data ($RAY_ADDRESS, else a local Ray) with --jobs actors; parquet "
                   "PREDICTIONS in, --out a parquet directory (the [ray] extra).")
@rules_option
@policy_option(expose_value=True)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
def run(predictions, gold, out, summary_path, undecided_path, gold_format, pred_format, renamed_dots, compat, keep, on_duplicate, by, reference_time, timezone, temporal_format, range_end,
        fuzzy_high, fuzzy_low, batch_size, jobs, precision, engine, policy, quiet):
    """Score PREDICTIONS against GOLD (.parquet, .jsonl or .json) and print the summary.

    Several prediction files, or a directory of them (BFCL: one result file per model and
    category), are scored in one pass against the gold read once.

    Example: score data/examples/predictions.parquet data/examples/gold.parquet -o verdicts.parquet
    """
    from dataclasses import asdict

    from scorer import api, pipeline, report
    from scorer.options import Options
    from scorer.outputs import check_outputs
    from scorer.without_pandas import without_pandas

    if fuzzy_low > fuzzy_high:
        raise click.BadParameter("--fuzzy-low must not exceed --fuzzy-high", param_hint="--fuzzy-low")
    predictions = pipeline.prediction_files(predictions)  # several files, or a directory of them
    check_outputs([*predictions, gold], [("-o/--out", out, None if engine == "ray" else (".parquet", ".jsonl")),
                                        ("--summary", summary_path, tuple(report.SUMMARY_FORMATS)),
                                        ("--undecided", undecided_path, (".jsonl",))])
    jobs = capped_jobs(jobs, quiet)
    options = Options(reference_time=reference_time, timezone=timezone, temporal_format=temporal_format,
                      range_end=range_end, fuzzy_high=fuzzy_high, fuzzy_low=fuzzy_low,
                      batch_size=batch_size, jobs=jobs, keep=keep, policy=policy, on_duplicate=on_duplicate,
                      compat=None if compat == "callscore" else compat, renamed_dots=renamed_dots)
    if engine == "ray" and (not out or undecided_path or keep or pred_format != "auto"):
        raise click.UsageError("--engine ray needs --out DIRECTORY and takes neither --undecided, --keep "
                               "nor --pred-format")
    try:
        if engine == "ray":
            try:
                from scorer.engines import ray_data
            except ImportError as error:
                raise click.UsageError(f"--engine ray needs the [ray] extra ({error})") from None
            result = ray_data.score_files(predictions, gold, out, options, by, gold_format, actors=jobs, quiet=quiet)
        else:
            with stopped_by_sigterm(), without_pandas(), Progress(enabled=not quiet and sys.stderr.isatty(),
                                                                  total=pipeline.count_rows(predictions)) as progress:
                result = api.Gold.from_file(gold, format=gold_format, **asdict(options)).score_file(
                    predictions, out=out, by=by, undecided=undecided_path, progress=progress.advance,
                    pred_format=pred_format, renamed_dots=renamed_dots)
    except ValueError as error:  # options the loaders reject (an unknown timezone)
        raise BadInputError(str(error)) from None
    rows = result.tally.rows()
    if summary_path:
        try:
            report.write_summary(rows, summary_path, precision=precision)
        except ValueError as error:
            raise BadInputError(str(error)) from None
    if not quiet:
        for note in result.notes():  # a warning is printed as one, not as `note: warning: ...`
            click.echo(note if note.startswith("warning: ") else f"note: {note}", err=True)
        click.echo(report.render(rows, "text", precision=precision, columns=list(report.HEADLINE_COLUMNS)))
        click.echo(f"rules {result.rules_hash} · matcher {result.implementation}", err=True)


for command in (resolve_command, lint_command, rules_command, table, plot, merge_judge, audit, dialogue_command):
    cli.add_command(command)


class stopped_by_sigterm:
    """SIGTERM ends the run like Ctrl-C: the exception unwinds through the pipeline, which
    stops its workers and removes its partial files, and the process exits with status 143."""

    def __enter__(self):
        self.owner = os.getpid()
        self.previous = signal.signal(signal.SIGTERM, self._raise)

    def _raise(self, _signum, _frame):
        if os.getpid() != self.owner:  # a worker forked with this handler, before it set its own:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # die now, never unwind into the caller's code
            os.kill(os.getpid(), signal.SIGTERM)
        raise SystemExit(128 + signal.SIGTERM)

    def __exit__(self, *exc):
        signal.signal(signal.SIGTERM, self.previous)
        return False


def main():
    """Entry point of the `score` script and of `python -m scorer`."""
    cli(prog_name="score")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
