"""The Client: one toolgate ValidationService, one method per RPC."""

import grpc

from toolgate.binds import output_binds, tool_binds
from toolgate.enums import Admission, Profile
from toolgate.messages import compile_request, toolset_request, validate_request
from toolgate.results import CompileResult, ToolsetResult, ValidationResult, from_message
from toolgate.stream import open_stream
from toolgate.v1 import validation_pb2_grpc as pb_grpc
from toolgate.validator import Validator


class Client:
    """Calls one toolgate ValidationService over a gRPC channel.

    Schema and argument problems are answers (``valid`` false, ``code`` and
    ``errors`` set), never exceptions. A failed call raises the
    ``grpc.RpcError`` it is: ``e.code()`` is ``grpc.StatusCode.NOT_FOUND`` for
    a handle the replica does not hold (a ``Validator`` recovers from it),
    ``UNAUTHENTICATED``, ``INVALID_ARGUMENT``, ``UNAVAILABLE`` and so on.

    ``Client(channel)`` uses a channel the caller built and owns (``close``
    leaves it open); ``Client.connect`` opens one. ``metadata`` is sent with
    every call (default none). A Client is safe to use from several threads.
    """

    def __init__(self, channel, *, metadata=()):
        self._channel = None
        self._metadata = tuple(metadata)
        self.stub = pb_grpc.ValidationServiceStub(channel)
        """The generated stub, for what this class does not wrap."""

    @classmethod
    def connect(cls, target, *, insecure=False, credentials=None, token=None, options=()):
        """Returns a Client with its own channel to ``target`` ("host:port", or
        any gRPC target such as "dns:///toolgate.svc:50051").

        The channel uses TLS verified against the system's roots unless
        ``insecure`` (plaintext, as a local toolgate listens by default) or
        ``credentials`` (a ``grpc.ChannelCredentials``, for a private CA or
        mTLS) says otherwise. ``token`` sends "authorization: Bearer <token>"
        with every call, on plaintext channels too: use it without TLS only on
        a loopback or trusted network. ``options`` are gRPC channel arguments
        (keepalive, a service config, message sizes); default none.

        Connecting is lazy: an unreachable server fails the first call with
        ``UNAVAILABLE``. Raises ``ValueError`` for an empty ``token`` or for
        ``insecure`` together with ``credentials``. Close the Client (or use it
        as a context manager) to close the channel.
        """
        channel, metadata = open_channel(grpc, target, insecure=insecure, credentials=credentials, token=token,
                                         options=options)
        client = cls(channel, metadata=metadata)
        client._channel = channel
        return client

    def close(self):
        """Closes the channel ``connect`` opened (calls in flight fail with
        ``CANCELLED``); does nothing for a caller's channel. Idempotent."""
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def compile(self, schema, *, profile=Profile.UNSPECIFIED, resources=None, format_assertion=False, timeout=None):
        """Compiles ``schema`` (JSON text, or a dict: see ``json_text``) under
        ``profile`` (default: the tool input profile) with CompileSchema, and
        returns its ``CompileResult``.

        ``resources`` (URI to schema document, default none) and
        ``format_assertion`` (default false) are for ``Profile.JSON_SCHEMA``;
        see ``toolgate.messages.compile_request``. A schema that does not
        compile is an answer: no handle, ``code`` and every finding set.
        ``timeout`` is the call's deadline in seconds (default none). Raises
        ``ValueError`` or ``TypeError`` for a profile, schema or resource that
        cannot be sent, ``grpc.RpcError`` for a failed call.
        """
        return self._compile(compile_request(schema, profile, resources, format_assertion), timeout)

    def compile_toolset(self, tools, *, profile=Profile.UNSPECIFIED, admission=Admission.UNSPECIFIED, resources=None,
                        format_assertion=False, timeout=None):
        """Compiles every tool of ``tools`` under ``profile`` (default: the
        tool input profile) with CompileToolset, and returns the
        ``ToolsetResult``: one ``ToolResult`` per tool, in order, and
        ``bind``, the handles of the tools that compiled.

        ``tools`` is an MCP tools/list result, {"tools": [{"name": ...,
        "inputSchema": {...}}, ...]}, or the whole JSON-RPC response that
        carries one in "result": as JSON text (``str``, sent unchanged, so
        numbers stay exact, or UTF-8 ``bytes``) or as a dict (written as
        ``json_text`` writes it). A ``nextCursor`` sets ``more_pages``
        (one page of a paginated list); members other than it and each
        tool's name and inputSchema are ignored. Or ``tools`` maps tool names to schemas
        (JSON text or dicts). A mapping is read as a tools/list result when it
        has a "tools" list, or as a JSON-RPC response when it has a "jsonrpc"
        member or a "result" with a "tools" list; otherwise as names to
        schemas.

        A tool that cannot be enforced is an answer: its ``ToolResult`` has
        its code and every finding (keyword "name" for a missing or repeated
        name, "inputSchema" for a missing schema). ``admission`` decides what
        is bound then: ``Admission.QUARANTINE`` (what ``UNSPECIFIED`` means)
        binds every tool that compiled, ``Admission.STRICT`` binds nothing
        (``admitted`` false) unless every tool compiled.

        ``bind`` feeds ``validate_stream(events, handles=result.bind)``; a
        tool left out of it is refused in the stream (keyword "tool_name").
        Only the replica that answered holds the handles: for a stream that
        may reach another replica, bind the compiled tools' schemas inline
        with ``tools=`` instead. ``resources``, ``format_assertion`` and
        ``timeout`` are as in ``compile``. Raises ``TypeError`` or
        ``ValueError`` for tools, a profile, admission, schema or resource
        that cannot be sent, ``grpc.RpcError`` for a failed call
        (``INVALID_ARGUMENT`` for text that is not a tools/list result, or
        for ``resources`` under a profile other than ``Profile.JSON_SCHEMA``).
        """
        request = toolset_request(tools, profile, admission, resources, format_assertion)
        response = self.stub.CompileToolset(request, timeout=timeout, metadata=self._metadata)
        return from_message(ToolsetResult, response)

    def validate(self, handle, arguments, *, timeout=None):
        """Validates ``arguments`` (JSON text, or a dict; "" means ``{}``)
        against the schema held under ``handle``, and returns its
        ``ValidationResult``.

        Invalid arguments are an answer. Does not retry: a replica that does
        not hold ``handle`` raises ``grpc.RpcError`` with ``NOT_FOUND`` (use a
        ``Validator`` to have the schema sent again). ``timeout`` as in
        ``compile``.
        """
        return self._validate(validate_request(arguments, handle=handle), timeout)

    def validate_schema(self, schema, arguments, *, profile=Profile.UNSPECIFIED, resources=None,
                        format_assertion=False, timeout=None):
        """Compiles ``schema`` (or finds it compiled) and validates
        ``arguments`` against it in one Validate call, with the schema inline.

        The result's ``handle`` names the compiled schema for later calls; a
        schema that does not compile is answered with its findings (``valid``
        false, ``handle`` ""). Never ``NOT_FOUND``. The schema's options are
        as in ``compile``, the arguments as in ``validate``.
        """
        inline = compile_request(schema, profile, resources, format_assertion)
        return self._validate(validate_request(arguments, inline=inline), timeout)

    def validator(self):
        """Returns a new ``Validator`` calling through this Client, remembering
        no schemas yet."""
        return Validator(self)

    def validate_stream(self, events, *, tools=None, handles=None, provider=None, profile=Profile.UNSPECIFIED,
                        resources=None, format_assertion=False, timeout=None):
        """Validates streamed tool calls while they are generated, and returns
        the ``ResultStream`` of their ``CallResult``, in the order decided.

        ``events`` (any iterable, pulled as the stream goes) yields raw
        provider events (``str``/``bytes`` payloads, with ``provider`` a
        ``Provider`` or its name) or ``Start``/``Delta``/``End``.

        ``tools`` maps each tool name the model may call to its input schema
        (JSON text or a dict), compiled under ``profile`` with ``resources``
        and ``format_assertion`` as in ``compile``; default none. The schemas
        travel inline with the stream (``StreamBind.schemas``), so whichever
        replica the stream reaches compiles them (or finds them compiled) and
        validates every call: no compile call first, and no ``NOT_FOUND``. A
        schema that does not compile ends the stream with ``INVALID_ARGUMENT``
        naming the tool and its first finding (``compile`` it for every
        finding).

        ``handles`` maps tool names to handles from ``compile``, bound by
        handle; default none. Only the replicas that compiled a handle hold
        it: on any other, each call of its tool gets a result with code
        ``ErrorCode.NOT_FOUND`` (keyword "handle", ``early``), not validated.
        Prefer ``tools``. A name in both is a ``ValueError``.

        ``timeout`` is the whole stream's deadline in seconds; default none.
        Raises at once ``ValueError``/``TypeError`` for a bad provider,
        profile, schema, resource or handle; see ``ResultStream`` for what
        iterating raises and how to stop early.
        """
        binds = tool_binds(tools, handles, profile, resources, format_assertion)
        return open_stream(self, events, binds=binds, provider=provider, timeout=timeout)

    def validate_output_stream(self, events, schema, *, tools=None, handles=None, provider=None,
                               profile=Profile.OUTPUT_BINDABLE, tool_profile=Profile.UNSPECIFIED, resources=None,
                               format_assertion=False, strip_code_fence=False, timeout=None):
        """Validates a provider's structured output while it is generated, and
        the tool calls beside it, and returns the ``ResultStream`` of each
        answer's and each call's ``CallResult``.

        The answer is the message text (OpenAI ``response_format``, Responses
        ``text.format``, Anthropic structured outputs, Gemini
        ``responseSchema``, Bedrock and Cohere JSON text): the text of each
        choice, candidate or message is one JSON document, checked against
        ``schema`` (JSON text or a dict) compiled under ``profile`` (default
        ``Profile.OUTPUT_BINDABLE``, the profile of LLM structured output).
        Its result has ``call_id`` "output/<n>" (n the choice or candidate
        index, 0 when there is one, or an OpenAI Responses message's
        output_index, 1 after a reasoning item) and an empty ``tool_name``,
        and comes at the first byte no valid answer could follow (``early``)
        or when the answer ends.

        The schema travels inline with the stream
        (``StreamBind.output_schema``), so any replica validates it; one that
        does not compile ends the stream with ``INVALID_ARGUMENT``.
        ``strip_code_fence`` (default false) accepts an answer wrapped in one
        Markdown code fence (``` or ```json, on lines of their own), whose
        bytes are skipped; otherwise a fence, like any text before the JSON,
        is a finding with keyword "json" at its first byte. A refusal is a
        result whose first finding has keyword "refusal"; an answer cut off
        by the token limit is incomplete (keyword "json"); a model that writes
        no text (it only calls tools) gives no output result.

        Tool calls in the stream (a model that may answer or call a tool, as
        with OpenAI ``response_format`` and ``tools``) are validated as
        ``validate_stream`` validates them: against ``tools`` (tool names to
        input schemas, bound inline) compiled under ``tool_profile`` (default
        ``Profile.UNSPECIFIED``, the server's tool input profile) or
        ``handles`` (bound by handle). A call of a tool bound neither way is
        a result with keyword "tool_name". ``resources`` and
        ``format_assertion`` (as in ``compile``) apply to the output schema
        and every tool schema alike.

        An answer the caller reads from the provider itself may be sent as
        plain deltas instead of raw events: ``Answer(call_id)`` starts it,
        its ``Delta`` events carry the text and ``End`` ends it; it is held to
        ``schema`` and ``strip_code_fence`` as a raw answer is, and its result
        has that ``call_id``.

        ``events``, ``provider`` and ``timeout``, what is raised (a name in
        both ``tools`` and ``handles`` is a ``ValueError``; a tool schema
        that does not compile ends the stream with ``INVALID_ARGUMENT``
        naming the tool), and how to stop early are as for
        ``validate_stream``.
        """
        binds = output_binds(schema, tools, handles, profile, tool_profile, resources, format_assertion,
                             strip_code_fence)
        return open_stream(self, events, binds=binds, provider=provider, timeout=timeout)

    # The two unary calls, shared with Validator: each sends a prepared
    # request with this Client's metadata and converts the answer.

    def _compile(self, request, timeout):
        response = self.stub.CompileSchema(request, timeout=timeout, metadata=self._metadata)
        return from_message(CompileResult, response)

    def _validate(self, request, timeout):
        response = self.stub.Validate(request, timeout=timeout, metadata=self._metadata)
        return from_message(ValidationResult, response)


def open_channel(channels, target, *, insecure, credentials, token, options):
    """Opens the channel that ``Client.connect`` documents, from
    ``channels``: the module ``grpc`` (a ``grpc.Channel``) or ``grpc.aio``
    (a ``grpc.aio.Channel``), which open channels alike. Returns it with the
    metadata that carries ``token`` (none without a token).

    Raises ``ValueError``, before opening anything, for an empty ``token`` or
    for ``insecure`` together with ``credentials``.
    """
    if token is not None and not token:
        raise ValueError("token is empty")
    if insecure and credentials is not None:
        raise ValueError("insecure and credentials exclude each other")
    if insecure:
        channel = channels.insecure_channel(target, options=options)
    else:
        channel = channels.secure_channel(target, credentials or grpc.ssl_channel_credentials(), options=options)
    return channel, ((("authorization", f"Bearer {token}"),) if token else ())
