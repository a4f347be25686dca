"""Errors the CLI turns into one `error: ...` line and an exit code."""

from __future__ import annotations


class VendorgenError(Exception):
    """An operation failed (exit 1)."""

    exit_code = 1


class UsageError(VendorgenError):
    """The command line asks for something impossible (exit 2)."""

    exit_code = 2


class NotOffered(UsageError):
    """The source answered, and what the command names is not among what it offers (a tool, an endpoint).

    Re-inspection reads it as a module gone upstream; every other usage error stays what it is.
    """


class SourceUnreachable(VendorgenError):
    """The source could not be reached or did not answer as expected (exit 2)."""

    exit_code = 2


class TemplateError(VendorgenError):
    """A template (a project's own, in `[tool.vendorgen] templates`) does not render: it names what this
    vendorgen does not give it, or is not valid Jinja2 (exit 2)."""

    exit_code = 2


class SchemaError(VendorgenError):
    """A remote schema cannot be turned into a safe tool."""


class GateError(VendorgenError):
    """Rendered code does not have the shape the spec promises: a bug or an attack."""


class Excluded(UsageError):
    """The config filters out every tool of a module."""


class Gone(VendorgenError):
    """The source answers but no longer offers a vendored module."""
