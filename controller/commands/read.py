"""Placeholder: this area's subcommands are registered here."""
ERRORS: tuple[type[BaseException], ...] = ()


def register(subparsers) -> None:
    pass
