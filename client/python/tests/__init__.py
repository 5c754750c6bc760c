"""Tests of the toolgate Python client; ``make interop`` runs them all.

Unit tests need nothing; the interop tests (``test_client``, ``test_validator``,
``test_stream``, ``test_replicas``, ``test_readme``) need two running replicas,
named by ``TOOLGATE_ADDR_A`` and ``TOOLGATE_ADDR_B`` (``client/interop/run.sh``
starts them), and fail without them. ``test_receipt`` and ``test_aio_receipt``
run against a stand-in server of their own (``fake_server``), for endings a
replica never sends. ``test_generated`` runs buf.
"""
