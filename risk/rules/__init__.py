"""The pure Fast Risk rules engine: ``apply(state, action, dice) -> (state, events)``.

Standard library and ``combat`` only; a test fails on any Django, DRF, Channels or Celery import.
"""
