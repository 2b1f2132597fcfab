"""A store's manifest: its configuration, its key, and the game ids runs have asked it for.

``manifest.json`` holds the rules, seed, ``RULES_VERSION`` and per_seat of the run, the store's key
(a hash of them, `store_key`) and the ranges of game ids requested so far. A manifest whose key
does not match its configuration is damaged, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..game.rules import RULES_VERSION, Rules
from .id_ranges import merge_ranges
from .store_files import MANIFEST, STORE_FORMAT, StoreError, read_checked

MAX_MANIFEST_BYTES = 2**26  # a manifest is its configuration and a list of id ranges: kilobytes

__all__ = ["store_config", "store_key", "default_path", "read_manifest", "manifest_bytes", "check_format"]


def store_config(rules: Rules, seed: int, per_seat: bool) -> dict:
    """The configuration a store is for, as the manifest records it."""
    return {"rules": rules.to_dict(), "seed": int(seed), "rules_version": RULES_VERSION,
            "per_seat": bool(per_seat)}


def store_key(rules: Rules, seed: int, per_seat: bool = False) -> str:
    """A 16-hex-digit hash of (rules, seed, RULES_VERSION, per_seat, store format): the store's identity."""
    text = json.dumps({**store_config(rules, seed, per_seat), "format": STORE_FORMAT}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_path(rules: Rules, seed: int, per_seat: bool = False) -> Path:
    """``<runs_dir>/<key>``: the per-user run cache (`beggarstats.run.paths.runs_dir`), never the
    current directory."""
    from .paths import runs_dir

    return runs_dir() / store_key(rules, seed, per_seat)


def read_manifest(path: Path) -> dict | None:
    """The manifest of directory ``path`` (None if it has none); a damaged one is an error naming it."""
    file = path / MANIFEST
    if not os.path.lexists(file):
        return None
    try:
        text = read_checked(file, MAX_MANIFEST_BYTES, "store manifest").decode()
    except UnicodeDecodeError as exc:
        raise StoreError(_damaged(file, f"not text: {exc}")) from None
    try:
        manifest = json.loads(text)
        if not isinstance(manifest, dict):
            raise ValueError("not a JSON object")  # internal: re-raised below as a StoreError naming the manifest
        if manifest.get("format", 1) != 1:
            config = {k: manifest[k] for k in ("rules", "seed", "rules_version", "per_seat")}
            key = store_key(Rules.from_dict(config["rules"]), config["seed"], config["per_seat"]) \
                if config["rules_version"] == RULES_VERSION else manifest["key"]
            if manifest["key"] != key:
                raise ValueError("its key does not match its configuration")  # internal: re-raised below as a StoreError naming the manifest
            merge_ranges(manifest.get("requested", []))
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(_damaged(file, str(exc))) from None
    return manifest


def _damaged(file: Path, why: str) -> str:
    return (f"The store manifest {str(file)!r} is damaged ({why}). Its chunk files are intact but cannot be "
            f"trusted without it: restore the manifest from a copy, or delete the directory and run again.")


def manifest_bytes(manifest: dict) -> bytes:
    """The manifest as the bytes of ``manifest.json``."""
    return (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()


def check_format(path: Path, manifest: dict) -> None:
    """Refuse a store written in an older format (without checksums)."""
    if manifest.get("format", 1) != STORE_FORMAT:
        raise StoreError(f"The store {str(path)!r} was written by an older beggarstats (store format "
                         f"{manifest.get('format', 1)}, without checksums); delete it or pass another "
                         f"directory to run again.")  # names: the store by its path
