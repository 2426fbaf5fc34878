import click

from scorer.commands import common


@click.command("rules", context_settings=common.CONTEXT_SETTINGS)
@click.option("--rules", "rules_path", type=click.Path(file_okay=False, exists=True),
              help="A rules directory of your own (default: the one callscore ships).")
def rules_command(rules_path):
    """List the rule files scoring uses: path, version, content hash; then the hash of the
    whole set, which every verdict file records.

    Example: score rules
    """
    from scorer.rules import rule_files, rules_dir, rules_hash

    root = rules_dir(rules_path)
    for path, version, digest in rule_files(root):
        click.echo(f"{path}\tversion {version or '?'}\t{digest}")
    click.echo(f"rules {root}: {rules_hash(rules_path)}")
