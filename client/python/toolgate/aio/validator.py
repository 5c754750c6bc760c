"""The asyncio Validator: validation by handle that survives replicas which
do not hold the handle, without blocking the event loop."""

import grpc

from toolgate.enums import Profile
from toolgate.messages import compile_request, validate_request
from toolgate.validator import Memory, deadline_of


class Validator(Memory):
    """Validates arguments by handle, remembering the schema behind each
    handle it registered: ``toolgate.Validator`` on asyncio.

    Handles are content addresses that every replica computes alike, so
    replicas share nothing: one that never saw a schema (or restarted, or
    evicted it) answers ``NOT_FOUND``. The Validator then sends the
    remembered schema inline with the arguments, so that replica compiles
    it, keeps it and validates in the same call, and retries only once.

    Schemas are kept until ``forget`` (memory grows with distinct schemas,
    not with calls). Safe to use from several tasks at once (and threads:
    what it remembers is behind a lock that no ``await`` holds). Create one
    with ``toolgate.aio.Client.validator()``.
    """

    def __init__(self, client):
        super().__init__()
        self._client = client

    async def register(self, schema, *, profile=Profile.UNSPECIFIED, resources=None, format_assertion=False,
                       timeout=None):
        """Compiles ``schema`` (JSON text or a dict) under ``profile`` (with
        ``resources`` and ``format_assertion`` as in
        ``toolgate.aio.Client.compile``), remembers it under the handle the
        server returns, and returns the ``CompileResult`` (its ``handle``,
        and any ``warnings``).

        Raises ``SchemaError`` (``toolgate.SchemaError``, with ``.result``)
        when the schema does not compile, ``grpc.RpcError`` when the call
        fails, and ``ValueError`` or ``TypeError``, before anything is sent,
        for a schema, profile or resource that cannot be sent. Registering
        again is harmless.
        """
        request = compile_request(schema, profile, resources, format_assertion)
        return self._registered(await self._client._compile(request, timeout), request)

    async def validate(self, handle, arguments, *, timeout=None):
        """Validates ``arguments`` (JSON text or a dict; "" means ``{}``)
        against the schema under ``handle``, and returns the
        ``ValidationResult``.

        On ``NOT_FOUND`` for a handle this Validator registered, sends the
        remembered schema inline and retries once; the result's ``handle``
        is the one that replica computed. Any other failure, and
        ``NOT_FOUND`` for a handle it never registered (or forgot), raises
        the ``grpc.RpcError``. Invalid arguments are an answer, as ever.

        ``timeout`` (seconds, default none) bounds the whole call, retry
        included: the retry gets what the first attempt left; when nothing
        is left, it raises a ``grpc.RpcError`` with code
        ``DEADLINE_EXCEEDED`` (its ``__cause__`` the ``NOT_FOUND``) instead
        of retrying. Raises ``ValueError`` or ``TypeError`` for arguments
        that cannot be sent, before anything is sent.
        """
        deadline = deadline_of(timeout)
        request = validate_request(arguments, handle=handle)
        try:
            return await self._client._validate(request, timeout)
        except grpc.RpcError as err:
            retry = self._retry(handle, err, deadline)
            if retry is None:
                raise
        schema, left = retry
        return await self._validate_inline(schema, request.arguments_json, left)  # the text already written

    async def validate_schema(self, schema, arguments, *, profile=Profile.UNSPECIFIED, resources=None,
                              format_assertion=False, timeout=None):
        """Validates ``arguments`` against ``schema`` under ``profile`` (with
        ``resources`` and ``format_assertion`` as in
        ``toolgate.aio.Client.compile``): the first time with the schema
        inline (one call compiles and validates), remembering the handle;
        later, for the same schema text, profile, resources and format
        assertion, by that handle as ``validate`` does.

        A schema that does not compile is answered in-band (``valid`` false,
        its findings in ``errors``) and is not remembered. ``timeout`` and
        what is raised are as for ``validate``.
        """
        request = compile_request(schema, profile, resources, format_assertion)
        handle = self._handle_of(request)
        if handle is not None:
            return await self.validate(handle, arguments, timeout=timeout)
        return await self._validate_inline(request, arguments, timeout)

    async def _validate_inline(self, request, arguments, timeout):
        result = await self._client._validate(validate_request(arguments, inline=request), timeout)
        return self._validated_inline(result, request)
