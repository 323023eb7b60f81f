"""Seals: an Ed25519 signature of a log's head by a referee's key (docs/audit-log.md,
"Signing"), with the optional `cryptography` package (`pip install minors[sign]`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import LogUnavailable

__all__ = ["check", "keygen", "load_public", "public_hex", "sign"]

MESSAGE = b"minors audit log head "  # before the head in the message: a seal signs nothing else


def _crypto() -> tuple[Any, Any]:
    """cryptography's `ed25519` and `serialization` modules."""
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise LogUnavailable(
            "signing needs the cryptography package: pip install 'minors[sign]'"
        ) from None
    return ed25519, serialization


def keygen(path: str | Path) -> tuple[Path, Path]:
    """Write a new Ed25519 key pair: the private key to `path` (PEM, readable by its owner
    only) and the public key to `path`.pub; the two paths."""
    ed25519, ser = _crypto()
    private = ed25519.Ed25519PrivateKey.generate()
    secret = private.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption())
    public = private.public_key().public_bytes(
        ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo
    )
    key, pub = Path(path), Path(f"{path}.pub")
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(secret)
    pub.write_bytes(public)
    return key, pub


def _read(path: str | Path, what: str) -> bytes:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LogUnavailable(f"{path}: cannot read the {what}: {exc.strerror}") from None
    if len(data) > 1 << 16:
        raise LogUnavailable(f"{path}: too large for a {what}")
    return data


def sign(head: str, key_path: str | Path) -> tuple[str, str]:
    """The (public key, signature), hex, of a seal of `head` by the key at `key_path`."""
    ed25519, ser = _crypto()
    try:
        private = ser.load_pem_private_key(_read(key_path, "private key"), password=None)
    except (ValueError, TypeError) as exc:
        raise LogUnavailable(f"{key_path}: not a private key: {exc}") from None
    if not isinstance(private, ed25519.Ed25519PrivateKey):
        raise LogUnavailable(f"{key_path}: not an Ed25519 private key")
    signature = private.sign(MESSAGE + head.encode())
    return public_hex(private.public_key()), signature.hex()


def public_hex(public: Any) -> str:
    """A public key as the hex of its 32 raw bytes."""
    _, ser = _crypto()
    raw: bytes = public.public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    return raw.hex()


def load_public(path: str | Path) -> str:
    """The public key (hex) in a PEM file `minors log keygen` wrote."""
    ed25519, ser = _crypto()
    try:
        public = ser.load_pem_public_key(_read(path, "public key"))
    except (ValueError, TypeError) as exc:
        raise LogUnavailable(f"{path}: not a public key: {exc}") from None
    if not isinstance(public, ed25519.Ed25519PublicKey):
        raise LogUnavailable(f"{path}: not an Ed25519 public key")
    return public_hex(public)


def check(head: str, key: str, signature: str) -> bool:
    """Whether `signature` (hex) is `key`'s (hex) seal of `head`."""
    ed25519, _ = _crypto()
    from cryptography.exceptions import InvalidSignature

    try:
        public = ed25519.Ed25519PublicKey.from_public_bytes(bytes.fromhex(key))
        public.verify(bytes.fromhex(signature), MESSAGE + head.encode())
    except (ValueError, InvalidSignature):
        return False
    return True
