"""The words the table display and the referee page show, in each language the table speaks.

One catalogue per language (`en.toml`, `ja.toml`, `pl.toml` beside this module), keys named by
meaning (`prompt.turn-running`), values with `{name}` placeholders filled by `Catalogue.text`. English
is complete and the reference: every language holds the same keys with the same placeholders (a test
checks it), so a page never falls back silently.

A message that counts something is a table of its plural forms, one for each of the language's CLDR
plural categories (`one`, `few`, `many`, `other`, ...), and `{count}` picks the form by Babel's CLDR
plural rules for that language: Polish "1 płytka", "3 płytki", "5 płytek"; English "1 tile", "2 tiles";
Japanese has one form. Its `other` form stands for the message where keys and placeholders are compared.
"""
from __future__ import annotations

import functools
import string
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Mapping

from babel import Locale

DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "ja", "pl")


class MessagesError(ValueError):
    """A language or a message that the catalogues do not hold."""


class UnknownLanguageError(MessagesError):
    pass


class UnknownMessageError(MessagesError, KeyError):
    pass


PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})  # CLDR's


def _is_plural(value: Any) -> bool:
    """A table of plural forms: CLDR categories only, `other` among them."""
    return isinstance(value, Mapping) and "other" in value and set(value) <= PLURAL_CATEGORIES


def _flatten(table: Mapping[str, Any], prefix: str = "",
             plurals: dict[str, dict[str, str]] | None = None) -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if _is_plural(value):
            if plurals is not None:
                plurals[name] = {category: str(text) for category, text in value.items()}
            flat[name] = str(value["other"])
        elif isinstance(value, Mapping):
            flat.update(_flatten(value, name + ".", plurals))
        else:
            flat[name] = str(value)
    return flat


def plural_categories(language: str) -> frozenset[str]:
    """The CLDR plural categories of `language` (Babel's): what its plural messages must hold."""
    return frozenset(Locale.parse(language).plural_form.tags) | {"other"}


def placeholders(text: str) -> frozenset[str]:
    """The `{name}` fields of a message."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(text) if field)


@dataclass(frozen=True)
class Catalogue:
    language: str
    messages: Mapping[str, str]
    plurals: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # key -> CLDR category -> form

    def text(self, key: str, /, **values: Any) -> str:
        """The message `key` with its placeholders filled (a plural message in the form `count` takes)."""
        try:
            message = self.messages[key]
        except KeyError:
            raise UnknownMessageError(f"no message {key!r} in the {self.language!r} catalogue") from None
        forms = self.plurals.get(key)
        if forms is not None and isinstance(values.get("count"), (int, float)):
            message = forms.get(self.plural_form(values["count"]), forms["other"])
        return message.format(**values) if values or "{" in message else message

    def plural_form(self, count: int | float) -> str:
        """The CLDR plural category of `count` in this language (Babel's rules)."""
        return _plural_rule(self.language)(count)

    def around(self, key: str, field: str, /, **values: Any) -> tuple[str, str]:
        """The message `key` split where `{field}` stands (the words before and after it, its other
        fields filled from `values`): a page draws something other than text there (tiles as tiles)
        and escapes the words."""
        before, _, after = self.text(key, **{**values, field: "\0"}).partition("\0")
        return before, after

    def has(self, key: str) -> bool:
        return key in self.messages

    def maybe(self, key: str, fallback: str, /, **values: Any) -> str:
        """The message `key` if the catalogue has it, else `fallback` (words that come from data,
        such as a club's own rule name)."""
        return self.text(key, **values) if key in self.messages else fallback

    def words(self, prefix: str) -> dict[str, str]:
        """Every message under `prefix.` (for a page that needs a group of them), keyed by the rest."""
        start = prefix + "."
        return {key[len(start):]: value for key, value in self.messages.items() if key.startswith(start)}


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise UnknownLanguageError(f"--lang {language!r}: the table speaks {', '.join(LANGUAGES)}")
    return language


@functools.lru_cache(maxsize=None)
def _plural_rule(language: str):
    return Locale.parse(language).plural_form


@functools.lru_cache(maxsize=None)
def catalogue(language: str = DEFAULT_LANGUAGE) -> Catalogue:
    check_language(language)
    data = resources.files(__package__).joinpath(f"{language}.toml").read_text(encoding="utf-8")
    plurals: dict[str, dict[str, str]] = {}
    messages = _flatten(tomllib.loads(data), plurals=plurals)
    return Catalogue(language, messages, plurals)


@functools.lru_cache(maxsize=None)
def _shared(language: str) -> Catalogue:
    return catalogue(language)


def named(kind: str, value: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """A name the code uses inside (a game's state `phase`, a verdict's `outcome`, a broken `rule`, a
    timer `incident`, a `clockfact`...) in the catalogue's words under `kind.`: what a person reads
    instead of it. A value the catalogue has no words for is shown with spaces, never as a code name."""
    name = str(getattr(value, "value", value))
    return _shared(language).maybe(f"{kind}.{name}", name.replace("-", " "))


# how a restore check records a difference (controller/game/judging.py), and the catalogue's words for it
RESTORE_DIFFERENCES = {"missing: ": "restore.missing", "not before: ": "restore.extra"}


def difference_words(text: str, words: Catalogue | None = None) -> str:
    """One way a restored table differs from its photo ("missing: R1 R2 R3" as recorded) in words
    (default: English, as the console and the audit say it)."""
    words = words or catalogue(DEFAULT_LANGUAGE)
    for prefix, key in RESTORE_DIFFERENCES.items():
        if text.startswith(prefix):
            return words.text(key, tiles=text[len(prefix):])
    return text
