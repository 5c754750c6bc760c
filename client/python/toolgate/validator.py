"""The Validator: validation by handle that survives replicas which do not
hold the handle."""

import threading
import time

import grpc

from toolgate.enums import ErrorCode, Profile
from toolgate.messages import compile_request, validate_request
from toolgate.rpcerror import ClientRpcError


class SchemaError(Exception):
    """A schema given to ``Validator.register`` did not compile.

    ``result`` is the server's ``CompileResult``: its ``code``
    (``UNSUPPORTED_CAPABILITY`` or ``VALIDATION``) and every finding.
    """

    def __init__(self, result):
        self.result = result
        first = f": {result.errors[0].message}" if result.errors else ""
        more = f" (and {len(result.errors) - 1} more findings)" if len(result.errors) > 1 else ""
        super().__init__(f"schema not compiled: {result.code}{first}{more}")


class _DeadlineExceeded(ClientRpcError):
    """The ``grpc.RpcError`` of a call whose timeout ran out between its
    attempts, before the client could send the next one: ``code()`` is
    ``grpc.StatusCode.DEADLINE_EXCEEDED``, as for a call that gRPC ended at
    its deadline; ``__cause__`` is the failure of the attempt before.
    ``initial_metadata()`` and ``trailing_metadata()`` are an empty tuple
    and ``debug_error_string()`` its details, as generic handlers of
    ``grpc.RpcError`` ask a ``grpc.Call`` for them.
    """

    status = grpc.StatusCode.DEADLINE_EXCEEDED


class Memory:
    """The schemas a Validator registered, by handle and by schema, and its
    decision whether to retry after a failure: what the sync
    ``toolgate.Validator`` and the asyncio ``toolgate.aio.Validator``
    share. Safe to use from several threads; it never blocks for longer
    than a lookup.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._by_handle = {}  # handle -> CompileSchemaRequest behind it
        self._by_schema = {}  # _key of a CompileSchemaRequest -> handle

    def forget(self, handle):
        """Drops what the Validator remembers about ``handle``; a later
        ``NOT_FOUND`` for it is raised. Unknown handles are ignored."""
        with self._lock:
            self._by_handle.pop(handle, None)
            for key in [key for key, known in self._by_schema.items() if known == handle]:
                del self._by_schema[key]

    def _registered(self, result, request):
        """Remembers ``request`` under the handle of ``result``, its
        ``CompileResult``, and returns ``result``; raises ``SchemaError``
        when it did not compile."""
        if not result.handle or result.code != ErrorCode.UNSPECIFIED:
            raise SchemaError(result)
        self._remember(result.handle, request)
        return result

    def _handle_of(self, request):
        """The handle remembered for the CompileSchemaRequest ``request``,
        or None."""
        with self._lock:
            return self._by_schema.get(_key(request))

    def _retry(self, handle, err, deadline):
        """Decides what follows ``err``, the ``grpc.RpcError`` of validating
        by ``handle``, for a call that must end by ``deadline``
        (``time.monotonic()``, or None): returns the remembered schema and
        the seconds left for the retry (None for no deadline) when it is
        ``NOT_FOUND`` for a registered handle, None when ``err`` is to be
        raised as it is. Raises ``_DeadlineExceeded`` from ``err`` when no
        time is left.
        """
        if err.code() != grpc.StatusCode.NOT_FOUND:
            return None
        with self._lock:
            schema = self._by_handle.get(handle)
        if schema is None:
            return None
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise _DeadlineExceeded("no time was left to retry after NOT_FOUND") from err
        return schema, left

    def _validated_inline(self, result, request):
        """Remembers ``request`` under the handle of ``result``, the
        ``ValidationResult`` of validating with it inline, if it compiled;
        returns ``result``."""
        if result.handle:
            self._remember(result.handle, request)
        return result

    def _remember(self, handle, request):
        with self._lock:
            self._by_handle[handle] = request
            self._by_schema[_key(request)] = handle


def deadline_of(timeout):
    """The ``time.monotonic()`` by which a call of ``timeout`` seconds (or
    None) must end, or None."""
    return None if timeout is None else time.monotonic() + timeout


class Validator(Memory):
    """Validates arguments by handle, remembering the schema behind each handle
    it registered.

    Handles are content addresses that every replica computes alike, so
    replicas share nothing: one that never saw a schema (or restarted, or
    evicted it) answers ``NOT_FOUND``. The Validator then sends the remembered
    schema inline with the arguments, so that replica compiles it, keeps it
    and validates in the same call, and retries only once.

    Schemas are kept until ``forget`` (memory grows with distinct schemas, not
    with calls). Safe to use from several threads. Create one with
    ``Client.validator()``.
    """

    def __init__(self, client):
        super().__init__()
        self._client = client

    def register(self, schema, *, profile=Profile.UNSPECIFIED, resources=None, format_assertion=False, timeout=None):
        """Compiles ``schema`` (JSON text or a dict) under ``profile`` (with
        ``resources`` and ``format_assertion`` as in ``Client.compile``),
        remembers it under the handle the server returns, and returns the
        ``CompileResult`` (its ``handle``, and any ``warnings``).

        Raises ``SchemaError`` when the schema does not compile,
        ``grpc.RpcError`` when the call fails. Registering again is harmless.
        """
        request = compile_request(schema, profile, resources, format_assertion)
        return self._registered(self._client._compile(request, timeout), request)

    def validate(self, handle, arguments, *, timeout=None):
        """Validates ``arguments`` (JSON text or a dict; "" means ``{}``)
        against the schema under ``handle``, and returns the
        ``ValidationResult``.

        On ``NOT_FOUND`` for a handle this Validator registered, sends the
        remembered schema inline and retries once; the result's ``handle`` is
        the one that replica computed. Any other failure, and ``NOT_FOUND``
        for a handle it never registered, raises the ``grpc.RpcError``.
        Invalid arguments are an answer, as ever.

        ``timeout`` (seconds, default none) bounds the whole call, retry
        included: the retry gets what the first attempt left; when nothing is
        left, it raises a ``grpc.RpcError`` with code ``DEADLINE_EXCEEDED``
        instead of retrying.
        """
        deadline = deadline_of(timeout)
        request = validate_request(arguments, handle=handle)
        try:
            return self._client._validate(request, timeout)
        except grpc.RpcError as err:
            retry = self._retry(handle, err, deadline)
            if retry is None:
                raise
        schema, left = retry
        return self._validate_inline(schema, request.arguments_json, left)  # the text already written

    def validate_schema(self, schema, arguments, *, profile=Profile.UNSPECIFIED, resources=None,
                        format_assertion=False, timeout=None):
        """Validates ``arguments`` against ``schema`` under ``profile`` (with
        ``resources`` and ``format_assertion`` as in ``Client.compile``): the
        first time with the schema inline (one call compiles and validates),
        remembering the handle; later, for the same schema text, profile,
        resources and format assertion, by that handle as ``validate`` does.

        A schema that does not compile is answered in-band (``valid`` false,
        its findings in ``errors``) and is not remembered.
        """
        request = compile_request(schema, profile, resources, format_assertion)
        handle = self._handle_of(request)
        if handle is not None:
            return self.validate(handle, arguments, timeout=timeout)
        return self._validate_inline(request, arguments, timeout)

    def _validate_inline(self, request, arguments, timeout):
        result = self._client._validate(validate_request(arguments, inline=request), timeout)
        return self._validated_inline(result, request)


def _key(request):
    """A remembered schema's identity: everything the request compiles with,
    its profile, exact text, resources and format assertion."""
    return (request.profile, request.schema_json, tuple(sorted(request.resources.items())), request.format_assertion)
