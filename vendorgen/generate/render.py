"""Jinja2 rendering of a ModuleSpec into Python source (before formatting)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from vendorgen import __version__, builtin_templates_dir, templates_version
from vendorgen.generate.literals import comment_text, docstring_body, python_literal
from vendorgen.model import ANNOTATIONS, NO_DEFAULT, ModuleSpec

if TYPE_CHECKING:
    from vendorgen.sources import Source


@lru_cache(maxsize=8)
def environment(user_templates: Path | None = None, source: Source | None = None) -> jinja2.Environment:
    """One environment per templates directory and source; user files override the source's and
    built-ins file by file (a source kept outside vendorgen has its template in its own directory)."""
    directories = [user_templates, source.template_dir if source else None, builtin_templates_dir()]
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(path)) for path in directories if path is not None]
    env = jinja2.Environment(
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
    env.globals["annotations"] = {**ANNOTATIONS, **(source.annotations if source else {})}
    env.globals["vendorgen_version"] = __version__
    env.globals["templates_version"] = templates_version()
    return env


def render_module(module: ModuleSpec, schema_sha256: str, source: Source, user_templates: Path | None = None) -> str:
    """`module` rendered with the template of the `source` that built it."""
    loaded = environment(user_templates, source).get_template(source.template)
    return loaded.render(module=module, schema_sha256=schema_sha256)


def render_file(name: str, user_templates: Path | None = None, **context: object) -> str:
    """Render a non-module template (the `push` Space files)."""
    return environment(user_templates).get_template(name).render(**context)
