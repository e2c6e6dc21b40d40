"""BM25 keyword search (upstream `search/bm25.ts`): the tokenizer, the index and its scores.

The tokenizer (lowercase, punctuation to spaces, split on JS whitespace, min length in UTF-16
units, English stopwords), the BM25 scores (Robertson-Spärck Jones IDF with V8's Math.log, k1 1.5,
b 0.75) and the result order (stable sort on the score; ties keep the order in which documents
first scored, which follows the query tokens and, per token, the order documents were added) are
the upstream's, so scores compare exactly.
"""
from __future__ import annotations

import re
import unicodedata

from ..js.strings import _JS_WS
from ..js.v8_math import js_log

DEFAULT_STOPWORDS = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "he", "in", "is", "it", "its",
    "of", "on", "or", "that", "the", "to", "was", "were", "will", "with",
])


_SPLIT_WS = re.compile("[" + "".join(re.escape(c) for c in sorted(_JS_WS)) + "]+")


def _utf16_len(s: str) -> int:
    return len(s) + sum(1 for c in s if ord(c) > 0xFFFF)


def _keep(c: str) -> bool:
    """[\\p{L}\\p{N}_\\s] with the u flag: letters, numbers, underscore, JS whitespace."""
    return c == "_" or c in _JS_WS or unicodedata.category(c)[0] in "LN"


def _options(options: dict | None) -> dict:
    """{...DEFAULT_TOKENIZE_OPTIONS, ...options}."""
    opts = {"lowercase": True, "removePunctuation": True, "minLength": 2, "stopwords": DEFAULT_STOPWORDS}
    opts.update(options or {})
    return opts


def tokenize(text: str, options: dict | None = None) -> list[str]:
    opts = _options(options)
    processed = text
    if opts.get("lowercase"):
        processed = processed.lower()
    if opts.get("removePunctuation"):
        processed = "".join(c if _keep(c) else " " for c in processed)
    stopwords = opts.get("stopwords")
    min_length = opts.get("minLength")
    out = []
    for token in _SPLIT_WS.split(processed):
        if min_length is not None and _utf16_len(token) < min_length:
            continue
        if stopwords and token in stopwords:
            continue
        out.append(token)
    return out


def find_line_range(content: str, query_terms: list[str], options: dict | None = None):
    """The first to the last line holding a query term, 1-based; None when no line does."""
    if not query_terms:
        return None
    lowercase = {"lowercase": True, **(options or {})}.get("lowercase")
    terms = {t.lower() if lowercase else t for t in query_terms}
    first = last = None
    for i, line in enumerate(content.split("\n")):
        if any(token in terms for token in tokenize(line, options)):
            first = i + 1 if first is None else first
            last = i + 1
    if first is None:
        return None
    return {"start": first, "end": last}


class BM25Index:
    def __init__(self, config: dict | None = None, tokenize_options: dict | None = None):
        config = config or {}
        self.k1 = config.get("k1", 1.5) if config.get("k1") is not None else 1.5
        self.b = config.get("b", 0.75) if config.get("b") is not None else 0.75
        self.tokenize_options = tokenize_options
        self.documents: dict[str, dict] = {}
        self.inverted: dict[str, dict[str, None]] = {}  # term -> ordered set of ids
        self.df: dict[str, int] = {}
        self.avg_doc_length = 0.0
        self.doc_count = 0

    def add(self, id: str, content: str, metadata: dict | None = None) -> None:
        if id in self.documents:
            self.remove(id)
        tokens = tokenize(content, self.tokenize_options)
        tf: dict[str, int] = {}
        for token in tokens:
            tf[token] = tf.get(token, 0) + 1
        self.documents[id] = {"id": id, "content": content, "tf": tf, "length": len(tokens), "metadata": metadata}
        self.doc_count += 1
        for term in tf:
            self.inverted.setdefault(term, {})[id] = None
            self.df[term] = self.df.get(term, 0) + 1
        self._update_avg()

    def remove(self, id: str) -> bool:
        doc = self.documents.get(id)
        if doc is None:
            return False
        for term in doc["tf"]:
            ids = self.inverted.get(term)
            if ids is not None:
                ids.pop(id, None)
                if not ids:
                    del self.inverted[term]
                    self.df.pop(term, None)
                else:
                    self.df[term] = (self.df.get(term) or 1) - 1
        del self.documents[id]
        self.doc_count -= 1
        self._update_avg()
        return True

    def clear(self) -> None:
        self.documents.clear()
        self.inverted.clear()
        self.df.clear()
        self.doc_count = 0
        self.avg_doc_length = 0.0

    def search(self, query: str, top_k: int = 10, min_score=None) -> list[dict]:
        min_score = 0 if min_score is None else min_score
        query_tokens = tokenize(query, self.tokenize_options)
        if not query_tokens or self.doc_count == 0:
            return []
        scores: dict[str, float] = {}
        for term in query_tokens:
            ids = self.inverted.get(term)
            if not ids:
                continue
            df = self.df.get(term) or 0
            idf = js_log((self.doc_count - df + 0.5) / (df + 0.5) + 1)
            for doc_id in ids:
                doc = self.documents[doc_id]
                tf = doc["tf"].get(term) or 0
                numerator = tf * (self.k1 + 1)
                denominator = tf + self.k1 * (1 - self.b + self.b * (doc["length"] / self.avg_doc_length))
                scores[doc_id] = (scores.get(doc_id) or 0) + idf * (numerator / denominator)
        results = [{"id": doc_id, "content": self.documents[doc_id]["content"], "score": score,
                    "metadata": self.documents[doc_id]["metadata"]}
                   for doc_id, score in scores.items() if score >= min_score]
        results.sort(key=lambda r: -r["score"])
        return results[:_js_slice_end(top_k)]

    def _update_avg(self) -> None:
        if self.doc_count == 0:
            self.avg_doc_length = 0.0
            return
        total = sum(doc["length"] for doc in self.documents.values())
        self.avg_doc_length = total / self.doc_count


def _js_slice_end(n) -> int | None:
    """Array.prototype.slice(0, n): a fraction truncates, NaN/undefined mean 0 / the end."""
    if n is None:
        return None
    if isinstance(n, float):
        if n != n:
            return 0
        if n in (float("inf"),):
            return None
        return int(n)
    return n
