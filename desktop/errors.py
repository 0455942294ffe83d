"""The one exception family the user sees: a problem they can fix, said in one line."""


class CallmarkError(Exception):
    """Its str is one clear line naming the file (or thing) and what is wrong."""


class NotFound(CallmarkError):
    """A call, moment, item or cycle the user named does not exist."""
