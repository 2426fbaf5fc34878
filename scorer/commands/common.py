"""Option bundles shared by commands: one flag, one help text everywhere (sqlite-utils' habit)."""

import click

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def time_options(command):
    command = click.option("--timezone", default="Asia/Shanghai", show_default=True,
                           help="Timezone of reference times and of resolved dates.")(command)
    return click.option("--reference-time", metavar="ISO",
                        help="Reference time for gold rows without one (ISO 8601 with offset).")(command)
