"""Schemas and arguments as exact JSON text.

toolgate reads schemas and arguments from the ``*_json`` string fields, which
keep every digit; this client never sends the lossy ``*_struct`` fields.
"""

import json
import re

# A surrogate code point: a Python str may hold one alone (json.loads of
# "\ud800" makes one), but UTF-8, and so protobuf, cannot encode it.
_SURROGATE = re.compile("[\ud800-\udfff]")
_EXCERPT = 24  # characters shown on each side of a surrogate
_POINTER = 120  # characters of a JSON pointer shown


def json_text(value, what):
    """Returns ``value`` as JSON text for a ``*_json`` field.

    A ``str`` is sent unchanged (the exact text, numbers and all: prefer it for
    numbers a float cannot hold); ``bytes`` must be UTF-8 and are decoded. A
    ``dict`` or ``list`` is written with ``json.dumps``: ``int`` stays exact,
    ``float`` is written in its shortest round-trip form. ``what`` names the
    value in errors.

    Fails closed rather than sending something other than what was meant:
    ``TypeError`` for a value JSON cannot hold (``Decimal``, ``set``, objects,
    a dict key that is not a ``str``: ``json.dumps`` would turn ``{1: 2}`` into
    ``{"1": 2}``), ``ValueError`` for NaN or an infinity, or for a lone
    surrogate in a ``str`` (see ``check_text``; in a dict, the message gives
    the JSON pointer of the string or member name that holds it), and
    ``UnicodeDecodeError`` for bytes that are not UTF-8.
    """
    if isinstance(value, str):
        return check_text(value, what)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8")
    if not isinstance(value, (dict, list, tuple)):
        raise TypeError(f"{what} must be JSON text (str) or a dict; got {type(value).__name__}")
    _check_keys(value, what)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as err:
        raise type(err)(f"{what} is not JSON: {err}") from err
    if not text.isascii() and _SURROGATE.search(text):
        raise ValueError(f"{what} holds a lone surrogate ({_surrogate_in(value)}), which UTF-8 cannot encode")
    return text


def check_text(value, what):
    """Returns ``value``; raises ``ValueError`` naming ``what`` when it is a
    ``str`` that holds a lone surrogate (U+D800 to U+DFFF: ``json.loads``
    of the escape ``"\\ud800"`` gives one), which UTF-8, and so the
    request, cannot carry. The message gives the code point, its index and
    the text around it (escaped, and bounded however long ``value`` is).
    Other values are returned unchecked, for the message's own type check.
    """
    if not isinstance(value, str) or value.isascii():  # isascii() costs nothing in CPython
        return value
    found = _SURROGATE.search(value)
    if found is None:
        return value
    at = found.start()
    start, end = max(0, at - _EXCERPT), at + _EXCERPT + 1
    excerpt = ("…" if start else "") + repr(value[start:end]) + ("…" if end < len(value) else "")
    raise ValueError(f"{what} holds a lone surrogate (U+{ord(value[at]):04X} at index {at} of {excerpt}), "
                     "which UTF-8 cannot encode")


def _surrogate_in(value):
    """Where in ``value`` (a dict or list whose JSON text holds a lone
    surrogate) the first one is: "U+D800 in the string at /a/0", or "in the
    member name at ..."; the pointer escaped and bounded."""
    pending = [(value, "")]
    while pending:
        item, pointer = pending.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return f"U+{ord(found.group()):04X} in the string at {_shown(pointer)}"
        elif isinstance(item, dict):
            members = []
            for key, member in item.items():
                inner = f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"
                found = _SURROGATE.search(key)
                if found:
                    return f"U+{ord(found.group()):04X} in the member name at {_shown(inner)}"
                members.append((member, inner))
            pending.extend(reversed(members))
        elif isinstance(item, (list, tuple)):
            pending.extend(reversed([(member, f"{pointer}/{i}") for i, member in enumerate(item)]))
    return "somewhere in its JSON text"  # not reached: json.dumps wrote it from one of these


def _shown(pointer):
    """``pointer`` fit for a message: surrogates escaped, at most _POINTER
    characters."""
    shown = pointer.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
    return shown if len(shown) <= _POINTER else shown[:_POINTER] + "…"


def _check_keys(value, what):
    """Raises ``TypeError`` for a dict key anywhere in ``value`` that is not a str.

    Each container is looked at once, so a cycle ends the walk (``json.dumps``
    then reports it as a ``ValueError``).
    """
    pending, seen = [value], set()
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        if isinstance(item, dict):
            seen.add(id(item))
            for key, member in item.items():
                if not isinstance(key, str):
                    raise TypeError(f"{what} has a key that is not a str: {key!r}")
                pending.append(member)
        elif isinstance(item, (list, tuple)):
            seen.add(id(item))
            pending.extend(item)
