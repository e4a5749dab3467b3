"""Accounts' signal receivers, connected in ``GamesConfig.ready``."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Profile

logger = logging.getLogger(__name__)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.profile_for_new_user")
def profile_for_new_user(sender: type, instance: Any, created: bool, raw: bool, **kwargs: Any):
    """Every user has a profile, however made: registration, ``createsuperuser``, the admin.

    Not while loading fixtures (``raw``): a fixture brings its own profile rows.
    """
    if created and not raw:
        Profile.objects.get_or_create(user=instance)
