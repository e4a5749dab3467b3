"""The Redis broker transport of Celery, made safe to use after its connection is lost.

Celery 5.7.0 with kombu 5.7.0 (the newest of both) stopped the whole worker when the Redis
broker went away while the worker held a task *and* was still fetching: a task with an ETA
waiting in the worker (every AI move of a game with an AI delay is one), or a second pool slot
free while the first runs a task (the compose file runs two). The worker logged "Restoring 1
unacknowledged message(s)", then "Unrecoverable error: AttributeError('NoneType' object has no
attribute 'hostname')" and exited; nothing ran again until someone restarted it by hand.

What happens, in ``celery.worker.consumer.Consumer.on_connection_error_after_connected``:

1. ``connection.collect()`` closes the default channel. That redis channel is blocked in a
   ``BRPOP``, so its ``close`` first reads the reply, which fails (Redis is gone) before the
   channel is marked closed; kombu swallows the error. ``collect`` then releases the transport
   (``transport.client = None``) but keeps the half-closed channel.
2. Any later use of that channel needs a new Redis client, whose parameters are read from
   ``transport.client.hostname``: ``AttributeError``, which is neither a connection nor a
   channel error, so nothing on the way handles it and the worker stops. Two such uses: the
   ``connection.close()`` that Celery 5.7.0 added after ``collect()`` (it closes the channel
   again, which now tries to restore its unacknowledged messages), and the acknowledgement of
   a task that was running through the outage and ends after the worker has reconnected.
   A channel whose close did complete has no connection at all (``channel.connection`` is
   None), and acknowledging on it fails the same way (``'NoneType' object has no attribute
   'client'``).

Celery 5.6.3 with kombu 5.6.2 survives both (checked with the same worker and outage), so this
is a regression of 5.7.0, which no release fixes yet; pinning 5.6.3 would give up 5.7.0's other
reconnection fixes (timer entries of the lost connection cancelled, sockets bounded before
clean-up). Here the channel of a released connection refuses with a
*connection* error instead (``redis.exceptions.ConnectionError``): the error kombu and Celery
already expect from a lost broker. Closing ignores it; a late acknowledgement is logged ("Couldn't
ack"); nothing is lost: the unacknowledged message stays in Redis's unacked set and returns to
the queue after the visibility timeout (the tasks are idempotent), and a game waiting on a task
lost with Redis is queued again by the deadline sweep (``GAME_STALLED_SECONDS``) before that.

``use()`` (called by ``config.celery``) points kombu's ``redis://`` and ``rediss://`` at this
transport; ``tests/integration/test_faults.py`` kills a real Redis under a real worker during a
bot turn, and ``tests/integration/test_outages.py`` acknowledges on a collected channel.
"""

from __future__ import annotations

from typing import Any

import kombu.transport
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

#: The URL schemes served by this transport.
SCHEMES = ("redis", "rediss")


class Channel(kombu_redis.Channel):
    """kombu's redis channel, refusing with a connection error once its connection is gone:
    released by ``collect()`` (``transport.client`` is None) or the channel closed for good
    (``channel.connection`` is None)."""

    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection of this channel was closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    """kombu's redis transport with the channel above."""

    Channel = Channel


def use() -> None:
    """Make ``redis://`` and ``rediss://`` broker URLs use this transport (before any broker
    connection is made: kombu caches the class it resolves for a scheme)."""
    for scheme in SCHEMES:
        kombu.transport.TRANSPORT_ALIASES[scheme] = f"{__name__}:Transport"
