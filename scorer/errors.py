"""Errors about the input as a whole. Problems inside one prediction never raise: they
become that row's `malformed` verdict."""


class InputError(Exception):
    """Bad input that stops the run: names the file, the 1-based row and the field."""

    def __init__(self, path, message, row=None, field=None):
        self.path, self.row, self.field, self.message = str(path), row, field, message
        where = self.path
        if row is not None:
            where += f" row {row}"
        if field is not None:
            where += f", field {field}" if row is not None else f" field {field}"
        super().__init__(f"{where}: {message}")


class RulesError(InputError):
    """A rule file that cannot be read or is not valid: names the file and the line."""

    def __init__(self, path, message, line=None):
        super().__init__(path, message)
        self.line = line
        self.args = (f"{self.path}" + (f" line {line}" if line is not None else "") + f": {message}",)

    def __str__(self):
        return self.args[0]
