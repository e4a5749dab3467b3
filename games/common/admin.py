"""What every feature's admin shares: operator actions that call a service per row, and
read-only inlines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games.web.exceptions import ApplicationError

SECRET = "secret until the game is over"


class OperatorActions:
    """Admin actions need the right to change games, whatever the model they are listed on."""

    #: ``ModelAdmin``'s, which every admin mixes this into (declared for the type checker only).
    message_user: Callable[..., None]

    def has_operate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_game")

    def run_each(
        self,
        request: HttpRequest,
        rows: QuerySet,
        service: Callable[[Any], Any],
        done: str,
    ) -> None:
        """``service`` on each row; one message for the successes, one per refusal."""
        ok = 0
        for row in rows:
            try:
                service(row)
            except ApplicationError as exc:
                self.message_user(request, f"{row}: {exc.message}", messages.WARNING)
            else:
                ok += 1
        if ok:
            self.message_user(request, f"{done}: {ok}", messages.SUCCESS)


class ReadOnlyInline(admin.TabularInline):
    """A listing inside a parent's page: the services write these rows, the admin only shows
    them (no add, change or delete here)."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
