"""fs-utils (upstream `filesystem/fs-utils.ts`): the tilde and base-path rules, mime types by extension, and which files are text.

Mime types are what LocalFilesystem reports in stat (and read_file decides by); the text
extensions are the files grep reads.
"""
from __future__ import annotations

import os

from ..js import node_path as nodepath

_TABLE = """
txt text/plain|html text/html|htm text/html|css text/css|csv text/csv|md text/markdown
js application/javascript|mjs application/javascript|ts application/typescript|tsx application/typescript
jsx application/javascript|json application/json|xml application/xml|yaml text/yaml|yml text/yaml
py text/x-python|rb text/x-ruby|go text/x-go|rs text/x-rust|java text/x-java|c text/x-c|cpp text/x-c++
h text/x-c|hpp text/x-c++|sh text/x-sh|bash text/x-sh|zsh text/x-sh|toml text/toml|ini text/plain
env text/plain|sql text/x-sql|graphql application/graphql|gql application/graphql|vue text/x-vue
svelte text/x-svelte|scss text/x-scss|sass text/x-sass|less text/x-less|php application/x-php
swift text/x-swift|kt text/x-kotlin|kts text/x-kotlin|dart application/dart|lua text/x-lua|r text/x-r
tf text/x-terraform|tfvars text/x-terraform|mdx text/markdown|sas text/plain|log text/plain
jsonl application/jsonl|png image/png|jpg image/jpeg|jpeg image/jpeg|gif image/gif|svg image/svg+xml
webp image/webp|ico image/x-icon|bmp image/bmp|tiff image/tiff|tif image/tiff|heic image/heic
heif image/heif|avif image/avif|pdf application/pdf|mp3 audio/mpeg|wav audio/wav|ogg audio/ogg
flac audio/flac|m4a audio/mp4|aac audio/aac|mp4 video/mp4|webm video/webm|mov video/quicktime
avi video/x-msvideo|mkv video/x-matroska|zip application/zip|tar application/x-tar|gz application/gzip
tgz application/gzip|bz2 application/x-bzip2|7z application/x-7z-compressed|rar application/vnd.rar
exe application/vnd.microsoft.portable-executable|dll application/vnd.microsoft.portable-executable
so application/x-sharedlib|dylib application/x-sharedlib|bin application/x-binary|dat application/x-binary
dmg application/x-apple-diskimage|iso application/x-iso9660-image|deb application/vnd.debian.binary-package
rpm application/x-rpm|doc application/msword
docx application/vnd.openxmlformats-officedocument.wordprocessingml.document|xls application/vnd.ms-excel
xlsx application/vnd.openxmlformats-officedocument.spreadsheetml.sheet|ppt application/vnd.ms-powerpoint
pptx application/vnd.openxmlformats-officedocument.presentationml.presentation|ttf font/ttf|otf font/otf
woff font/woff|woff2 font/woff2|wasm application/wasm|class application/java-vm|pyc application/x-python-code
"""
MIME_TYPES = dict(pair.split(" ", 1) for pair in _TABLE.replace("\n", "|").split("|") if pair.strip())

# application/* types that are really text (read_file reads them as UTF-8).
TEXT_APPLICATION_TYPES = frozenset({
    "application/json", "application/javascript", "application/typescript", "application/xml",
    "application/graphql", "application/x-sh", "application/x-yaml", "application/yaml",
    "application/ld+json", "application/sql",
})


def mime_type(filename: str) -> str:
    ext = nodepath.extname(filename)[1:].lower()
    return MIME_TYPES.get(ext, "application/octet-stream")


def is_text_like(mime: str | None) -> bool:
    if not mime or mime == "application/octet-stream":
        return True
    return (mime.startswith("text/") or mime in TEXT_APPLICATION_TYPES
            or mime.endswith("+json") or mime.endswith("+xml"))


def expand_tilde(p: str) -> str:
    home = os.environ.get("HOME") or os.path.expanduser("~")
    if p == "~":
        return home
    if p.startswith("~/") or p.startswith("~\\"):
        return nodepath.join(home, p[2:])
    return p


def resolve_to_base_path(base: str, file_path: str) -> str:
    expanded = expand_tilde(file_path)
    if nodepath.is_absolute(expanded):
        return nodepath.normalize(expanded)
    return nodepath.resolve(base, expanded)


# fs-utils.ts TEXT_EXTENSIONS: the files grep reads (by extension, lower-cased).
TEXT_EXTENSIONS = frozenset(
    ".md .txt .json .yaml .yml .js .mjs .ts .tsx .jsx .py .rb .go .rs .java .c .cpp .h .hpp .sh .bash "
    ".zsh .html .htm .css .xml .toml .ini .env .csv .sql .graphql .gql .vue .svg .mdx .scss .sass .less "
    ".svelte .php .swift .kt .kts .dart .lua .r .tf .tfvars .sas .log .jsonl".split()
)


def normalize_text_extension(ext: str) -> str:
    """normalizeTextExtension: lower-cased and dot-prefixed (`SAS` -> `.sas`)."""
    lower = ext.strip().lower()
    return lower if lower.startswith(".") else "." + lower


def is_text_file(filename: str, extra_extensions: frozenset[str] = frozenset()) -> bool:
    ext = nodepath.extname(filename).lower()
    return ext in TEXT_EXTENSIONS or ext in extra_extensions
