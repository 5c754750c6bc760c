"""The asyncio Client: one toolgate ValidationService on ``grpc.aio``, one
coroutine per RPC."""

import asyncio

import grpc

from toolgate.aio.stream import cancelled_error, open_stream
from toolgate.aio.validator import Validator
from toolgate.binds import output_binds, tool_binds
from toolgate.client import open_channel
from toolgate.enums import Admission, Profile
from toolgate.messages import compile_request, toolset_request, validate_request
from toolgate.results import CompileResult, ToolsetResult, ValidationResult, from_message
from toolgate.v1 import validation_pb2_grpc as pb_grpc


class Client:
    """Calls one toolgate ValidationService over a ``grpc.aio`` channel,
    without blocking the event loop: ``toolgate.Client`` on asyncio.

    Every method takes the arguments and keywords of the
    ``toolgate.Client`` method of its name, checks them the same way and
    returns the same results (the frozen dataclasses of
    ``toolgate.results``); the unary methods are coroutines, the streams
    return a ``toolgate.aio.ResultStream`` at once. Arguments that cannot
    be sent as meant raise ``ValueError`` or ``TypeError`` before anything
    is sent (for a coroutine, when it is awaited).

    Schema and argument problems are answers (``valid`` false, ``code`` and
    ``errors`` set), never exceptions. A failed call raises the
    ``grpc.aio.AioRpcError`` it is, a ``grpc.RpcError``: ``e.code()`` is
    ``grpc.StatusCode.NOT_FOUND`` for a handle the replica does not hold (a
    ``Validator`` recovers from it), ``UNAUTHENTICATED``,
    ``INVALID_ARGUMENT``, ``UNAVAILABLE`` and so on. Cancelling the task
    that awaits a call cancels the call (and the ``CancelledError`` goes
    on); a call cancelled otherwise, by closing its channel, raises a
    ``grpc.RpcError`` with code ``CANCELLED``.

    ``Client(channel)`` uses a ``grpc.aio`` channel the caller built and
    owns (``close`` leaves it open); ``Client.connect`` opens one.
    ``metadata`` is sent with every call (default none). A Client is safe
    to use from many tasks at once, on the event loop its channel belongs
    to (the loop running when the channel was made).
    """

    def __init__(self, channel, *, metadata=()):
        self._channel = None
        self._metadata = tuple(metadata)
        self.stub = pb_grpc.ValidationServiceStub(channel)
        """The generated stub on the channel, for what this class does not
        wrap; its methods return ``grpc.aio`` calls."""

    @classmethod
    def connect(cls, target, *, insecure=False, credentials=None, token=None, options=()):
        """Returns a Client with its own ``grpc.aio`` channel to ``target``
        ("host:port", or any gRPC target such as
        "dns:///toolgate.svc:50051"), as ``toolgate.Client.connect`` does.

        The channel uses TLS verified against the system's roots unless
        ``insecure`` (plaintext, as a local toolgate listens by default) or
        ``credentials`` (a ``grpc.ChannelCredentials``, for a private CA or
        mTLS) says otherwise. ``token`` sends "authorization: Bearer
        <token>" with every call, on plaintext channels too: use it without
        TLS only on a loopback or trusted network. ``options`` are gRPC
        channel arguments (keepalive, a service config, message sizes);
        default none.

        Not a coroutine: connecting is lazy, and an unreachable server fails
        the first call with ``UNAVAILABLE``. Call it on the event loop that
        will use the Client (from a coroutine, or before ``asyncio.run``
        only if that loop is the one used). Raises ``ValueError`` for an
        empty ``token`` or for ``insecure`` together with ``credentials``.
        ``await close()`` the Client (or use it with ``async with``) to
        close the channel.
        """
        channel, metadata = open_channel(grpc.aio, target, insecure=insecure, credentials=credentials, token=token,
                                         options=options)
        client = cls(channel, metadata=metadata)
        client._channel = channel
        return client

    async def close(self):
        """Closes the channel ``connect`` opened (calls and streams in flight
        fail with a ``grpc.RpcError`` with code ``CANCELLED``, not
        ``asyncio.CancelledError``, as their tasks were not cancelled; later
        calls raise gRPC's ``UsageError``, "Channel is closed"); does
        nothing for a caller's channel. Idempotent."""
        channel, self._channel = self._channel, None
        if channel is not None:
            await channel.close()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info):
        await self.close()

    async def compile(self, schema, *, profile=Profile.UNSPECIFIED, resources=None, format_assertion=False,
                      timeout=None):
        """Compiles ``schema`` (JSON text, or a dict: see ``json_text``)
        under ``profile`` (default: the tool input profile) with
        CompileSchema, and returns its ``CompileResult``, as
        ``toolgate.Client.compile`` does.

        ``resources`` (URI to schema document, default none) and
        ``format_assertion`` (default false) are for ``Profile.JSON_SCHEMA``.
        A schema that does not compile is an answer: no handle, ``code``
        and every finding set. ``timeout`` is the call's deadline in seconds
        (default none). Raises ``ValueError`` or ``TypeError`` for a
        profile, schema or resource that cannot be sent, before sending,
        and ``grpc.RpcError`` for a failed call.
        """
        return await self._compile(compile_request(schema, profile, resources, format_assertion), timeout)

    async def compile_toolset(self, tools, *, profile=Profile.UNSPECIFIED, admission=Admission.UNSPECIFIED,
                              resources=None, format_assertion=False, timeout=None):
        """Compiles every tool of ``tools`` under ``profile`` with
        CompileToolset, and returns the ``ToolsetResult``: one
        ``ToolResult`` per tool, in order, and ``bind``, the handles of the
        tools that compiled; as ``toolgate.Client.compile_toolset`` does.

        ``tools`` is an MCP tools/list result or the whole JSON-RPC response
        that carries one (JSON text, UTF-8 bytes or a dict), or a mapping of
        tool names to schemas. ``admission`` decides what is bound when some
        tool cannot be enforced: ``Admission.QUARANTINE`` (what
        ``UNSPECIFIED`` means) binds every tool that compiled,
        ``Admission.STRICT`` nothing unless every tool compiled. Only the
        replica that answered holds the handles of ``bind``: for a stream
        that may reach another replica, bind the schemas inline with
        ``tools=``. ``resources``, ``format_assertion`` and ``timeout`` are
        as in ``compile``. Raises ``TypeError`` or ``ValueError`` for what
        cannot be sent, before sending, and ``grpc.RpcError`` for a failed
        call (``INVALID_ARGUMENT`` for text that is not a tools/list result,
        or for ``resources`` under a profile other than
        ``Profile.JSON_SCHEMA``).
        """
        request = toolset_request(tools, profile, admission, resources, format_assertion)
        response = await _unary(self.stub.CompileToolset(request, timeout=timeout, metadata=self._metadata))
        return from_message(ToolsetResult, response)

    async def validate(self, handle, arguments, *, timeout=None):
        """Validates ``arguments`` (JSON text, or a dict; "" means ``{}``)
        against the schema held under ``handle``, and returns its
        ``ValidationResult``.

        Invalid arguments are an answer. Does not retry: a replica that does
        not hold ``handle`` raises ``grpc.RpcError`` with ``NOT_FOUND`` (use
        a ``Validator`` to have the schema sent again). ``timeout`` and what
        is raised as in ``compile``.
        """
        return await self._validate(validate_request(arguments, handle=handle), timeout)

    async def validate_schema(self, schema, arguments, *, profile=Profile.UNSPECIFIED, resources=None,
                              format_assertion=False, timeout=None):
        """Compiles ``schema`` (or finds it compiled) and validates
        ``arguments`` against it in one Validate call, with the schema
        inline.

        The result's ``handle`` names the compiled schema for later calls; a
        schema that does not compile is answered with its findings
        (``valid`` false, ``handle`` ""). Never ``NOT_FOUND``. The schema's
        options are as in ``compile``, the arguments as in ``validate``.
        """
        inline = compile_request(schema, profile, resources, format_assertion)
        return await self._validate(validate_request(arguments, inline=inline), timeout)

    def validator(self):
        """Returns a new ``toolgate.aio.Validator`` calling through this
        Client, remembering no schemas yet."""
        return Validator(self)

    def validate_stream(self, events, *, tools=None, handles=None, provider=None, profile=Profile.UNSPECIFIED,
                        resources=None, format_assertion=False, timeout=None):
        """Validates streamed tool calls while they are generated, and
        returns at once the ``toolgate.aio.ResultStream`` of their
        ``CallResult``, in the order decided; as
        ``toolgate.Client.validate_stream`` does. Not a coroutine: call it
        from one, and use the stream with ``async with`` and ``async for``.

        ``events``, an async iterable or a plain iterable (pulled on the
        event loop, so it must not block), yields raw provider events
        (``str``/``bytes`` payloads, with ``provider`` a ``Provider`` or its
        name; ``Named`` for a payload with its event name) or
        ``Start``/``Delta``/``End``. The stream pulls it as it goes, on a
        task of its own.

        ``tools`` maps each tool name the model may call to its input schema
        (JSON text or a dict), compiled under ``profile`` with ``resources``
        and ``format_assertion`` as in ``compile``; default none. The
        schemas travel inline with the stream, so whichever replica the
        stream reaches validates every call: no compile call first, and no
        ``NOT_FOUND``. A schema that does not compile ends the stream with
        ``INVALID_ARGUMENT`` naming the tool and its first finding.

        ``handles`` maps tool names to handles from ``compile``, bound by
        handle; default none. On a replica that does not hold a handle, each
        call of its tool gets a result with code ``ErrorCode.NOT_FOUND``
        (keyword "handle", ``early``): it was not validated. Prefer
        ``tools``. A name in both is a ``ValueError``.

        ``timeout`` is the whole stream's deadline in seconds; default none.
        Raises at once ``ValueError``/``TypeError`` for a bad provider,
        profile, schema, resource, handle or events, before anything is
        sent or pulled; see ``toolgate.aio.ResultStream`` for what iterating
        raises and how to stop early.
        """
        binds = tool_binds(tools, handles, profile, resources, format_assertion)
        return open_stream(self, events, binds=binds, provider=provider, timeout=timeout)

    def validate_output_stream(self, events, schema, *, tools=None, handles=None, provider=None,
                               profile=Profile.OUTPUT_BINDABLE, tool_profile=Profile.UNSPECIFIED, resources=None,
                               format_assertion=False, strip_code_fence=False, timeout=None):
        """Validates a provider's structured output while it is generated,
        and the tool calls beside it, and returns at once the
        ``toolgate.aio.ResultStream`` of each answer's and each call's
        ``CallResult``; as ``toolgate.Client.validate_output_stream`` does.

        The message text of each choice, candidate or message is one JSON
        document, checked against ``schema`` (JSON text or a dict) compiled
        under ``profile`` (default ``Profile.OUTPUT_BINDABLE``) and bound
        inline, so any replica validates it; one that does not compile ends
        the stream with ``INVALID_ARGUMENT``. Its result has ``call_id``
        "output/<n>" (n the choice or candidate index, 0 when there is one,
        or an OpenAI Responses message's output_index) and an empty
        ``tool_name``, and comes at the first byte no valid answer could
        follow (``early``) or when the answer ends. ``strip_code_fence``
        (default false) accepts an answer wrapped in one Markdown code
        fence; otherwise a fence is a finding with keyword "json".

        Tool calls in the stream are validated as ``validate_stream``
        validates them, against ``tools`` (bound inline, compiled under
        ``tool_profile``, default the tool input profile) or ``handles``; a
        call of a tool bound neither way is a result with keyword
        "tool_name". ``resources`` and ``format_assertion`` apply to every
        schema alike. ``events``, ``provider``, ``timeout``, what is raised
        and how to stop early are as for ``validate_stream``.
        """
        binds = output_binds(schema, tools, handles, profile, tool_profile, resources, format_assertion,
                             strip_code_fence)
        return open_stream(self, events, binds=binds, provider=provider, timeout=timeout)

    # The two unary calls, shared with Validator: each sends a prepared
    # request with this Client's metadata and converts the answer.

    async def _compile(self, request, timeout):
        response = await _unary(self.stub.CompileSchema(request, timeout=timeout, metadata=self._metadata))
        return from_message(CompileResult, response)

    async def _validate(self, request, timeout):
        response = await _unary(self.stub.Validate(request, timeout=timeout, metadata=self._metadata))
        return from_message(ValidationResult, response)


async def _unary(call):
    """Awaits the ``grpc.aio`` unary ``call`` and returns its response.

    ``grpc.aio`` reports a call cancelled on the client's side as
    ``asyncio.CancelledError``, whoever cancelled it. When the awaiting task
    was cancelled (``Task.cancel``, ``asyncio.timeout``), that goes on, and
    the call is cancelled with it; when it was not (the channel was closed,
    by ``Client.close()`` say), the call failed: it raises a
    ``grpc.RpcError`` with code ``CANCELLED``, as the sync client does.
    """
    task = asyncio.current_task()
    cancelling = task.cancelling() if task is not None else 0
    try:
        return await call
    except asyncio.CancelledError:
        if task is None or task.cancelling() > cancelling:
            raise
        raise cancelled_error() from None
