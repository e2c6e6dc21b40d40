"""Hypothesis strategies for workspace inputs: path strings, file contents, names."""
from __future__ import annotations

from hypothesis import strategies as st

SEGMENT_ALPHABET = st.characters(codec="utf-8", exclude_characters="/\x00",
                                 exclude_categories=("Cs",))
plain_segment = st.text(alphabet=st.sampled_from("abcxyz019_-."), min_size=1, max_size=8).filter(
    lambda s: s not in (".", ".."))
unicode_segment = st.text(alphabet=SEGMENT_ALPHABET, min_size=1, max_size=12).filter(
    lambda s: s not in (".", "..") and len(s.encode()) < 200)
segment = st.one_of(plain_segment, unicode_segment, st.sampled_from(["..", ".", "~", "..x", "...", " "]))

# Paths built from hostile parts: .., ~, absolute prefixes, doubled slashes, long names.
path_string = st.builds(
    lambda lead, parts, trail: lead + "/".join(parts) + trail,
    st.sampled_from(["", "/", "//", "~/", "./", "../", "/tmp/", "/etc/", "{outside}/", "{root}/"]),
    st.lists(segment, min_size=0, max_size=6),
    st.sampled_from(["", "/", "/."]),
)

# File contents that break naive implementations.
text_content = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.sampled_from("ab \t\r\n"), max_size=80),
    st.builds(lambda s: "\ufeff" + s, st.text(max_size=50)),
    st.builds(lambda s: s.replace("\n", "\r\n"), st.text(max_size=100)),
    st.text(alphabet=st.sampled_from("😀中文한국어𝕏ab\n"), max_size=200),
)
byte_content = st.one_of(st.binary(max_size=300), text_content.map(lambda s: s.encode("utf-8", "surrogatepass")))
