"""The Client: one toolgate ValidationService, one method per RPC."""

import grpc

from toolgate.enums import Profile
from toolgate.messages import compile_request, validate_request
from toolgate.results import CompileResult, ValidationResult, from_message
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
        if token is not None and not token:
            raise ValueError("token is empty")
        if insecure and credentials is not None:
            raise ValueError("insecure and credentials exclude each other")
        if insecure:
            channel = grpc.insecure_channel(target, options=options)
        else:
            channel = grpc.secure_channel(target, credentials or grpc.ssl_channel_credentials(), options=options)
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
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

    def compile(self, schema, *, profile=Profile.UNSPECIFIED, timeout=None):
        """Compiles ``schema`` (JSON text, or a dict: see ``json_text``) under
        ``profile`` (default: the tool input profile) with CompileSchema, and
        returns its ``CompileResult``.

        A schema that does not compile is an answer: no handle, ``code`` and
        every finding set. ``timeout`` is the call's deadline in seconds
        (default none). Raises ``ValueError`` or ``TypeError`` for a profile or
        schema that cannot be sent, ``grpc.RpcError`` for a failed call.
        """
        return self._compile(compile_request(schema, profile), timeout)

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

    def validate_schema(self, schema, arguments, *, profile=Profile.UNSPECIFIED, timeout=None):
        """Compiles ``schema`` (or finds it compiled) and validates
        ``arguments`` against it in one Validate call, with the schema inline.

        The result's ``handle`` names the compiled schema for later calls; a
        schema that does not compile is answered with its findings (``valid``
        false, ``handle`` ""). Never ``NOT_FOUND``. Arguments as in
        ``validate``.
        """
        return self._validate(validate_request(arguments, inline=compile_request(schema, profile)), timeout)

    def validator(self):
        """Returns a new ``Validator`` calling through this Client, remembering
        no schemas yet."""
        return Validator(self)

    def validate_stream(self, events, *, tools=None, provider=None, profile=Profile.UNSPECIFIED, timeout=None):
        """Validates streamed tool calls while they are generated, and returns
        the ``ResultStream`` of their ``CallResult``, in the order decided.

        ``events`` (any iterable, pulled as the stream goes) yields raw
        provider events (``str``/``bytes`` payloads, with ``provider`` a
        ``Provider`` or its name) or ``Start``/``Delta``/``End``. ``tools``
        maps each tool name the model may call to its input schema (JSON text
        or a dict, compiled under ``profile``); default none. ``timeout`` is
        the whole stream's deadline in seconds; default none.

        Raises at once ``ValueError``/``TypeError`` for a bad provider,
        profile or schema, ``SchemaError`` for a tool schema that does not
        compile, ``grpc.RpcError`` when compiling one fails; see
        ``ResultStream`` for what iterating raises and how to stop early.
        """
        return open_stream(self, events, tools=tools, provider=provider, profile=profile, timeout=timeout)

    # The two unary calls, shared with Validator: each sends a prepared
    # request with this Client's metadata and converts the answer.

    def _compile(self, request, timeout):
        response = self.stub.CompileSchema(request, timeout=timeout, metadata=self._metadata)
        return from_message(CompileResult, response)

    def _validate(self, request, timeout):
        response = self.stub.Validate(request, timeout=timeout, metadata=self._metadata)
        return from_message(ValidationResult, response)

