"""The sandbox tools: execute_command (with or without background), get_process_output, kill_process."""
from __future__ import annotations


def slots(sandbox):
    return []  # filled in with the sandbox tools
