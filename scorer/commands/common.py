"""Option bundles shared by commands: one flag, one help text everywhere (sqlite-utils' habit)."""

import os

import click

from scorer.rules import check_rules

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


def gold_format_option(command):
    return click.option("--gold-format", type=click.Choice(["auto", "callscore", "bfcl", "acebench"]), default="auto",
                        show_default=True, help="Format of GOLD; auto detects it where unambiguous.")(command)
