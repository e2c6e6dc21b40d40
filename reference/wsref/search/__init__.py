"""search/: BM25 and the search engine over it."""
from .bm25 import BM25Index, tokenize
from .search_engine import UNDEFINED, SearchEngine, SearchError, split_into_chunks

__all__ = ["BM25Index", "SearchEngine", "SearchError", "UNDEFINED", "split_into_chunks", "tokenize"]
