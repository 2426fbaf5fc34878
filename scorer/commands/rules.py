import click

from scorer.commands import common


@click.command("rules", context_settings=common.CONTEXT_SETTINGS)
@click.option("--rules", "rules_path", type=click.Path(file_okay=False, exists=True),
              help="A rules directory of your own (default: the one callscore ships).")
@click.option("--policies", is_flag=True, help="List the temporal policies: name, value in force, allowed values.")
@common.policy_option
def rules_command(rules_path, policies):
    """List the rule files scoring uses: path, version, content hash; then the hash of the
    whole set (with any --policy overrides), which every verdict file records.

    Example: score rules --policies --policy bare_weekday=nearest
    """
    from scorer.rules import rule_files, rules_dir, rules_hash

    if policies:
        import os

        from scorer.temporal.policy import default_policy

        if rules_path:
            os.environ["CALLSCORE_RULES"] = rules_path
        for name, value, allowed in default_policy().listing():
            click.echo(f"{name}\t{value}\t{' | '.join(allowed)}")
        return
    root = rules_dir(rules_path)
    for path, version, digest in rule_files(root):
        click.echo(f"{path}\tversion {version or '?'}\t{digest}")
    click.echo(f"rules {root}: {rules_hash(rules_path)}")
