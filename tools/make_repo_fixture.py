"""Write fixtures/repo: a small but realistic TypeScript repository tree for the snapshot tests.

Deterministic (seeded), so rerunning it gives the same bytes; the output is committed because the
snapshots were reviewed against exactly this tree. The files its .gitignore names (node_modules/,
dist/, *.log, .env) are added at copy time by conformance/wsconf/snapshots/conftest.py.
"""
from __future__ import annotations

import random
import shutil
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "repo"
WORDS = ("user session token config cache router handler request response error logger queue worker "
         "payment invoice order item cart search index schema model view store event stream buffer").split()


def ts_module(rng: random.Random, name: str) -> str:
    lines = [f'import {{ {rng.choice(WORDS).title()}Error }} from "../errors";',
             f'import type {{ {name.title()}Options }} from "./types";', ""]
    for i in range(rng.randint(3, 9)):
        fn = f"{rng.choice(WORDS)}{rng.choice(WORDS).title()}"
        lines += [f"export function {fn}{i}(input: string, opts?: {name.title()}Options): number {{",
                  f"  // TODO: handle {rng.choice(WORDS)} {rng.choice(WORDS)}" if rng.random() < 0.3 else
                  f"  const value = input.length * {rng.randint(1, 99)};",
                  f'  if (!input) throw new Error("empty {rng.choice(WORDS)}");',
                  "  return input.indexOf(\"" + rng.choice(WORDS) + "\");", "}", ""]
    if rng.random() < 0.2:
        lines.append("// FIXME: 日本語のコメント — unicode 😀 in source")
    return "\n".join(lines) + "\n"


def main() -> None:
    rng = random.Random(20261129)
    if OUT.exists():
        shutil.rmtree(OUT)
    files: dict[str, str] = {
        ".gitignore": "node_modules\ndist/\n*.log\ncoverage/\n.env\n",
        "package.json": '{\n  "name": "demo-repo",\n  "version": "1.0.0",\n  "type": "module"\n}\n',
        "README.md": "# demo-repo\n\nA fixture for wsconf's snapshot tests.\n\n## Usage\n\nRun `npm test`.\n",
        "tsconfig.json": '{\n  "compilerOptions": { "strict": true }\n}\n',
        "src/errors.ts": "export class UserError extends Error {}\nexport class CacheError extends Error {}\n",
        "docs/guide.md": "# Guide\n\nTODO: write the guide.\n",
        "docs/api/index.md": "# API\n\nSee `src/`.\n",
        "scripts/build.sh": "#!/bin/sh\nset -e\necho building\n",
        "vite.config.ts": "export default {};\n",
        "jest.config.js": "module.exports = {};\n",
    }
    for area in ("auth", "billing", "search", "storage"):
        files[f"src/{area}/types.ts"] = f"export interface {area.title()}Options {{ retries?: number }}\n"
        for j in range(rng.randint(3, 6)):
            name = f"{rng.choice(WORDS)}-{j}"
            files[f"src/{area}/{name}.ts"] = ts_module(rng, area)
            if rng.random() < 0.5:
                files[f"tests/{area}/{name}.test.ts"] = f'import {{ describe }} from "vitest";\ndescribe("{name}", () => {{}});\n'
    for j in range(4):
        files[f"lib/util-{j}.js"] = f"export const util{j} = (x) => x + {j}; // TODO: types\n"
    for rel, text in sorted(files.items()):
        path = OUT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files under {OUT}")


if __name__ == "__main__":
    main()
