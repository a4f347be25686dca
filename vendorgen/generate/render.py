"""Jinja2 rendering of a ModuleSpec into Python source (before formatting)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from traceback import walk_tb
from typing import TYPE_CHECKING

import jinja2

from vendorgen import __version__, builtin_templates_dir, templates_version
from vendorgen.errors import TemplateError
from vendorgen.generate.sandbox import TemplateSandbox, render_bounded
from vendorgen.model import ANNOTATIONS, NO_DEFAULT, ModuleSpec
from vendorgen.review.notes import module_notes, tool_notes
from vendorgen.text.literals import comment_text, docstring_body, python_literal

if TYPE_CHECKING:
    from vendorgen.sources import Source


@lru_cache(maxsize=8)
def environment(user_templates: Path | None = None, source: Source | None = None) -> TemplateSandbox:
    """One environment per templates directory and source; user files override the source's and
    built-ins file by file (a source kept outside vendorgen has its template in its own directory).
    Sandboxed and bounded, built-in templates too (vendorgen.generate.sandbox)."""
    directories = [user_templates, source.template_dir if source else None, builtin_templates_dir()]
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(path)) for path in directories if path is not None]
    env = TemplateSandbox(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    # The only doors from remote text into code.
    env.filters["literal"] = python_literal
    env.filters["docstring"] = docstring_body
    env.filters["comment"] = comment_text
    env.globals["NO_DEFAULT"] = NO_DEFAULT
    env.globals["review_notes"] = tool_notes
    env.globals["module_review_notes"] = module_notes
    env.globals["annotations"] = {**ANNOTATIONS, **(source.annotations if source else {})}
    env.globals["vendorgen_version"] = __version__
    env.globals["templates_version"] = templates_version()
    return env


def render_module(module: ModuleSpec, schema_sha256: str, source: Source, user_templates: Path | None = None) -> str:
    """`module` rendered with the template of the `source` that built it."""
    return _rendered(environment(user_templates, source), source.template, module=module, schema_sha256=schema_sha256)


def render_file(name: str, user_templates: Path | None = None, **context: object) -> str:
    """Render a non-module template (the `push` Space files)."""
    return _rendered(environment(user_templates), name, **context)


def _rendered(env: jinja2.Environment, name: str, **context: object) -> str:
    """The template `name` rendered; a TemplateError naming the template file, the line and what it lacks if not.

    A project's template may have been written for an older vendorgen, whose context had other names
    (`module.uses_literal`): StrictUndefined makes that an error, never silently different code.
    """
    with _template_errors(name):
        return render_bounded(env.get_template(name).generate(**context))


@contextmanager
def _template_errors(name: str) -> Iterator[None]:
    try:
        yield
    except RecursionError:  # a macro calling itself without end
        raise TemplateError(f"the template {name} does not render: its macros call themselves too deep") from None
    except jinja2.TemplateSyntaxError as exc:  # before rendering: its own file and line
        where = f"{exc.filename or name}, line {exc.lineno}"
        raise TemplateError(f"the template {where} is not valid Jinja2: {exc.message}") from None
    except jinja2.TemplateError as exc:  # while rendering: the innermost template line, in jinja2's rewritten frames
        in_templates = [
            (frame.f_code.co_filename, f"{frame.f_code.co_filename}, line {line}")
            for frame, line in walk_tb(exc.__traceback__)
            if "__jinja_exception__" in frame.f_globals  # a template's frame, as jinja2 rewrites them
        ] or [(name, name)]
        (outer_file, outer), (inner_file, inner) = in_templates[0], in_templates[-1]
        where = inner if inner_file == outer_file else f"{inner} (used by {outer})"
        reason = f"no template {exc.name} to include" if isinstance(exc, jinja2.TemplateNotFound) else str(exc)
        raise TemplateError(f"the template {where} does not render with vendorgen {__version__}: {reason}") from None
