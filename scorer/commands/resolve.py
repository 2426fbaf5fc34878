"""`score resolve`: show what a temporal value resolves to, for one text or a JSONL file of
cases. It is how a user debugs a temporal verdict and how rules are checked in bulk."""

import datetime as dt
import json
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click

from scorer.commands import common
from scorer.load import json_lines
from scorer.outputs import check_outputs, written_atomically
from scorer.temporal import resolve


def _zone(name: str):
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise click.UsageError(f"--timezone {name!r} is not a known IANA timezone") from exc


def _reference(text: str, zone, source: str) -> dt.datetime:
    """An ISO reference time; one without an offset is read in `zone`."""
    try:
        moment = dt.datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{source} {text!r} is not an ISO 8601 date-time") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def _record(text: str, reference: dt.datetime) -> dict:
    iv = resolve(text, reference)
    if iv is None:
        return {"text": text, "start": None, "end": None, "granularity": None, "rule": None}
    return {"text": text, "start": iv.start.isoformat(), "end": iv.end.isoformat(),
            "granularity": iv.granularity, "rule": iv.rule}


def _file_records(path: str, default_reference, zone):
    """One output record per input line, in order; a bad line gets an `error` and the rest go on."""
    for number, row, problem in json_lines(path):
        try:
            if problem is not None:
                raise ValueError(problem)
            if not isinstance(row, dict) or not isinstance(row.get("text"), str):
                raise ValueError('expected a JSON object with a string "text"')
            if row.get("reference_time"):
                reference = _reference(row["reference_time"], zone, "reference_time")
            elif default_reference is not None:
                reference = default_reference
            else:
                raise ValueError("no reference_time on the line and no --reference-time given")
            yield _record(row["text"], reference)
        except ValueError as exc:
            yield {"line": number, "text": row.get("text") if isinstance(row, dict) else None,
                   "start": None, "end": None, "granularity": None, "rule": None, "error": str(exc)}


@click.command("resolve")
@click.argument("text", required=False)
@click.option("--reference-time", "reference_time", help="ISO 8601 moment that relative values refer to.")
@click.option("--timezone", "timezone", default="Asia/Shanghai", show_default=True,
              help="Timezone of reference times given without an offset.")
@click.option("--file", "cases", type=click.Path(exists=True, dir_okay=False),
              help='JSONL of {"text", "reference_time", ...}; one JSON result line per input line.')
@click.option("--out", "out", type=click.Path(dir_okay=False, writable=True), help="Write results here, not stdout.")
@common.rules_option
@common.policy_option
def resolve_command(text, reference_time, timezone, cases, out):
    """Resolve TEXT (or every line of --file) to an interval [start, end) with its granularity.

    Example: score resolve 下周二下午 --reference-time 2026-03-04T10:00:00+08:00
    """
    zone = _zone(timezone)
    if (text is None) == (cases is None):
        raise click.UsageError("give either TEXT or --file, not both and not neither")
    reference = None
    if reference_time:
        try:
            reference = _reference(reference_time, zone, "--reference-time")
        except ValueError as exc:
            raise click.UsageError(str(exc)) from exc
    if text is not None:
        if reference is None:
            raise click.UsageError("TEXT needs --reference-time")
        if out:
            raise click.UsageError("--out applies to --file only")
        record = _record(text, reference)
        if record["start"] is None:
            click.echo(f"{text!r}: not temporal")
        else:
            for key in ("start", "end", "granularity", "rule"):
                click.echo(f"{key}: {record[key]}")
        return
    lines = (json.dumps(record, ensure_ascii=False) for record in _file_records(cases, reference, zone))
    if out:
        check_outputs([cases], [("--out", out, None)])
        with written_atomically(out) as handle:
            for line in lines:
                handle.write((line + "\n").encode("utf-8"))
    else:
        for line in lines:
            click.echo(line)
