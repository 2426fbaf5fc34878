import click

from scorer.commands import common


@click.command("lint", context_settings=common.CONTEXT_SETTINGS)
@click.argument("gold", type=click.Path(dir_okay=False))
@common.gold_format_option
@common.time_options
@common.rules_option
@common.policy_option
def lint_command(gold, gold_format, reference_time, timezone):
    """Check a gold file before scoring against it; exit 1 when anything is found.

    Checks: tools named but not offered, arguments the schema does not define or of the
    wrong type, required arguments missing, temporal values that do not resolve, duplicate
    or conflicting instances (same query), negatives without negative_type; then scores the
    gold against itself, which must be 100 % correct.

    Example: score lint data/examples/gold.jsonl
    """
    from scorer.lint import lint, self_score
    from scorer.options import Options
    from scorer.pipeline import read_gold

    options = Options(reference_time=reference_time, timezone=timezone)
    table = read_gold(gold, gold_format)
    findings = lint(table, gold, options)
    for number, identifier, field, message in findings:
        click.echo(f"{gold} row {number} (id {identifier}), field {field}: {message}")
    failures = self_score(table, options)
    for identifier, outcome, subtype, detail in failures:
        click.echo(f"{gold} id {identifier}: gold scored against itself is {outcome}"
                   f"{'/' + subtype if subtype else ''} ({detail})")
    click.echo(f"{table.num_rows} rows, {len(findings)} finding(s); gold against itself: "
               f"{table.num_rows - len(failures)}/{table.num_rows} correct", err=True)
    if findings or failures:
        raise SystemExit(1)
