"""A bound on the work one calculation may do: states expanded, simulated runs and seconds.

The solvers are pure and know nothing of requests, so the limit travels in a context variable:
the caller (the HTTP layer, the AI) opens ``with Budget(states=..., seconds=...):`` around a
query, and the solvers call ``charge(n)`` as they expand states or play runs. Outside any budget
``charge`` does nothing, so tests and benchmarks run unbounded. When the budget runs out
``BudgetExceeded`` is raised inside the solver, which unwinds it at once (nothing half-computed
is cached: ``lru_cache`` keeps only returned values).

The clock is read every ``CLOCK_EVERY`` units of work, not on every charge, so the check costs a
counter increment in the solvers' inner loops.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token
from types import TracebackType

CLOCK_EVERY = 2048


class BudgetExceeded(RuntimeError):
    """The calculation needed more than its budget: ``limit`` names which (states, seconds)."""

    def __init__(self, limit: str, allowed: float, message: str) -> None:
        self.limit = limit
        self.allowed = allowed
        self.message = message
        super().__init__(message)


class Budget:
    """At most ``states`` units of work and ``seconds`` of wall time (None: no bound)."""

    def __init__(self, *, states: int | None = None, seconds: float | None = None) -> None:
        self.states = states
        self.seconds = seconds
        self.used = 0
        self._deadline: float | None = None
        self._next_clock = CLOCK_EVERY
        self._token: Token[Budget | None] | None = None

    def __enter__(self) -> Budget:
        if self.seconds is not None:
            self._deadline = time.monotonic() + self.seconds
        self._token = _current.set(self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._token is not None
        _current.reset(self._token)

    def charge(self, units: int) -> None:
        self.used += units
        if self.states is not None and self.used > self.states:
            raise BudgetExceeded(
                "states", self.states, f"the calculation needs more than {self.states:,} states"
            )
        if self._deadline is not None and self.used >= self._next_clock:
            self._next_clock = self.used + CLOCK_EVERY
            if time.monotonic() > self._deadline:
                raise BudgetExceeded(
                    "seconds", self.seconds or 0, f"the calculation ran past {self.seconds} s"
                )


_current: ContextVar[Budget | None] = ContextVar("combat_budget", default=None)


def charge(units: int = 1) -> None:
    """Count ``units`` of work against the budget in force, if any (a no-op outside one)."""
    budget = _current.get()
    if budget is not None:
        budget.charge(units)
