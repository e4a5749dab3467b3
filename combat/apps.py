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
    """Compile the numba kernels (the Risk flanking walk, the A&A chain sweeps and general
    sweep, the A&A questions' grid passes) before the first request needs them
    (``COMBAT_WARM_UP``): about 26 s compiled (21 s of it the A&A general sweep), 0.3 s
    from numba's cache."""
    from combat import risk_flanking
    from combat.axis_allies import chain_sweep, general_sweep
    from combat.axis_allies.questions import grid_sweep

    risk_flanking.warm_up()
    chain_sweep.warm_up()
    general_sweep.warm_up()
    grid_sweep.warm_up()
