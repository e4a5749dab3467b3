"""Moves by email: the pure parts (the signed reply address, reading a MIME reply).

Nothing here imports Django: the services (``games.mail.intake``, ``games.play.notify``) pass
the secret, the domain and the raw bytes in and get values back.
"""
