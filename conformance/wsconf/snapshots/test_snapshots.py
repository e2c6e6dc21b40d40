"""list_files, grep and long command output over a realistic repository, against snapshots."""
from __future__ import annotations

import pytest

CALLS = {
    "list_files_root": ("mastra_workspace_list_files", {"path": "."}),
    "list_files_deep": ("mastra_workspace_list_files", {"path": ".", "maxDepth": 10}),
    "list_files_hidden_no_gitignore": ("mastra_workspace_list_files",
                                       {"path": ".", "maxDepth": 10, "showHidden": True, "respectGitignore": False}),
    "list_files_ts_glob": ("mastra_workspace_list_files", {"path": "src", "pattern": "**/*.ts", "maxDepth": 10}),
    "list_files_dirs_only": ("mastra_workspace_list_files", {"path": ".", "dirsOnly": True, "maxDepth": 10}),
    "grep_todo": ("mastra_workspace_grep", {"pattern": "TODO|FIXME"}),
    "grep_throw_context": ("mastra_workspace_grep", {"pattern": "throw new Error", "contextLines": 2}),
    "grep_ts_glob_case_insensitive": ("mastra_workspace_grep", {"pattern": "ERROR", "path": "src/**/*.ts",
                                                                "caseSensitive": False}),
    "grep_regex_functions": ("mastra_workspace_grep", {"pattern": "function\\s+\\w+\\(", "path": "{src,lib}/**/*.ts"}),
    "exec_long_output": ("mastra_workspace_execute_command", {"command": "seq 1 500 | sed 's/^/line /'", "tail": 0}),
    "exec_default_tail": ("mastra_workspace_execute_command", {"command": "seq 1 500"}),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_snapshot(name, repo_workspace, snapshot_text):
    session, root = repo_workspace
    tool, args = CALLS[name]
    result = session.call(tool, args)
    assert result["kind"] == "text", result
    assert result["value"].replace(root, "{{root}}") == snapshot_text
