"""BM25 keyword search, as search/bm25.ts and search/search-engine.ts of @mastra/core 1.71.0 do it.

The tokenizer (lowercase, punctuation to spaces, split on JS whitespace, min length in UTF-16
units, English stopwords), the BM25 scores (Robertson-Spärck Jones IDF with V8's Math.log, k1 1.5,
b 0.75) and the result order (stable sort on the score; ties keep the order in which documents
first scored, which follows the query tokens and, per token, the order documents were added) are
the upstream's, so scores compare exactly. Vector search is not implemented.
"""
from __future__ import annotations

import re
import unicodedata

from .jsmath import js_log
from .jsstr import _JS_WS

# An object property that is present but undefined: counted by Object.keys, dropped by JSON.
UNDEFINED = object()

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


def split_into_chunks(text: str, max_chunk_chars: int = 4000, overlap_lines: int = 3) -> list[dict]:
    """Line-based chunks of at most max_chunk_chars UTF-16 units, overlapping by 3 lines."""
    if _utf16_len(text) <= max_chunk_chars:
        return [{"content": text, "startLine": 1}]
    lines = text.split("\n")
    chunks = []
    start = 0
    while start < len(lines):
        end = start
        count = 0
        while end < len(lines):
            line_len = _utf16_len(lines[end]) + (1 if end > start else 0)
            if count + line_len > max_chunk_chars and end > start:
                break
            count += line_len
            end += 1
        content = "\n".join(lines[start:end])
        if _utf16_len(content) <= max_chunk_chars:
            chunks.append({"content": content, "startLine": start + 1})
        else:
            units = content.encode("utf-16-le", "surrogatepass")
            step = max_chunk_chars * 2
            for offset in range(0, len(units), step):
                chunks.append({"content": units[offset:offset + step].decode("utf-16-le", "surrogatepass"),
                               "startLine": start + 1})
        next_start = end - overlap_lines
        start = end if next_start <= start else next_start
    return chunks


class SearchError(Exception):
    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SearchEngine:
    """BM25 (and, with a vector config, the mode checks of) the upstream's SearchEngine."""

    def __init__(self, bm25: dict | None = None, vector: dict | None = None):
        self.tokenize_options = None
        self.bm25_index = None
        if bm25 is not None:
            self.tokenize_options = bm25.get("tokenize")
            self.bm25_index = BM25Index(bm25.get("bm25"), self.tokenize_options)
        self.vector = vector
        self.indexed_ids: dict[str, None] = {}

    @property
    def can_bm25(self) -> bool:
        return self.bm25_index is not None

    @property
    def can_vector(self) -> bool:
        return self.vector is not None

    @property
    def can_hybrid(self) -> bool:
        return self.can_bm25 and self.can_vector

    def index(self, doc: dict) -> None:
        metadata = dict(doc.get("metadata") or {})
        if doc.get("startLineOffset") is not None:
            metadata["_startLineOffset"] = doc["startLineOffset"]
        self.indexed_ids[doc["id"]] = None
        if self.bm25_index is not None:
            self.bm25_index.add(doc["id"], doc["content"], metadata)

    def remove(self, id: str) -> None:
        self.indexed_ids.pop(id, None)
        if self.bm25_index is not None:
            self.bm25_index.remove(id)

    def count_by_prefix(self, prefix: str) -> int:
        return sum(1 for i in self.indexed_ids if i.startswith(prefix))

    def remove_by_prefix(self, prefix: str) -> None:
        matched = [i for i in self.indexed_ids if i.startswith(prefix)]
        for i in matched:
            self.indexed_ids.pop(i, None)
        if self.bm25_index is not None:
            for i in matched:
                self.bm25_index.remove(i)

    def remove_source(self, source_id: str) -> None:
        self.remove(source_id)
        self.remove_by_prefix(f"{source_id}#chunk-")

    def clear(self) -> None:
        self.indexed_ids.clear()
        if self.bm25_index is not None:
            self.bm25_index.clear()

    def _mode(self, requested):
        if requested:
            if requested == "vector" and not self.can_vector:
                raise SearchError("Vector search requires vector configuration.")
            if requested == "bm25" and not self.can_bm25:
                raise SearchError("BM25 search requires BM25 configuration.")
            if requested == "hybrid" and not self.can_hybrid:
                raise SearchError("Hybrid search requires both vector and BM25 configuration.")
            return requested
        if self.can_hybrid:
            return "hybrid"
        if self.can_vector:
            return "vector"
        if self.can_bm25:
            return "bm25"
        raise SearchError("No search configuration available. Provide bm25 or vector config.")

    def search(self, query: str, options: dict | None = None) -> list[dict]:
        options = options or {}
        top_k = options.get("topK")
        top_k = 10 if top_k is None else top_k
        mode = self._mode(options.get("mode"))
        if mode == "bm25":
            return self.search_bm25(query, top_k, options.get("minScore"))
        raise SearchError("Vector search is not implemented by wsref.")

    def search_bm25(self, query: str, top_k, min_score=None) -> list[dict]:
        if self.bm25_index is None:
            raise SearchError("BM25 search requires BM25 configuration.")
        results = self.bm25_index.search(query, top_k, min_score)
        query_tokens = tokenize(query, self.tokenize_options)
        out = []
        for r in results:
            line_range = _adjust(find_line_range(r["content"], query_tokens, self.tokenize_options), r["metadata"])
            clean = {k: v for k, v in (r["metadata"] or {}).items() if k != "_startLineOffset"}
            result = {"id": r["id"], "content": r["content"], "score": r["score"]}
            if line_range is not None:
                result["lineRange"] = line_range
            if clean:
                result["metadata"] = {k: v for k, v in clean.items() if v is not UNDEFINED}
            result["scoreDetails"] = {"bm25": r["score"]}
            out.append(result)
        return out


def _adjust(line_range, metadata):
    if line_range is None:
        return None
    offset = (metadata or {}).get("_startLineOffset")
    if not isinstance(offset, (int, float)) or isinstance(offset, bool):
        return line_range
    return {"start": line_range["start"] + offset - 1, "end": line_range["end"] + offset - 1}
