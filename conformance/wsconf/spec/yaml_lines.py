"""Load YAML as plain data while remembering the line of every key and item.

Error messages must name file, line and key; jsonschema reports a path into the data, so we
keep a map from that path (a tuple of keys and indexes) to the 1-based line it came from.
"""
from __future__ import annotations

import yaml

Path = tuple  # a path into the data: keys (str) and list indexes (int)


class LineMap(dict):
    """path -> 1-based line. `line_of` falls back to the nearest enclosing node."""

    def line_of(self, path) -> int:
        path = tuple(path)
        while path and path not in self:
            path = path[:-1]
        return self.get(path, 1)


def _build(node, path, lines: LineMap, join_pairs: bool = False):
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.YAMLError(f"line {key_node.start_mark.line + 1}: keys must be plain scalars")
            key = yaml.SafeLoader.construct_scalar(_SCALAR_LOADER, key_node)
            if join_pairs:
                key = _pairs_joined(key)
            if key in out:
                raise yaml.YAMLError(f"line {key_node.start_mark.line + 1}: duplicate key {key!r}")
            out[key] = _build(value_node, path + (key,), lines, join_pairs)
            lines[path + (key,)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), lines, join_pairs) for i, item in enumerate(node.value)]
    value = _SCALAR_LOADER.construct_object(node, deep=True)
    return _pairs_joined(value) if join_pairs and isinstance(value, str) else value


_SCALAR_LOADER = yaml.SafeLoader("")


# libyaml composes ~15x faster than PyYAML's Python composer, but refuses escapes of lone
# surrogates ("\uD800"), which some cases need; those files (and bad YAML, for PyYAML's message)
# go through the Python composer. Both give the same nodes and marks.
_FAST_LOADER = getattr(yaml, "CSafeLoader", None)


def _compose(text: str):
    """(node, whether it may hold surrogates): only PyYAML's composer lets them through."""
    if _FAST_LOADER is not None:
        try:
            return yaml.compose(text, Loader=_FAST_LOADER), False
        except yaml.YAMLError:
            pass
    return yaml.compose(text, Loader=yaml.SafeLoader), True


def _pairs_joined(text: str) -> str:
    """A string as JavaScript reads it: an escaped high and low surrogate side by side
    ("\\uD83D\\uDE00") are one character (the emoji), as JSON.parse makes them for the upstream,
    while a lone surrogate stays one."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return text


def load_with_lines(text: str):
    """Return (data, LineMap). Raises yaml.YAMLError with a line number on bad YAML."""
    node, may_hold_surrogates = _compose(text)
    lines = LineMap()
    if node is None:
        return None, lines
    return _build(node, (), lines, join_pairs=may_hold_surrogates), lines
