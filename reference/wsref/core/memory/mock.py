"""MockMemory's message history, as an agent run on a thread sees it (capability task_signals).

Upstream: @mastra/core src/memory/mock.ts (1.71.0) with the agent's message saving and loading,
modelled on what a run shows, not ported. A thread keeps its messages in storage format, one
entry per message: the run's prompt (user), each state signal (signal), and the assistant's
content of consecutive steps merged into one message until a signal comes between them. A run's
first model call is shown the last LAST_MESSAGES of them (lastMessages 10, MockMemory's default),
expanded into model messages: a signal as a user message with its markup, an assistant message
step by step: its texts and tool calls, then a tool message with the results. The window's tool
invocations also come first in the run's message list. A run's calls need ids of their own
(the `agent` op's callPrefix): one id in the history and in the run is not modelled.
"""
from __future__ import annotations

from ..agent.signals import signal_to_llm_text

LAST_MESSAGES = 10


class ThreadHistory:
    """The stored messages of one thread, and the ones a run adds (kept when the run ends)."""

    def __init__(self, stored: list[dict]):
        self.stored = stored
        self.window = list(stored[-LAST_MESSAGES:])
        self.added: list[dict] = []

    def add_user(self, text: str) -> None:
        self.added.append({"role": "user", "text": text})

    def add_signal(self, signal: dict) -> None:
        self.added.append({"role": "signal", "signal": signal})

    def add_step(self, texts: list[str], calls: list[tuple[str, str]]) -> None:
        """One model step's output: its texts and its tool calls (toolCallId, toolName)."""
        step = {"texts": list(texts), "calls": list(calls)}
        if self.added and self.added[-1]["role"] == "assistant":
            self.added[-1]["steps"].append(step)
        else:
            self.added.append({"role": "assistant", "steps": [step]})

    def window_invocations(self) -> list[dict]:
        """The tool invocations of the window's assistant messages (the message list's, before the run's)."""
        return [dict(inv) for m in self.window if m["role"] == "assistant"
                for step in m["steps"] for inv in step.get("invocations", [])]

    def window_signals(self) -> list[dict]:
        return [m["signal"] for m in self.window if m["role"] == "signal"]

    def save(self, invocations: list[dict]) -> None:
        """Keep the run's messages, each step with the invocations of its calls."""
        by_id = {inv["toolCallId"]: inv for inv in invocations}
        for message in self.added:
            for step in message.get("steps", []):
                step["invocations"] = [dict(by_id[i]) for i, _ in step["calls"] if i in by_id]
        self.stored.extend(self.added)
        self.added = []


def model_view(messages: list[dict]) -> list[dict]:
    """Stored messages as the model is shown them, each {role, content} (the bridge's history view)."""
    out: list[dict] = []
    for message in messages:
        if message["role"] == "user":
            out.append({"role": "user", "content": [message["text"]]})
        elif message["role"] == "signal":
            out.append({"role": "user", "content": [signal_to_llm_text(message["signal"])]})
        else:
            for step in message["steps"]:
                content = list(step["texts"]) + [{"toolCall": i, "toolName": n} for i, n in step["calls"]]
                if content:
                    out.append({"role": "assistant", "content": content})
                if step["calls"]:
                    out.append({"role": "tool", "content": [{"toolResult": i, "toolName": n} for i, n in step["calls"]]})
    return out
