#!/usr/bin/env python3
"""Generate fixtures/tokenx/cases.json from the real tokenx 1.3.0 (oracle.mjs).

Usage (from the repository root, after `npm install` in tools/tokenx-oracle):

    .venv/bin/python tools/tokenx-oracle/make_fixtures.py

Deterministic: the inputs are hand-picked edge cases plus seeded pseudo-random
mixtures, and every expected value comes from the JavaScript oracle.  The output
is UTF-8 JSON; lone surrogates (from slices that cut a surrogate pair, or
deliberate lone-surrogate inputs) are written as \\udXXX escapes, which
json.loads reads back as lone surrogate code points.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = ROOT / "fixtures" / "tokenx" / "cases.json"


class Oracle:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            ["node", str(HERE / "oracle.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=HERE,
        )

    def query(self, text: str, start, end) -> dict:
        line = json.dumps({"text": text, "start": start, "end": end}) + "\n"
        self.proc.stdin.write(line.encode("ascii"))
        self.proc.stdin.flush()
        res = json.loads(self.proc.stdout.readline().decode("utf-8"))
        if "error" in res:
            raise RuntimeError(res["error"])
        return res

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()
        self.proc.stdout.close()


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

TS_SOURCE = r'''import { estimateTokenCount } from 'tokenx';
import type { WorkspaceFilesystem, FileStat } from '../filesystem';

export const DEFAULT_MAX_OUTPUT_TOKENS = 2_000;
const ANSI_RE = /\x1b\[[0-9;]*m/g;

/**
 * Truncate tool output to a token budget, keeping the tail (most recent lines).
 * @param output  raw stdout/stderr of the command
 * @param limit   maximum number of tokens (default: 2000)
 */
export function truncateOutput(output: string, limit = DEFAULT_MAX_OUTPUT_TOKENS): string {
  const clean = output.replace(ANSI_RE, '');
  const total = estimateTokenCount(clean);
  if (total <= limit) return clean;
  const lines = clean.split('\n');
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const cost = estimateTokenCount(lines[i]!) + 1;
    if (used + cost > limit) break;
    kept.unshift(lines[i]!);
    used += cost;
  }
  return `[... ${lines.length - kept.length} lines truncated (~${total - used} tokens) ...]\n` + kept.join('\n');
}

export async function listDir(fs: WorkspaceFilesystem, path: string, depth = 2): Promise<FileStat[]> {
  const out: FileStat[] = [];
  const walk = async (p: string, d: number) => {
    for (const entry of await fs.readdir(p)) {
      const full = p === '/' ? `/${entry.name}` : `${p}/${entry.name}`;
      out.push({ ...entry, path: full });
      if (entry.type === 'directory' && d > 1 && !entry.name.startsWith('.')) await walk(full, d - 1);
    }
  };
  await walk(path, depth);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

// 0x7FFF_FFFF, 1e-9, 3.14159, 1,234,567.89 and other numeric literals
export const LIMITS = { maxInt: 0x7fffffff, eps: 1e-9, pi: 3.14159, big: 1_234_567.89 } as const;
'''

PY_SOURCE = r'''from __future__ import annotations

import dataclasses
import pathlib
import re
from typing import Iterator

_LINE_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<body>.*?)(?P<nl>\r?\n)?$")


@dataclasses.dataclass(frozen=True)
class Match:
    path: pathlib.PurePosixPath
    line_no: int
    text: str

    def render(self, width: int = 120) -> str:
        head = f"{self.path}:{self.line_no}: "
        body = self.text if len(self.text) <= width else self.text[: width - 1] + "\u2026"
        return head + body


def grep(root: pathlib.Path, pattern: str, *, ignore_case: bool = False) -> Iterator[Match]:
    """Yield every line under *root* matching *pattern* (like `grep -rn`)."""
    flags = re.IGNORECASE if ignore_case else 0
    rx = re.compile(pattern, flags)
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        try:
            data = file.read_text(encoding="utf-8")
        except (UnicodeDecodeError, PermissionError):
            continue
        for n, line in enumerate(data.splitlines(), start=1):
            if rx.search(line):
                yield Match(pathlib.PurePosixPath(file.relative_to(root)), n, line)


if __name__ == "__main__":  # pragma: no cover
    import sys
    for m in grep(pathlib.Path(sys.argv[1]), sys.argv[2]):
        print(m.render())
'''

MARKDOWN = """# Workspace tools — Übersicht / Aperçu

> **Note:** `read_file` truncates output at ~2,000 tokens (≈ 8 KB).

| Tool | Beschreibung | Description |
|------|--------------|-------------|
| `read_file` | Liest eine Datei – größte Dateien werden gekürzt | Lit un fichier (très long → tronqué) |
| `grep` | Durchsucht Dateien | Recherche « regex » |
| `execute_command` | Führt Befehle aus | Exécute des commandes |

## Beispiele 例 예시

1. `ls -la /workspace/src/**/*.ts`
2. Read [the docs](https://mastra.ai/docs/workspace?tab=tools#read-file).
3. 中文说明：工作区工具用于读取、写入和搜索文件。
4. 日本語：ワークスペースのファイルを読み書きします。
5. 한국어: 작업 공간 파일을 읽고 씁니다.
6. Emoji: ✅ done, ❌ failed, 🚀 deployed, 👩‍💻 coder, 🇩🇪 flag.

```json
{"path": "/workspace/README.md", "offset": 1, "limit": 200, "ok": true}
```

- [x] Příliš žluťoučký kůň úpěl ďábelské ódy.
- [ ] Łódź, Kraków, Gdańsk — zażółć gęślą jaźń.
"""

HAND = [
    # empty / whitespace
    "", " ", "  ", "   ", "    ", "\t", "\n", "\r\n", " \t\n\r\x0b\x0c ", "\n\n\n\n\n\n",
    "\u00a0", "\u00a0\u00a0\u00a0\u00a0", "\ufeff", "\ufeffhello", "\u3000", "\u3000\u3000中",
    "\u2028\u2029", "\u1680", "\u2000\u2005\u200a", "\u202f\u205f", "\u200b", "\u200b\u200b\u200b\u200b",
    "\u180e", "a\u180eb\u180ec\u180ed", "\x1c", "\x1c\x1d\x1e\x1f", "abc\x1cdef\x1dghi", "\x85",
    "word\x85word", "a\u00a0b\u00a0c", "abcd\u00a0efgh", "abcd\ufeffefgh", "abcd\u200befgh\u200bijkl",
    # numbers
    "0", "1", "12", "123", "1234", "12345", "123456789", "12345678901234567890",
    "1,234.56", "1,234,567.89", "1.2.3.4", "1,,2", "1..2", "-1234", "+1234", "3.14159",
    "1e10", "1e-10", "0x1F", "0xDEADBEEF", "1_000_000", "12ab", "ab12", "1234abcd",
    "١٢٣", "١٢٣٤٥٦", "٣.١٤", "１２３４", "１２３", "²³", "½¼¾", "ⅫⅫⅫⅫ", "०१२३४५६७", "1,234 5,678",
    # punctuation runs
    ".", "..", "...", "....", ".....", "......", "!", "!!", "!!!", "!!!!", "!!!!!!!!!!!",
    "--", "---", "----", "-----", "===>", "<!-- -->", "<<<<>>>>", "{{}}", "[[[]]]",
    "$$$$$$$", "@@@@", "#####", "%%%%%", "^^^^^^", "&&&&", "****", "++++", "____", "````",
    "~~~~", "||||", "\\\\\\\\", "////", "::::", ";;;;", "????", "(((())))", ",,,,",
    '""""', "''''", '"quoted"', "'single'", "«»«»", "……", "——", "––––", "•••••",
    "a.b", "a..b", "a...b", "end.", "end...", "...start", "x=1;y=2;", "a->b=>c",
    # CJK / Hangul / Japanese
    "中", "中文", "中文字", "中文字符", "中文字符测试", "这是一个测试句子，用于验证分词。",
    "日本語のテキスト", "カタカナ", "ひらがな", "ひらがなだけのぶんしょう", "ｶﾀｶﾅ", "ＡＢＣＤ",
    "한국어", "안녕하세요 세계", "안녕하세요세계입니다", "ㄱㄴㄷㄹ", "ᄀᄁᄂᄃ", "ꥠꥡꥢꥣ", "ힰힱힲힳ",
    "⺀⺁⺂⺃", "㈀㈁㈂㈃", "㌀㌁", "〇〇〇〇", "「引用」", "〜〜〜〜", "、。", "，．！？",
    "𠀀", "𠀀𠀁", "𠀀𠀁𠀂𠀃𠀄", "中𠀀", "中𠀀𠀁文", "中😀", "😀中😀", "中\ud800文", "中\udc00\ud800文",
    "中\ud83d\ude00", "Hello, 世界!", "abc中def", "中abcdefghijkl", "test测试test",
    # emoji / astral
    "😀", "😀😀", "😀😀😀", "😀😀😀😀", "😀😀😀😀😀😀😀😀😀😀", "a😀b", "😀 😀", "😀.😀",
    "👨‍👩‍👧‍👦", "👩‍💻👩‍💻", "🇩🇪🇫🇷", "✅❌🚀", "❤️❤️", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𝟘𝟙𝟚𝟛",
    "abcdefgh😀😀😀😀😀😀😀😀", "😀abcdefghijkl😀", "x😀x😀x😀x😀x😀",
    # lone surrogates (the JS string holds them as-is)
    "\ud800", "\udc00", "\udbff\udbff", "\udc00\ud800", "a\ud800b", "abcd\ud800efgh", "\ud83d\ude00",
    "\ud83d", "\ude00\ude00\ude00\ude00",
    # German / French / Czech / Polish and the /i quirks
    "Größe", "GRÖSSE", "straße", "STRAẞE", "Straßenbahn", "ßßßß", "ẞẞẞẞ", "ßẞßẞ", "ÄÖÜ", "Ääää",
    "Übermensch", "über", "Zürich", "Donaudampfschifffahrtsgesellschaftskapitän", "Fußgängerübergänge",
    "ÿes", "Ÿes", "ŸESSS", "ÿÿÿÿ", "ŸŸŸŸ", "naïve", "naïveté", "café", "CAFÉ", "façade", "FAÇADE",
    "garçon", "Œuvre", "œuvre", "Æsir", "æther", "Ñandú", "résumé", "RÉSUMÉ", "élève", "hôtel",
    "Čeština", "čeština", "příliš žluťoučký kůň úpěl ďábelské ódy", "PŘÍLIŠ ŽLUŤOUČKÝ KŮŇ",
    "łódź", "Łódź", "ŁÓDŹ", "zażółć gęślą jaźń", "ąęćń", "ĄĘĆŃ", "ďťň", "ĎŤŇ", "ůůůů", "ŮŮŮŮ",
    "ſſſſ", "µµµµ", "ſtraße", "Kelvin", "\u212aelvin", "ıiİI", "Ωmega", "Ĳssel", "ﬁnance",
    "àâéèêëîïôûù", "ÀÂÉÈÊËÎÏÔÛÙ", "ÁÍÓÚ", "áíóú", "ÃÕ", "ãõãõ", "Ééé", "ēīōū", "ĀĪŌŪ",
    "Ååå", "øøøø", "ØØØØ", "þðþð", "×÷×÷", "¡¿¡¿",
    # other scripts
    "Привет мир", "Привет", "Ελληνικά", "עברית", "العربية", "हिन्दी", "ไทยไทยไทย", "Tiếng Việt",
    "Ǆǅǆ", "ΣΑΣ σας",
    # long words
    "a" * 100, "supercalifragilisticexpialidocious", "x" * 1000, "ab" * 37, "é" * 50, "ł" * 50,
    "ß" * 31, "中" * 200, "😀" * 101, "1" * 500, "." * 101, "-" * 80, " " * 300,
    "pneumonoultramicroscopicsilicovolcanoconiosis",
    # code / urls / paths
    "const x = 42;", "function foo(a, b) { return a + b; }", "if (a && b || !c) {}",
    "x => x * 2", "obj?.prop ?? 'default'", "arr.map((v, i) => v[i])",
    "def f(x):\n    return x ** 2\n", "SELECT * FROM users WHERE id = 1;",
    "https://example.com/path/to/page?query=1&b=2#frag", "mailto:user@example.com",
    "C:\\Users\\foo\\Documents\\file.txt", "/usr/local/bin/node", "~/.config/mastra/settings.json",
    "<div class=\"a\">Hello</div>", "{\"key\": \"value\", \"n\": 1}", "camelCaseIdentifierName",
    "snake_case_identifier_name", "SCREAMING_SNAKE_CASE", "kebab-case-identifier", "v1.2.3-beta.4",
    "2024-01-15T10:30:00Z", "192.168.0.1", "#!/usr/bin/env bash", "\x1b[31mred\x1b[0m",
    "tab\tseparated\tvalues", "line1\nline2\nline3", "crlf\r\nline\r\n",
    # markdown
    "# Heading", "## Sub heading", "**bold** and *italic*", "- [ ] todo\n- [x] done",
    "> quote", "`code`", "```\ncode block\n```", "[link](http://x.y)", "| a | b |\n|---|---|",
]

BIG = [
    ("ts_source", TS_SOURCE),
    ("py_source", PY_SOURCE),
    ("markdown_multilingual", MARKDOWN),
]

ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789",
    " \t\n",
    ".,!?;:()[]{}<>/\\|@#$%^&*+=`~_-",
    "'\"«»…—",
    "äöüßẞÄÖÜ",
    "éèêëàâîïôûùÿŸçœæáíóúñ",
    "ąćęłńóśźżěščřžýůúďťňŁŚ",
    "中文字符测试日本語カタカナ",
    "ひらがな",
    "한국어안녕하세요",
    "😀🚀✅👩\u200d💻🇩🇪𝔘𠀀",
    "\u00a0\ufeff\u3000\u2028\x1c\x85\u200b\u180e",
    "١٢٣٤٥٦٧٨٩٠１２３",
    "ПриветΕλληνικά",
]


def random_text(rng: random.Random) -> str:
    alphas = rng.sample(ALPHABETS, rng.randint(1, 4))
    pool = "".join(alphas)
    out = []
    for _ in range(rng.randint(1, 60)):
        if rng.random() < 0.2:
            out.append(rng.choice(pool) * rng.randint(2, 12))
        else:
            out.append(rng.choice(pool))
    return "".join(out)


STANDARD_SLICES = [(0, None), (1, None), (0, 1), (1, 3), (-1, None), (-3, -1), (0, -2), (3, 2)]


def slice_specs(rng: random.Random, count: int, extra: int = 4) -> list:
    specs = list(STANDARD_SLICES)
    hi = max(count, 1) + 2
    for _ in range(extra):
        kind = rng.random()
        if kind < 0.4:
            s = rng.randint(0, hi)
            e = rng.choice([None, rng.randint(0, hi)])
        elif kind < 0.7:
            s = rng.randint(-hi, -1)
            e = rng.choice([None, rng.randint(-hi, hi)])
        else:
            s = rng.randint(-hi, hi)
            e = rng.randint(-hi, -1)
        specs.append((s, e))
    seen, out = set(), []
    for spec in specs:
        if spec not in seen:
            seen.add(spec)
            out.append(spec)
    return out


def window_specs(rng: random.Random, count: int, n: int = 5) -> list:
    """Small token windows only (keeps the fixture file small for long texts)."""
    specs = [(0, 3), (-3, None), (-9, -6)]
    for _ in range(n):
        s = rng.randint(0, count)
        specs.append((s, s + rng.randint(1, 6)))
    return specs


def surrogate_cut_cases() -> list:
    """Texts and slices chosen so that a cut lands inside a surrogate pair."""
    cases = []
    for n in (3, 5, 7, 11):
        text = "😀" * n
        cases.append(("emoji_run_%d" % n, text, [(0, k) for k in range(0, 4)] + [(k, None) for k in range(0, 4)]))
    text = "abcdefgh" + "😀" * 8
    cases.append(("ascii_then_emoji", text, [(0, 1), (1, None), (1, 2), (0, 2), (-1, None), (0, -1), (-2, -1)]))
    text = "𠀀中" * 10  # CJK segment: counts code points but slices code units
    cases.append(("cjk_astral_mix", text, [(0, k) for k in range(1, 8)] + [(k, None) for k in range(1, 8)] + [(-3, None), (2, -2)]))
    text = "x😀" * 20
    cases.append(("x_emoji_alternating", text, [(0, k) for k in range(1, 8)] + [(k, k + 1) for k in range(0, 8)]))
    text = "éé😀éé😀éé😀éé😀éé😀"
    cases.append(("french_emoji", text, [(0, k) for k in range(1, 6)] + [(k, None) for k in range(1, 6)]))
    text = "abc 😀😀😀😀😀😀😀 def 🚀🚀🚀🚀🚀🚀🚀🚀🚀 ghi"
    cases.append(("spaced_emoji_runs", text, [(0, k) for k in range(1, 9)] + [(k, None) for k in range(1, 9)] + [(-4, -1)]))
    return cases


def main() -> int:
    rng = random.Random(20240515)
    oracle = Oracle()
    entries = []

    def add(name: str, text: str, specs=None, extra: int = 4):
        count = oracle.query(text, 0, None)["count"]
        if specs is None:
            if len(text) > 150:
                specs = window_specs(rng, count)
            else:
                specs = slice_specs(rng, count, extra)
        slices = []
        for s, e in specs:
            r = oracle.query(text, s, e)
            assert r["count"] == count
            slices.append([s, e, r["slice"], r["safe"]])
        entries.append({"name": name, "text": text, "count": count, "slices": slices})

    for i, text in enumerate(HAND):
        add("hand_%03d" % i, text)
    for name, text, specs in surrogate_cut_cases():
        add(name, text, specs)
    for name, text in BIG:
        count = oracle.query(text, 0, None)["count"]
        add(name, text, window_specs(rng, count, 14))
    i = 0
    while len(entries) < 420:
        add("random_%03d" % i, random_text(rng), extra=5)
        i += 1

    # Moderately long mixtures (a few hundred chars) with a few windows each.
    for j in range(8):
        text = "".join(random_text(rng) for _ in range(12))
        count = oracle.query(text, 0, None)["count"]
        add("random_long_%d" % j, text, window_specs(rng, count))

    oracle.close()

    doc = {
        "description": (
            "Expected outputs of tokenx 1.3.0 (as bundled in @mastra/core 1.71.0) with default options: "
            "count = estimateTokenCount(text); slice = sliceByTokens(text, start, end); "
            "safe = sliceByTokensSafe(text, start, end) (lone surrogates -> U+FFFD). "
            "Each slice is [start, end, slice, safe]; end null = undefined. Strings may contain lone surrogates (\\udXXX escapes)."
        ),
        "generator": "tools/tokenx-oracle/make_fixtures.py",
        "tokenx_version": "1.3.0",
        "inputs": len(entries),
        "slice_cases": sum(len(e["slices"]) for e in entries),
        "cases": entries,
    }
    # One case per line: compact but still diff-friendly.
    head = json.dumps({k: v for k, v in doc.items() if k != "cases"}, ensure_ascii=False, indent=1)
    body = ",\n".join("  " + json.dumps(e, ensure_ascii=False) for e in entries)
    text = head[:-2] + ',\n "cases": [\n' + body + "\n ]\n}"
    # Lone surrogates cannot be written as UTF-8: escape them (they only occur
    # inside JSON strings, so the result is still valid JSON).
    text = re.sub("[\ud800-\udfff]", lambda m: "\\u%04x" % ord(m.group()), text)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text + "\n", encoding="utf-8")
    print("wrote %s: %d inputs, %d slice cases, %d bytes" % (
        OUT.relative_to(ROOT), doc["inputs"], doc["slice_cases"], OUT.stat().st_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
