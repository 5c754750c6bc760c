"""The base of the ``grpc.RpcError``s the client raises itself."""

import grpc


class ClientRpcError(grpc.RpcError):
    """A ``grpc.RpcError`` the client raises itself, with the status code
    its subclass names (``status``) and its message as ``details()``. It
    answers what generic handlers of ``grpc.RpcError`` ask a ``grpc.Call``:
    ``initial_metadata()`` and ``trailing_metadata()`` (an empty tuple: the
    error is the client's, not the server's) and ``debug_error_string()``
    (its details)."""

    status = grpc.StatusCode.UNKNOWN

    def code(self):
        """Returns the subclass's status code."""
        return self.status

    def details(self):
        """Returns what went wrong."""
        return str(self)

    def initial_metadata(self):
        """Returns an empty tuple: no metadata goes with this error."""
        return ()

    def trailing_metadata(self):
        """Returns an empty tuple: no metadata goes with this error."""
        return ()

    def debug_error_string(self):
        """Returns ``details()``."""
        return self.details()
