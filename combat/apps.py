import threading

from django.apps import AppConfig
from django.conf import settings


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = "Combat resolver"

    def ready(self) -> None:
        if settings.COMBAT_WARM_UP:
            threading.Thread(target=_warm_up, name="combat-warm-up", daemon=True).start()


def _warm_up() -> None:
    """Compile the numba kernels (the Risk flanking walk, the A&A chain sweeps) before the
    first request needs them (``COMBAT_WARM_UP``): 4 s compiled, 0.4 s from numba's cache."""
    from combat import risk_flanking
    from combat.axis_allies import chain_sweep

    risk_flanking.warm_up()
    chain_sweep.warm_up()
