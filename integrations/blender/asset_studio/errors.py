"""What can go wrong on the link, each with text that says what is wrong and what to do (Blender's report area)."""


class LinkError(Exception):
    """A failure of the link, in words a user can act on."""

    code = "link"


class AppNotRunning(LinkError):
    """No link file, a link left by a process that has ended, or nothing answering at its address."""

    code = "app-not-running"


class BadLinkFile(LinkError):
    code = "bad-link-file"


class TokenRefused(LinkError):
    code = "token-refused"


class JobNotFinished(LinkError):
    code = "job-not-finished"


class JobFailed(LinkError):
    code = "job-failed"


class NotFound(LinkError):
    code = "not-found"


class AppRefused(LinkError):
    """The app answered a command with an error (its BridgeError: code, message, issues)."""

    def __init__(self, message, code="app-error", status=0, issues=None):
        super().__init__(message)
        self.code = code
        self.status = status
        self.issues = issues or []


# ---- where the link file is ------------------------------------------------------------------------
