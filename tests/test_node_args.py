"""wsref.js.node_args answers as Node 20 does (checked live against node on generated strings): the
ERR_INVALID_ARG_VALUE messages of fs and child_process.spawn, the UTF-8 Node hands the system and
reads back, the order `for...in` gives an object's keys; and js.strings' Number::toString."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess

import pytest

from wsref.js import node_args
from wsref.js.strings import js_number, to_well_formed

PIECES = ["a", "b", " ", "\n", "\r\n", "\t", "\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9f", "\xa0", "'", '"', "`",
          "${", "\\", "\u00e9", "e\u0301", "\u4e2d", "\U0001F600", "\ud800", "\udbff", "\udc00", "\udc80",
          "\udcff", "\udfff", "\ude00\ud83d", "x" * 40, "/", "-", "\u2028", "\ufffd", "\ufeff"]


def strings(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    out = ["", "\x00", "a\x00b", "\ud800", "x" * 200 + "\x00", "a\nb" * 60, "'\"`${"]
    while len(out) < n:
        out.append("".join(rng.choice(PIECES) for _ in range(rng.randint(1, rng.choice([4, 12, 40])))))
    return out


NODE = r"""
const fs = require('fs'), cp = require('child_process');
const {strings, bytes, keys, numbers} = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const message = f => { try { f(); return null; } catch (e) { return e.code === 'ERR_INVALID_ARG_VALUE' ? [e.name, e.code, e.message] : null; } };
const out = strings.map(s => ({
  stat: message(() => fs.statSync('/nonexistent/' + s)),
  copy: message(() => fs.copyFileSync('/nonexistent', s)),
  file: message(() => cp.spawn(s, [], {shell: true, cwd: '\0'})),
  arg: message(() => cp.spawn('/bin/true', ['ok', s], {cwd: '\0'})),
  cwd: message(() => cp.spawn('/bin/true', [], {cwd: s, env: {Z: '\0'}})),
  envKey: message(() => cp.spawn('/bin/true', [], {env: {[s]: 'v', Z: '\0'}})),
  envValue: message(() => cp.spawn('/bin/true', [], {env: {K: s, Z: '\0'}})),
  utf8: Buffer.from(s, 'utf8').toString('hex'),
}));
const decoded = bytes.map(h => Buffer.from(h, 'hex').toString('utf8'));
const ordered = keys.map(k => Object.keys(Object.fromEntries(k.map(x => [x, 1]))));
const printed = numbers.map(x => String(x));
process.stdout.write(JSON.stringify({out, decoded, ordered, printed}));
"""


def _message(fn):
    try:
        fn()
        return None
    except node_args.NodeArgError as exc:
        return ["TypeError", exc.code, exc.message]


def ours(s: str) -> dict:
    spawn = node_args.spawn_arguments
    return {
        "stat": _message(lambda: node_args.fs_path("/nonexistent/" + s)),
        "copy": _message(lambda: node_args.fs_path(s, "dest")),
        "file": _message(lambda: spawn(s, [], "\0", {})),
        "arg": _message(lambda: spawn("/bin/true", ["ok", s], "\0", {})),
        "cwd": _message(lambda: spawn("/bin/true", [], s, {"Z": "\0"})),
        "envKey": _message(lambda: spawn("/bin/true", [], None, {s: "v", "Z": "\0"})),
        "envValue": _message(lambda: spawn("/bin/true", [], None, {"K": s, "Z": "\0"})),
        "utf8": to_well_formed(s).encode("utf-8").hex(),
    }


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: nothing to compare against")
def test_argument_checks_and_conversions_match_node():
    generated = strings(36, 1500)
    rng = random.Random(7)
    raw = [bytes(rng.choice([0x41, 0x80, 0xBF, 0xC3, 0xA9, 0xE4, 0xB8, 0xAD, 0xF0, 0x9F, 0x98, 0x80, 0xFF, 0xED, 0xA0])
                 for _ in range(rng.randint(1, 8))) for _ in range(500)]
    keys = [[rng.choice(["b", "a", "0", "10", "2", "01", "-1", "4294967294", "4294967295", "1.5", "PATH", "\u0663"])
             for _ in range(rng.randint(1, 6))] for _ in range(300)]
    keys = [list(dict.fromkeys(k)) for k in keys]
    numbers = [rng.choice([1, -1]) * rng.random() * 10 ** rng.randint(-330, 308) for _ in range(2000)]
    numbers += [0.1, 1e-7, 1e-6, 1e21, 1e20, 5e-324, 2**53, 2**53 + 2, 123.456, 100.0, -0.0, 1.7976931348623157e308]
    # Each spawn is given a later argument with a NUL, so that nothing starts when the one under
    # test passes: every spawn throws, and the message says which check refused it.
    proc = subprocess.run(["node", "-e", NODE], input=json.dumps({"strings": generated, "bytes": [b.hex() for b in raw],
                                                                 "keys": keys, "numbers": numbers}),
                          capture_output=True, text=True, check=True, timeout=120)
    node = json.loads(proc.stdout)
    # Through JSON, as node's answers came: a high and a low surrogate side by side are one character.
    mismatches = [(s, field, theirs[field], mine[field]) for s, theirs in zip(generated, node["out"])
                  for mine in [json.loads(json.dumps(ours(s)))] for field in theirs if theirs[field] != mine[field]]
    assert not mismatches, f"{len(mismatches)} differ, the first: {mismatches[:3]!r}"
    assert [node_args.from_system(os.fsdecode(b)) for b in raw] == node["decoded"]
    assert [node_args.for_in_order(dict.fromkeys(k)) for k in keys] == node["ordered"]
    assert [js_number(x) for x in numbers] == node["printed"]


def test_a_path_with_a_nul_is_refused_with_its_argument_name():
    with pytest.raises(node_args.NodeArgError) as err:
        node_args.fs_path("/r/a\x00b", "oldPath")
    assert err.value.message == ("The argument 'oldPath' must be a string, Uint8Array, or URL without null bytes. "
                                 "Received '/r/a\\x00b'")
    assert err.value.code == "ERR_INVALID_ARG_VALUE" and err.value.js_name == "TypeError"


def test_lone_surrogates_become_the_replacement_character_and_pairs_join():
    assert to_well_formed("a\ud800b\udc80") == "a\ufffdb\ufffd"
    assert to_well_formed("\ud83d" + "\ude00") == "\U0001F600"   # two code points in Python, one pair in JS
    assert node_args.from_system(os.fsdecode(b"bad\xff.txt")) == "bad\ufffd.txt"


def test_spawn_checks_come_in_nodes_order():
    with pytest.raises(node_args.NodeArgError, match="The argument 'file' cannot be empty"):
        node_args.spawn_arguments("", [], "/a\x00", {"K": "\x00"})
    with pytest.raises(node_args.NodeArgError, match="The property 'options.cwd'"):
        node_args.spawn_arguments("echo", [], "/a\x00", {"K": "\x00"})
    with pytest.raises(node_args.NodeArgError, match=r"The property 'options.env\['K'\]' must be a string without"):
        node_args.spawn_arguments("echo", [], "/a", {"0": "ok", "K": "\x00"})
    assert node_args.spawn_arguments("e\ud800", [], None, {"b": "1", "10": "\udc80", "A=B": "v"}) == (
        "e\ufffd", [], None, ["10=\ufffd", "b=1", "A=B=v"])
