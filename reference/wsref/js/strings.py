"""JavaScript string semantics the tools' outputs depend on: trim(), UTF-16 ordering, String(x),
Number::toString, toWellFormed().

Checked against node on the cases that reach messages; each function names the JS it stands for.
"""
from __future__ import annotations

import math
import random
import string
import time

# String.prototype.trim strips WhiteSpace and LineTerminator: these, and the Zs category.
_JS_WS = frozenset(
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(s: str) -> str:
    """String.prototype.trim: not Python's strip(), which also drops \\x1c-\\x1f and \\x85
    and keeps \\ufeff."""
    start, end = 0, len(s)
    while start < end and s[start] in _JS_WS:
        start += 1
    while end > start and s[end - 1] in _JS_WS:
        end -= 1
    return s[start:end]


def js_length(s: str) -> int:
    """String.prototype.length: UTF-16 code units (an astral character counts two)."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def utf16_key(s: str) -> bytes:
    """A sort key that orders strings the way JS `<` does: by UTF-16 code units."""
    return s.encode("utf-16-be", "surrogatepass")


def js_number(x: float) -> str:
    """Number.prototype.toString() (ECMAScript Number::toString): the shortest digits that read
    back as x (Python's repr finds the same digits), in fixed notation for 1e-7 < |x| < 1e21 and
    exponential notation (`1e-7`, `1.5e+21`) outside; NaN, Infinity and -0 ("0") as JS prints them."""
    x = float(x)
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    digits, exponent = _shortest_digits(abs(x))
    k, n = len(digits), exponent + len(digits)   # x = 0.digits * 10**n
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """(digits without trailing zeros, exponent) with x == int(digits) * 10**exponent, from repr."""
    mantissa, _, exp = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    exponent = int(exp or 0) - len(fraction)
    stripped = digits.rstrip("0")
    return stripped, exponent + len(digits) - len(stripped)


def to_well_formed(text: str) -> str:
    """String.prototype.toWellFormed: a lone surrogate becomes U+FFFD, a surrogate pair (also one
    held as two Python code points) its character. What Node's UTF-8 carries for a string."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def js_string(value) -> str:
    """`${value}` for an environment value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value) if math.isfinite(value) else ("NaN" if value != value else
                                                               "Infinity" if value > 0 else "-Infinity")
    if isinstance(value, (list, tuple)):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


_BASE36 = string.digits + string.ascii_lowercase


def to_base36(n: int) -> str:
    """Number.prototype.toString(36) of a non-negative integer."""
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = _BASE36[r] + out
    return out or "0"


def time_random_id(prefix: str) -> str:
    """`${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`: how the
    workspace, LocalFilesystem and LocalSandbox make their default ids."""
    return f"{prefix}-{to_base36(time.time_ns() // 1_000_000)}-" + "".join(random.choices(_BASE36, k=6))
