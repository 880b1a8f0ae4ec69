"""The words the table display and the referee page show, in each language the table speaks.

One catalogue per language (`en.toml`, `ja.toml`, `pl.toml` beside this module), keys named by
meaning (`prompt.turn-running`), values with `{name}` placeholders filled by `Catalogue.text`. English
is complete and the reference: every language holds the same keys with the same placeholders (a test
checks it), so a page never falls back silently.
"""
from __future__ import annotations

import functools
import string
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping

DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "ja", "pl")


class MessagesError(ValueError):
    """A language or a message that the catalogues do not hold."""


class UnknownLanguageError(MessagesError):
    pass


class UnknownMessageError(MessagesError, KeyError):
    pass


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = str(value)
    return flat


def placeholders(text: str) -> frozenset[str]:
    """The `{name}` fields of a message."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(text) if field)


@dataclass(frozen=True)
class Catalogue:
    language: str
    messages: Mapping[str, str]

    def text(self, key: str, /, **values: Any) -> str:
        """The message `key` with its placeholders filled."""
        try:
            message = self.messages[key]
        except KeyError:
            raise UnknownMessageError(f"no message {key!r} in the {self.language!r} catalogue") from None
        return message.format(**values) if values or "{" in message else message

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
def catalogue(language: str = DEFAULT_LANGUAGE) -> Catalogue:
    check_language(language)
    data = resources.files(__package__).joinpath(f"{language}.toml").read_text(encoding="utf-8")
    return Catalogue(language, _flatten(tomllib.loads(data)))
