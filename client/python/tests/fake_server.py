"""A stand-in ValidationService, in process on a free loopback port, whose
ValidateStream ends as a test says: for what a real replica never does (an
OK end without the receipt, a receipt that miscounts, a message after it).
No replica needed."""

from concurrent import futures

import grpc

from toolgate import Delta, End, Start
from toolgate.v1 import validation_pb2 as pb
from toolgate.v1 import validation_pb2_grpc as pb_grpc

# A tool to bind inline (one StreamBind), and the events of two calls of it.
TOOLS = {"t": {"type": "object"}}
EVENTS = [Start("a", "t"), Delta("a", "{}"), End("a"), Start("b", "t"), End("b")]
# The results the fake sends for EVENTS, by call id, in order.
CALL_IDS = ["a", "b"]


def results_for(requests):
    """A valid CallResult for each call that ``requests`` end, in order."""
    return [pb.ValidateStreamResponse(result=pb.CallResult(call_id=r.end.call_id, tool_name="t", valid=True))
            for r in requests if r.HasField("end")]


def receipt(events, results):
    return pb.ValidateStreamResponse(end=pb.StreamEnd(events=events, results=results))


def honest(requests):
    """What a real replica sends: a result per call, then the receipt."""
    results = results_for(requests)
    return [*results, receipt(len(requests), len(results))]


# How a stream ends: name to what the fake sends once the client has
# half-closed, given every request it read, and the error's details (None
# for an end without error).
ENDINGS = {
    "the receipt": (honest, None),
    "no receipt": (results_for, "the stream ended without the server's receipt for the events sent"),
    "an event not counted": (lambda rs: [*results_for(rs), receipt(len(rs) - 1, 2)],
                             "the server's receipt counts 6 events and 2 results; the client sent 7 and received 2"),
    "a result not counted": (lambda rs: [*results_for(rs), receipt(len(rs), 1)],
                             "the server's receipt counts 7 events and 1 results; the client sent 7 and received 2"),
    "a result after the receipt": (lambda rs: [*honest(rs), results_for(rs)[0]],
                                   "the server sent a message after the stream's receipt"),
    "a receipt after the receipt": (lambda rs: [*honest(rs), honest(rs)[-1]],
                                    "the server sent a message after the stream's receipt"),
}


class _Servicer(pb_grpc.ValidationServiceServicer):
    def __init__(self, server):
        self._server = server

    def ValidateStream(self, request_iterator, context):  # noqa: N802 - the generated name
        requests = list(request_iterator)  # until the client half-closes
        self._server.requests.append(requests)
        yield from self._server.respond(requests)


class FakeServer:
    """A gRPC server on 127.0.0.1 whose ValidateStream reads every request
    until the client half-closes, records them in ``requests`` (a list per
    stream), and then sends what ``respond(requests)`` returns, ending the
    stream with OK. ``address`` is where it listens; ``stop()`` stops it."""

    def __init__(self, respond=honest):
        self.respond = respond
        self.requests = []
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        pb_grpc.add_ValidationServiceServicer_to_server(_Servicer(self), self._server)
        port = self._server.add_insecure_port("127.0.0.1:0")
        if not port:
            raise RuntimeError("the fake server could not bind a loopback port")
        self.address = f"127.0.0.1:{port}"
        self._server.start()

    def stop(self):
        self._server.stop(None).wait()
