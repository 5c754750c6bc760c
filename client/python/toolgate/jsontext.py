"""Schemas and arguments as exact JSON text.

toolgate reads schemas and arguments from the ``*_json`` string fields, which
keep every digit; this client never sends the lossy ``*_struct`` fields.
"""

import json


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
    ``{"1": 2}``), ``ValueError`` for NaN or an infinity, and
    ``UnicodeDecodeError`` for bytes that are not UTF-8.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8")
    if not isinstance(value, (dict, list, tuple)):
        raise TypeError(f"{what} must be JSON text (str) or a dict; got {type(value).__name__}")
    _check_keys(value, what)
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as err:
        raise type(err)(f"{what} is not JSON: {err}") from err


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
