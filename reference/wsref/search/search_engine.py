"""SearchEngine (upstream `search/search-engine.ts`): BM25, vector and hybrid search over indexed documents.

Vector and hybrid search run on a vector store and an embedder the case names (server/host_search.py).
"""
from __future__ import annotations

from .bm25 import BM25Index, _js_slice_end, _utf16_len, find_line_range, tokenize

# An object property that is present but undefined: counted by Object.keys, dropped by JSON.
UNDEFINED = object()


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
    """The upstream's SearchEngine: BM25, vector (a vector store and an embedder) and hybrid search.

    Vector indexing is eager, as the Workspace configures it. One difference: indexing several
    documents with a single-text embedder runs them one after the other here, while upstream's
    p-map interleaves their embedder and store calls (the resulting index is the same).
    """

    def __init__(self, bm25: dict | None = None, vector: dict | None = None):
        self.tokenize_options = None
        self.bm25_index = None
        if bm25 is not None:
            self.tokenize_options = bm25.get("tokenize")
            self.bm25_index = BM25Index(bm25.get("bm25"), self.tokenize_options)
        self.vector = vector  # {vectorStore, embedder, indexName}
        self.vector_index_ready = False
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

    # -- indexing

    def _index_non_vector(self, doc: dict) -> dict:
        metadata = dict(doc.get("metadata") or {})
        if doc.get("startLineOffset") is not None:
            metadata["_startLineOffset"] = doc["startLineOffset"]
        self.indexed_ids[doc["id"]] = None
        if self.bm25_index is not None:
            self.bm25_index.add(doc["id"], doc["content"], metadata)
        return {**doc, "metadata": metadata}

    def index(self, doc: dict) -> None:
        merged = self._index_non_vector(doc)
        if self.vector is not None:
            self._index_vector(merged)

    def index_many(self, docs: list[dict]) -> None:
        embedder = self.vector["embedder"] if self.vector else None
        if embedder is None or not getattr(embedder, "batch", False):
            for doc in docs:
                self.index(doc)
            return
        unique: dict[str, dict] = {}
        for doc in docs:  # a repeated id keeps its first position and its last content
            unique[doc["id"]] = doc
        items = list(unique.values())
        size = _group_size(embedder)
        for start in range(0, len(items), size):
            group = [self._index_non_vector(d) for d in items[start:start + size]]
            self._embed_and_upsert(group)

    def _embed_one(self, text: str):
        embedder = self.vector["embedder"]
        if getattr(embedder, "batch", False):
            out = embedder([text])
            if not out:
                raise SearchError("Batch embedder returned no embedding for input text.")
            return out[0]
        return embedder(text)

    def _embed_all(self, texts: list[str]) -> list:
        if not texts:
            return []
        embedder = self.vector["embedder"]
        if getattr(embedder, "batch", False):
            size = _group_size(embedder)
            if len(texts) <= size:
                return embedder(texts)
            out = []
            for start in range(0, len(texts), size):
                out += embedder(texts[start:start + size])
            return out
        return [embedder(t) for t in texts]

    def _upsert_metadata(self, doc: dict) -> dict:
        return {"id": doc["id"], "text": doc["content"], **(doc.get("metadata") or {})}

    def _index_vector(self, doc: dict) -> None:
        store, name = self.vector["vectorStore"], self.vector["indexName"]
        embedding = self._embed_one(doc["content"])
        if not self.vector_index_ready:
            try:
                store.create_index(name, len(embedding))
            except Exception:
                pass  # already there, or not needed by the backend
        store.upsert(name, [embedding], [self._upsert_metadata(doc)], [doc["id"]])
        self.vector_index_ready = True

    def _embed_and_upsert(self, docs: list[dict]) -> None:
        store, name = self.vector["vectorStore"], self.vector["indexName"]
        embeddings = self._embed_all([d["content"] for d in docs])
        if len(embeddings) != len(docs):
            raise SearchError(f"Batch embedder returned {len(embeddings)} embeddings for {len(docs)} inputs.")
        if not self.vector_index_ready:
            try:
                store.create_index(name, len(embeddings[0]))
            except Exception:
                pass
        for start in range(0, len(docs), 100):
            part = docs[start:start + 100]
            store.upsert(name, embeddings[start:start + 100], [self._upsert_metadata(d) for d in part],
                         [d["id"] for d in part])
            self.vector_index_ready = True

    def remove(self, id: str) -> None:
        self.indexed_ids.pop(id, None)
        if self.bm25_index is not None:
            self.bm25_index.remove(id)
        if self.vector is not None:
            try:
                self.vector["vectorStore"].delete_vector(self.vector["indexName"], id)
            except Exception:
                pass

    def count_by_prefix(self, prefix: str) -> int:
        return sum(1 for i in self.indexed_ids if i.startswith(prefix))

    def remove_by_prefix(self, prefix: str) -> None:
        matched = [i for i in self.indexed_ids if i.startswith(prefix)]
        for i in matched:
            self.indexed_ids.pop(i, None)
        if self.bm25_index is not None:
            for i in matched:
                self.bm25_index.remove(i)
        if self.vector is not None:
            for i in matched:
                try:
                    self.vector["vectorStore"].delete_vector(self.vector["indexName"], i)
                except Exception:
                    pass

    def remove_source(self, source_id: str) -> None:
        self.remove(source_id)
        self.remove_by_prefix(f"{source_id}#chunk-")
        if self.vector is not None:
            try:
                self.vector["vectorStore"].delete_vectors(self.vector["indexName"], {"sourceFile": source_id})
            except Exception:
                pass

    def clear(self) -> None:
        """BM25 and the id registry only: the vector store may be shared, so it is left alone."""
        self.indexed_ids.clear()
        if self.bm25_index is not None:
            self.bm25_index.clear()

    # -- searching

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
        if mode == "vector":
            return self.search_vector(query, top_k, options.get("minScore"), options.get("filter"))
        weight = options.get("vectorWeight")
        return self.search_hybrid(query, top_k, options.get("minScore"), 0.5 if weight is None else weight,
                                  options.get("filter"))

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

    def search_vector(self, query: str, top_k, min_score=None, flt=None) -> list[dict]:
        if self.vector is None:
            raise SearchError("Vector search requires vector configuration.")
        store, name = self.vector["vectorStore"], self.vector["indexName"]
        found = store.query(name, self._embed_one(query), top_k, flt)
        query_tokens = tokenize(query, self.tokenize_options)
        out = []
        for r in found:
            if min_score is not None and r["score"] < min_score:
                continue
            meta = r.get("metadata") or {}
            doc_id = meta.get("id")
            doc_id = r["id"] if doc_id is None or doc_id is UNDEFINED else doc_id
            content = meta.get("text")
            content = "" if content is None or content is UNDEFINED else content
            rest = {k: v for k, v in meta.items() if k not in ("id", "text", "_startLineOffset")}
            line_range = _adjust(find_line_range(content, query_tokens, self.tokenize_options), meta)
            result = {"id": doc_id, "content": content, "score": r["score"]}
            if line_range is not None:
                result["lineRange"] = line_range
            if rest:
                result["metadata"] = {k: v for k, v in rest.items() if v is not UNDEFINED}
            result["scoreDetails"] = {"vector": r["score"]}
            out.append(result)
        return out

    def search_hybrid(self, query: str, top_k, min_score=None, vector_weight=0.5, flt=None) -> list[dict]:
        expanded = min(top_k * 2, 50)
        vector_results = self.search_vector(query, expanded, None, flt)
        bm25_results = _normalize(self.search_bm25(query, expanded, None))
        bm25_map = {r["id"]: r for r in bm25_results}
        vector_map = {r["id"]: r for r in vector_results}
        all_ids = dict.fromkeys([*vector_map, *bm25_map])
        bm25_weight = 1 - vector_weight
        combined = []
        for doc_id in all_ids:
            v, b = vector_map.get(doc_id), bm25_map.get(doc_id)
            v_score = v["scoreDetails"]["vector"] if v else 0
            b_score = b["score"] if b else 0
            base = v or b
            result = {"id": doc_id, "content": base["content"], "score": vector_weight * v_score + bm25_weight * b_score}
            line_range = (b or {}).get("lineRange") or (v or {}).get("lineRange")
            if line_range is not None:
                result["lineRange"] = line_range
            if base.get("metadata") is not None:
                result["metadata"] = base["metadata"]
            details = {}
            if v:
                details["vector"] = v["scoreDetails"]["vector"]
            if b:
                details["bm25"] = b["scoreDetails"]["bm25"]
            result["scoreDetails"] = details
            combined.append(result)
        combined.sort(key=lambda r: -r["score"])
        if min_score is not None:
            combined = [r for r in combined if r["score"] >= min_score]
        return combined[:_js_slice_end(top_k)]


def _normalize(results: list[dict]) -> list[dict]:
    """Min-max normalization of BM25 scores to 0..1 (all 1 when they are equal)."""
    if not results:
        return results
    scores = [r["scoreDetails"]["bm25"] for r in results]
    high, low = max(scores), min(scores)
    span = high - low
    if span == 0:
        return [{**r, "score": 1} for r in results]
    return [{**r, "score": (s - low) / span} for r, s in zip(results, scores)]


def _group_size(embedder) -> int:
    """resolveEmbedGroupSize: a declared size that Number.isFinite refuses (not a number, a boolean
    included, NaN, an infinity) or below 1 falls back to 256."""
    declared = getattr(embedder, "max_batch_size", None)
    if declared is None or isinstance(declared, bool) or not isinstance(declared, (int, float)) \
            or declared != declared \
            or declared in (float("inf"), float("-inf")) or declared < 1:
        return 256
    return int(declared // 1)


def _adjust(line_range, metadata):
    if line_range is None:
        return None
    offset = (metadata or {}).get("_startLineOffset")
    if not isinstance(offset, (int, float)) or isinstance(offset, bool):
        return line_range
    return {"start": line_range["start"] + offset - 1, "end": line_range["end"] + offset - 1}
