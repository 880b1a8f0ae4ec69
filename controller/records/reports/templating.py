"""The Jinja2 environment the records' own pages render with (the static audit page `tileref audit`
and `tileref demo` write), and the settings every page of the project shares.

Autoescaping is on for every template, whatever its name: names, codes and notes reach the HTML
only through the templates, never by string concatenation. The web layer's environment
(controller/web/templating.py) is made by `new_environment` too and reaches these templates under
`records/`, so the regions both audit pages show (`audit_regions.html`) are written once.
"""
from __future__ import annotations

import functools

import jinja2


def new_environment(loader: jinja2.BaseLoader, strict: bool = False) -> jinja2.Environment:
    """`strict`: a name a page needs and was not given is an error, not a blank (the records' pages,
    rendered from one context made in Python; the web pages leave optional names out)."""
    return jinja2.Environment(
        loader=loader,
        autoescape=True,  # every template, whatever its name: names and codes are always escaped
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined if strict else jinja2.Undefined,
    )


def records_loader() -> jinja2.BaseLoader:
    return jinja2.PackageLoader("controller.records.reports", "templates")


@functools.lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    from controller.messages import catalogue

    env = new_environment(records_loader(), strict=True)
    # names the code uses (an outcome, a rule, a clock fact) are shown as the catalogue's words,
    # `maybe(key, fallback)`, never as they are; the page's fixed words are `t(key)` (English unless
    # `render` is given a language)
    words = catalogue("en")
    env.globals["maybe"] = words.maybe
    env.globals["t"] = words.text
    env.globals["around"] = words.around
    return env


def render(name: str, language: str | None = None, **context) -> str:
    """The page `name` with its words in `language` (default English)."""
    if language is not None:
        from controller.messages import catalogue

        words = catalogue(language)
        context = {"t": words.text, "maybe": words.maybe, "around": words.around, **context}
    return environment().get_template(name).render(**context)
