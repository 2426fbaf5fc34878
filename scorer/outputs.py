"""Output files are checked before any input is read, and written beside their final name
under a name no other run can take, then renamed into place: a run never overwrites one of
its own inputs, never fails on a bad output path after minutes of work, and two runs writing
the same file do not trip over each other (the last to finish wins, atomically)."""

import contextlib
import os
import tempfile
from pathlib import Path

from scorer.errors import InputError


def check_outputs(inputs, outputs) -> None:
    """Refuse (InputError) an output that is one of the inputs (the same path or the same file
    through a link), whose extension is not one its writer knows, or whose directory is missing
    or not writable. `inputs` are paths; `outputs` are (option, path, extensions) with path None
    when the option was not given and extensions None when any name will do (Ray's parquet
    directory, a table's text)."""
    read = {}
    for path in inputs:
        path = Path(path)
        if path.exists():
            read[_identity(path)] = path
    for option, path, extensions in outputs:
        if path is None:
            continue
        path = Path(path)
        if path.exists() and _identity(path) in read:
            raise InputError(path, f"{option} names an input file ({read[_identity(path)]}); "
                             "choose another output path")
        if extensions is not None and path.suffix.lower() not in extensions:
            raise InputError(path, f"{option}: unknown extension {path.suffix or '(none)'!r} "
                             f"(use {', '.join(extensions)})")
        directory = path.parent
        if not directory.is_dir():
            raise InputError(path, f"{option}: directory {str(directory)!r} does not exist")
        if not os.access(directory, os.W_OK | os.X_OK):
            raise InputError(path, f"{option}: directory {str(directory)!r} is not writable")
    finals = [Path(path).resolve() for _option, path, _e in outputs if path is not None]
    if len(finals) != len(set(finals)):
        raise InputError(finals[0], "two output options name the same file")


def _identity(path: Path):
    stat = path.stat()
    return stat.st_dev, stat.st_ino


def open_partial(path):
    """(temporary path, binary handle) of a new file beside `path` that only this run uses."""
    path = Path(path)
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    except OSError as error:  # a directory that a permission check cannot see is read-only (as root)
        raise _unwritable(path, error) from None
    os.chmod(temporary, 0o666 & ~_UMASK)  # the permissions an ordinary open() would give
    return Path(temporary), os.fdopen(descriptor, "wb")


@contextlib.contextmanager
def written_atomically(path):
    """A binary handle on a partial file beside `path`, renamed onto `path` when the block ends
    and removed when it raises: a failed write leaves `path` as it was, never half a file."""
    temporary, handle = open_partial(path)
    try:
        with handle:
            yield handle
        os.replace(temporary, path)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):  # a full disk, a quota
            raise _unwritable(path, error) from None
        raise


def _unwritable(path, error: OSError) -> InputError:
    return InputError(path, f"cannot write it ({error.strerror or error})")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()
