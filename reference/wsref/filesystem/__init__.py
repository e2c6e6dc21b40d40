"""filesystem/: the local filesystem, its path rules and mime table, the read tracker and the write lock."""
from .local_filesystem import FileStat, LocalFilesystem

__all__ = ["FileStat", "LocalFilesystem"]
