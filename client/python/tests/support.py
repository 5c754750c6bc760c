"""What the interop tests share: the replicas, unique schemas, the recording."""

import json
import os
import pathlib
import time
import uuid

import grpc

import toolgate

REPO = pathlib.Path(__file__).resolve().parents[3]
TESTDATA = REPO / "client" / "interop" / "testdata"


def replica_address(name):
    """Returns the address of replica ``name`` ("A" or "B") from the
    environment; fails, never skips, when it is not set."""
    address = os.environ.get(f"TOOLGATE_ADDR_{name}")
    if not address:
        raise RuntimeError(f"TOOLGATE_ADDR_{name} is not set: run these tests with `make interop`")
    return address


def connect(name):
    """Returns a Client with its own plaintext channel to replica ``name``."""
    return toolgate.Client.connect(replica_address(name), insecure=True)


def unique(schema):
    """Returns ``schema`` with a description no other run has used, so that
    its handle is new to both replicas (which every suite and test share)."""
    return {**schema, "description": f"interop run {uuid.uuid4()}"}


def recording(name):
    """Returns the events (one payload per line) and the expected calls of a
    recorded provider stream under client/interop/testdata."""
    base = TESTDATA / name
    events = base.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
    expected = json.loads(base.with_suffix(".expected.json").read_text(encoding="utf-8"))
    return events, expected


class SwitchChannel:
    """A channel that sends each call to whichever real channel ``route``
    named last, as a load balancer moving a client between replicas would.

    It provides what the generated stub uses (``unary_unary`` and
    ``stream_stream``); each call is looked up when it is made, not when the
    stub is built. The channels may be ``grpc`` or ``grpc.aio`` channels.
    """

    def __init__(self, **channels):
        self._channels = channels
        self._unary = self._streams = None

    def route(self, name, *, streams=None):
        """Sends the calls made from now on to channel ``name``, and the
        streams among them to ``streams`` (default ``name`` too)."""
        self._unary, self._streams = name, streams or name

    def unary_unary(self, method, request_serializer=None, response_deserializer=None, **_):
        def call(request, **kwargs):
            target = self._channels[self._unary].unary_unary(method, request_serializer, response_deserializer)
            return target(request, **kwargs)

        return call

    def stream_stream(self, method, request_serializer=None, response_deserializer=None, **_):
        def call(requests=None, **kwargs):  # a grpc.aio stream may be written to instead
            target = self._channels[self._streams].stream_stream(method, request_serializer, response_deserializer)
            return target(requests, **kwargs)

        return call

    # The stub builds one of each kind; toolgate has no such methods.
    unary_stream = stream_unary = unary_unary


class Unsent:
    """A channel that records every call made through it."""

    def __init__(self):
        self.calls = []

    def _method(self, method, *_, **__):
        def call(*_, **__):
            self.calls.append(method)
            raise AssertionError(f"{method} was called")

        return call

    unary_unary = unary_stream = stream_unary = stream_stream = _method


class SlowSwitch(SwitchChannel):
    """A SwitchChannel whose unary calls record their ``timeout`` and whose
    failures take ``delay`` seconds to arrive, as from a slow replica."""

    def __init__(self, delay, **channels):
        super().__init__(**channels)
        self.delay = delay
        self.timeouts = []

    def unary_unary(self, method, *args, **kwargs):
        call = super().unary_unary(method, *args, **kwargs)

        def slow(request, **options):
            self.timeouts.append(options.get("timeout"))
            try:
                return call(request, **options)
            except grpc.RpcError:
                time.sleep(self.delay)
                raise

        return slow
