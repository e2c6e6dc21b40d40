"""What the commands share: the spec they read, the port's configured options, an ids file."""
from __future__ import annotations

import sys
from pathlib import Path

from ..spec.loader import load_spec
from ..spec.resources import pages_dir

PAGES_DIR = pages_dir()


def spec_of(args):
    spec = load_spec(args.spec)
    return spec


def read_ids_file(path, spec):
    """The ids a file lists (plugin.read_ids), or None after printing why they cannot be read."""
    import pytest

    from ..session.plugin import read_ids
    try:
        return set(read_ids(path, spec))
    except pytest.UsageError as exc:
        print(f"wsconf: {exc}", file=sys.stderr)
        return None


def configured(args, key: str, default=None):
    """A run option: the command line, else the port's config file, else the default."""
    value = getattr(args, key, None)
    if value is not None:
        return value
    return args.config.get(key, default) if args.config else default


def write_output(output: str, text: str, said: str) -> None:
    """text to stdout (output "-") or into the file output, then `wrote <file><said>` on stderr."""
    if output == "-":
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")
        print(f"wrote {output}{said}", file=sys.stderr)
