"""The host search objects a case can name (spec/protocol.md, "Host search objects").

`{"$store": "memory"}` is an in-memory vector store (cosine similarity, computed in index order,
0 for an all-zero vector) and `{"$embedder": "letters", "batch"?: true, "maxBatchSize"?: n, "dropLast"?: n}` an
embedder counting the letters a-z of the lowercased text. Both log to the session's hook log
exactly what the bridge's copies (tools/mastra-bridge/lib/host-search.mjs) log.
"""
from __future__ import annotations

import math

from ..search import UNDEFINED


def _matches(meta: dict, flt) -> bool:
    if not flt:
        return True
    for key, cond in flt.items():
        if key == "$and":
            if not all(_matches(meta, f) for f in cond):
                return False
        elif isinstance(cond, dict) and "$exists" in cond:
            present = meta.get(key, UNDEFINED) is not UNDEFINED
            if present != cond["$exists"]:
                return False
        elif meta.get(key, UNDEFINED) != cond:
            return False
    return True


def cosine(a, b) -> float:
    dot = na = nb = 0
    for x, y in zip(a, b):
        dot += x * y
        na += x * x
        nb += y * y
    if na == 0 or nb == 0:
        return 0
    return dot / (math.sqrt(na) * math.sqrt(nb))


class MemoryVectorStore:
    """Options (spec/protocol.md): logWrites, createIndexThrows: n, upsertFails: n."""

    def __init__(self, log: list, options: dict | None = None):
        self.log = log
        self.indexes: dict[str, dict[str, dict]] = {}
        self.options = dict(options or {})
        self._create_index_calls = 0
        self._upsert_calls = 0

    def create_index(self, index_name: str, dimension: int) -> None:
        self._create_index_calls += 1
        if self.options.get("logWrites"):
            self.log.append({"hook": "vectorStore.createIndexCall", "indexName": index_name, "dimension": dimension})
        if index_name not in self.indexes:
            self.indexes[index_name] = {}
            self.log.append({"hook": "vectorStore.createIndex", "indexName": index_name, "dimension": dimension})
        if self._create_index_calls <= int(self.options.get("createIndexThrows") or 0):
            raise Exception(f"Index {index_name} already exists")

    def _index(self, name: str) -> dict:
        if name not in self.indexes:
            raise ValueError(f"Index {name} does not exist")
        return self.indexes[name]

    def upsert(self, index_name: str, vectors, metadata, ids) -> None:
        self._upsert_calls += 1
        if self.options.get("logWrites"):
            self.log.append({"hook": "vectorStore.upsert", "indexName": index_name, "ids": list(ids)})
        if self._upsert_calls <= int(self.options.get("upsertFails") or 0):
            raise Exception("upsert failed")
        entries = self._index(index_name)
        for i, doc_id in enumerate(ids):
            entries.pop(doc_id, None)
            entries[doc_id] = {"vector": vectors[i], "metadata": metadata[i]}

    def query(self, index_name: str, query_vector, top_k=10, flt=None) -> list[dict]:
        entries = self._index(index_name)
        results = [{"id": doc_id, "score": cosine(query_vector, e["vector"]), "metadata": dict(e["metadata"])}
                   for doc_id, e in entries.items() if _matches(e["metadata"], flt)]
        results.sort(key=lambda r: -r["score"])
        self.log.append({"hook": "vectorStore.query", "indexName": index_name, "topK": top_k})
        return results[:top_k]

    def delete_vector(self, index_name: str, doc_id: str) -> None:
        self.indexes.get(index_name, {}).pop(doc_id, None)

    def delete_vectors(self, index_name: str, flt) -> None:
        entries = self.indexes.get(index_name)
        if entries is None:
            return
        for doc_id in [i for i, e in entries.items() if _matches(e["metadata"], flt)]:
            del entries[doc_id]


def letters(text: str) -> list[int]:
    v = [0] * 26
    for ch in text.lower():
        c = ord(ch) - 97
        if 0 <= c < 26:
            v[c] += 1
    return v


class LetterEmbedder:
    """Single-text (text -> vector) or, with batch: true, batch (texts -> vectors)."""

    def __init__(self, spec: dict, log: list):
        self.log = log
        self.batch = spec.get("batch") is True
        size = spec.get("maxBatchSize")
        self.max_batch_size = float("nan") if size == "NaN" else size  # "NaN": the number (JSON has none)
        self.drop_last = spec.get("dropLast") or 0  # a batch embedder that answers short

    def __call__(self, arg):
        if self.batch:
            self.log.append({"hook": "embedder", "texts": list(arg)})
            return [letters(t) for t in arg][:max(len(arg) - self.drop_last, 0)]
        self.log.append({"hook": "embedder", "text": arg})
        return letters(arg)


def build(kind: str, spec, log: list):
    if kind == "vectorStore":
        if not (isinstance(spec, dict) and spec.get("$store") == "memory"):
            raise ValueError('workspace.vectorStore must be {"$store": "memory"}')
        return MemoryVectorStore(log, {k: v for k, v in spec.items() if k != "$store"})
    if not (isinstance(spec, dict) and spec.get("$embedder") == "letters"):
        raise ValueError('workspace.embedder must be {"$embedder": "letters", ...}')
    return LetterEmbedder(spec, log)
