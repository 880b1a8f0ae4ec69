"""The table's Ed25519 key: what signs a game's records, kept outside the records file.

A hash chain alone proves nothing against someone who edits a row and recomputes every
hash after it. So every event's chain hash, and the game's head (its event count and last
hash), are signed with the table's private key; the public key goes into the game's first
event, and `verify --key PUB` checks that it is the table's (a forger who re-signs a whole
game with a key of his own is caught only that way, or by the head digest people saw on the
table display and the audit pages).

Key files are PEM: the private key (PKCS#8, mode 0600) and, beside it, `NAME.pub`
(SubjectPublicKeyInfo). Without `--key`, a table uses a per-user key made on first use in
`$TILEREF_KEY_DIR`, else `$XDG_CONFIG_HOME/tileref`, else `~/.config/tileref`.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .errors import KeyFileError

KEY_DIR_ENV = "TILEREF_KEY_DIR"  # tests (and clubs with a managed place for keys) point this elsewhere
DEFAULT_KEY_NAME = "table.key"
FINGERPRINT_HEX = 16  # short enough to read aloud, long enough that no two tables share one by chance

# Domain tags: an event's signature can never pass as a head's (a truncated game would otherwise
# carry a valid head signature: the one its last remaining event got when it was written).
_EVENT_TAG = b"tileref event v1\0"
_HEAD_TAG = b"tileref head v1\0"


def event_message(seq: int, digest: str) -> bytes:
    return _EVENT_TAG + f"{seq}:{digest}".encode("ascii")


def head_message(game_id: int, events: int, digest: str) -> bytes:
    return _HEAD_TAG + f"{game_id}:{events}:{digest}".encode("ascii")


@dataclass(frozen=True)
class PublicKey:
    """An Ed25519 public key as recorded in a game: 32 raw bytes."""

    raw: bytes

    @property
    def text(self) -> str:
        return base64.b64encode(self.raw).decode("ascii")

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()[:FINGERPRINT_HEX]

    @classmethod
    def from_text(cls, text: str) -> "PublicKey":
        try:
            raw = base64.b64decode(text.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError, AttributeError):
            raise ValueError(f"{text!r} is not base64") from None
        if len(raw) != 32:
            raise ValueError(f"{text!r} is {len(raw)} bytes, an Ed25519 public key is 32")
        return cls(raw)

    def verifies(self, signature: str | None, message: bytes) -> bool:
        if not signature:
            return False
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(base64.b64decode(signature, validate=True), message)
        except (InvalidSignature, binascii.Error, ValueError):
            return False
        return True


@dataclass(frozen=True, eq=False)
class TableKey:
    """A table's private key, and where it came from (named in errors)."""

    private: Ed25519PrivateKey
    path: Path | None

    @property
    def public(self) -> PublicKey:
        return PublicKey(self.private.public_key().public_bytes(serialization.Encoding.Raw,
                                                                serialization.PublicFormat.Raw))

    def sign(self, message: bytes) -> str:
        return base64.b64encode(self.private.sign(message)).decode("ascii")


def new_key_pair(out: str | Path) -> TableKey:
    """Write a new private key to `out` (0600) and its public key to `out.pub`; never overwrite."""
    path = Path(out)
    pub_path = public_path(path)
    for existing in (path, pub_path):
        if existing.exists():
            raise KeyFileError(f"key file {str(existing)!r} already exists; not overwriting a table's key")
    key = TableKey(Ed25519PrivateKey.generate(), path)
    pem = key.private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    public_pem = key.private.public_key().public_bytes(serialization.Encoding.PEM,
                                                       serialization.PublicFormat.SubjectPublicKeyInfo)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # only when it is new: a key folder is private
        # O_EXCL: two processes making the default key at once must not both write it
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
        pub_path.write_bytes(public_pem)
    except FileExistsError:
        raise KeyFileError(f"key file {str(path)!r} already exists; not overwriting a table's key") from None
    except OSError as error:
        raise KeyFileError(f"cannot write key file {str(path)!r}: {error.strerror}") from None
    return key


def public_path(private_path: Path) -> Path:
    return private_path.with_name(private_path.name + ".pub")


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise KeyFileError(f"key file {str(path)!r} does not exist") from None
    except OSError as error:
        raise KeyFileError(f"cannot read key file {str(path)!r}: {error.strerror}") from None


def load_table_key(path: str | Path) -> TableKey:
    """A private key file (PEM, Ed25519)."""
    path = Path(path)
    data = _read(path)
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as error:
        raise KeyFileError(f"key file {str(path)!r} is not an unencrypted PEM private key: {error}") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyFileError(f"key file {str(path)!r} holds a {type(private).__name__}, not an Ed25519 key")
    return TableKey(private, path)


def load_public_key(path: str | Path) -> PublicKey:
    """The public key in a `.pub` file (PEM); a private key file gives its public half."""
    path = Path(path)
    data = _read(path)
    if b"PRIVATE KEY" in data:
        return load_table_key(path).public
    try:
        public = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as error:
        raise KeyFileError(f"key file {str(path)!r} is not a PEM public key: {error}") from None
    if not isinstance(public, Ed25519PublicKey):
        raise KeyFileError(f"key file {str(path)!r} holds a {type(public).__name__}, not an Ed25519 key")
    return PublicKey(public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))


def default_key_path() -> Path:
    if os.environ.get(KEY_DIR_ENV):
        base = Path(os.environ[KEY_DIR_ENV])
    elif os.environ.get("XDG_CONFIG_HOME"):
        base = Path(os.environ["XDG_CONFIG_HOME"]) / "tileref"
    else:
        base = Path.home() / ".config" / "tileref"
    return base / DEFAULT_KEY_NAME


def _say(text: str) -> None:
    # stdout: it is news, not an error; stderr stays the one line a failing command prints
    print(text, file=sys.stdout, flush=True)


def default_table_key(announce: Callable[[str], None] = _say) -> TableKey:
    """This user's table key, made (and announced, with where it is) the first time it is needed."""
    path = default_key_path()
    if not path.exists():
        try:
            key = new_key_pair(path)
        except KeyFileError:
            if not path.exists():  # not a race with another process making it: a real failure
                raise
        else:
            announce(f"tileref: made this table's signing key {path} (public key {public_path(path)}, "
                     f"fingerprint {key.public.fingerprint}); keep it, it signs every game recorded here")
            return key
    return load_table_key(path)


def table_key(path: str | Path | None) -> TableKey:
    """The key given with `--key FILE`, else this user's default key."""
    return load_table_key(path) if path else default_table_key()
