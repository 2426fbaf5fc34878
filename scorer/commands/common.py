"""Option bundles shared by commands: one flag, one help text everywhere (sqlite-utils' habit);
and the one mapping of bad input to exit status 2."""

import contextlib
import json
import math
import os

import click

from scorer.rules import check_rules
from scorer.errors import InputError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def time_options(command):
    command = click.option("--timezone", default="Asia/Shanghai", show_default=True,
                           help="Timezone of reference times and of resolved dates.")(command)
    return click.option("--reference-time", metavar="ISO",
                        help="Reference time for gold rows without one (ISO 8601 with offset).")(command)


def _use_rules(_ctx, _param, value):
    """Every rule family finds its directory through $CALLSCORE_RULES when it is first read, so
    naming it while the command line is parsed is enough: one process, one rules set."""
    if value:
        os.environ["CALLSCORE_RULES"] = value
    check_rules(os.environ.get("CALLSCORE_RULES"))  # a broken rule file: exit 2 naming file and line
    return value


def rules_option(command):
    return click.option("--rules", type=click.Path(file_okay=False, exists=True), expose_value=False,
                        callback=_use_rules,
                        help="Use a rules directory of your own (a copy of rules/, edited).")(command)


def _use_policy(ctx, param, values):
    """Temporal policies are process-wide like the rules directory (workers inherit them) while
    the command runs; the previous ones are back when it ends, so that a command run in-process
    (tests, a notebook) leaves no policy to the code and child processes that come after it."""
    from scorer.temporal.policy import POLICY_ENV, use_policy

    previous = os.environ.get(POLICY_ENV)
    try:
        use_policy(values)
    except ValueError as error:
        raise click.BadParameter(str(error), param=param) from None
    ctx.call_on_close(lambda: use_policy(json.loads(previous) if previous else ()))
    return tuple(values)


def policy_option(command=None, *, expose_value=False):
    if command is None:
        return lambda decorated: policy_option(decorated, expose_value=expose_value)
    return click.option("--policy", "policy", multiple=True, metavar="NAME=VALUE", callback=_use_policy,
                        expose_value=expose_value,
                        help="Override a temporal policy (repeatable), e.g. --policy bare_weekday=nearest "
                             "--policy part_of_day.早上=6-10; `score rules --policies` lists them.")(command)


class FiniteRange(click.FloatRange):
    """click.FloatRange that also refuses nan, which compares false with both bounds and so
    slips through them."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number.", param, ctx)
        return number


class BadInputError(click.ClickException):
    """Bad input file: the message names file, line and field; exit status 2."""

    exit_code = 2


@contextlib.contextmanager
def bad_input_exits(path=None):
    """Turn InputError (and ValueError about `path`) into exit status 2 with the message."""
    try:
        yield
    except InputError as error:
        raise BadInputError(str(error)) from error
    except ValueError as error:
        if path is None:
            raise
        raise BadInputError(f"{path}: {error}") from error


def jobs_option(command):
    return click.option("-j", "--jobs", type=click.IntRange(1), default=os.cpu_count() or 1, show_default="all cores",
                        help="Processes scoring in parallel; results are identical to --jobs 1.")(command)


def capped_jobs(jobs: int, quiet: bool) -> int:
    """--jobs at most the machine's cores: more processes than cores only add start-up and memory."""
    cores = os.cpu_count() or 1
    if jobs > cores:
        if not quiet:
            click.echo(f"note: --jobs {jobs} capped to the {cores} core(s) of this machine", err=True)
        return cores
    return jobs


def summary_option(command):
    return click.option("--summary", "summary_path", type=click.Path(dir_okay=False),
                        help="Write the summary (.json, .csv or .md).")(command)


def gold_format_option(command):
    return click.option("--gold-format", type=click.Choice(["auto", "callscore", "bfcl", "acebench"]), default="auto",
                        show_default=True, help="Format of GOLD; auto detects it where unambiguous.")(command)
