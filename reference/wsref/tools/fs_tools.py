"""The filesystem tools after read_file, in the upstream's order, with how each is wrapped."""
from __future__ import annotations


def slots(options: dict | None = None):
    """options: createWorkspaceTools' third argument, e.g. {"grep": {"strict": True}}."""
    from . import Slot
    from .delete import TOOL as delete
    from .edit_file import TOOL as edit_file
    from .file_stat import TOOL as file_stat
    from .grep import TOOL as default_grep
    from .grep import create_grep_tool
    from .list_files import TOOL as list_files
    from .mkdir import TOOL as mkdir
    from .write_file import TOOL as write_file

    out = [
        Slot(write_file, needs_write=True, tracker="write", write_lock=True),
        Slot(edit_file, needs_write=True, tracker="write", write_lock=True),
        Slot(list_files),
        Slot(delete, needs_write=True, write_lock=True),
        Slot(file_stat),
        Slot(mkdir, needs_write=True),
        Slot(create_grep_tool(**(options or {}).get("grep", {})) if (options or {}).get("grep") else default_grep),
    ]
    from . import ast_edit
    if ast_edit.engine_available():
        out.append(Slot(ast_edit.TOOL, needs_write=True, tracker="write", write_lock=True))
    return out
