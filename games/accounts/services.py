"""Accounts: registration, the profile and API tokens. Each function owns its transaction.

Signing in and out need the request (the session), so the views do those with
``django.contrib.auth``; everything that writes a row is here.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from games.models import RESERVED_PREFIXES, Profile, is_reserved_name
from games.web.exceptions import ApplicationError

#: The profile fields ``profile_update`` writes; ``email`` lives on the user.
PROFILE_FIELDS = (
    "display_name", "email_your_turn", "email_reminder", "email_game_over", "roll_until",
    "roll_until_armies",
)  # fmt: skip
USERNAME_TAKEN = "A user with that username already exists."


def _username_taken() -> ApplicationError:
    return ApplicationError(USERNAME_TAKEN, field="username", code="username_taken")


@transaction.atomic
def user_register(
    *, username: str, password: str, email: str = "", display_name: str = ""
) -> AbstractBaseUser:
    """Create a user and their profile; refuse a taken username or a password the validators
    reject (checked against this user, so it may not resemble the username or email)."""
    user_model = get_user_model()
    username = user_model.normalize_username(username)
    if is_reserved_name(username):
        raise ApplicationError(
            f"names starting with {', '.join(RESERVED_PREFIXES)} are the server's own",
            field="username", code="reserved_username",
        )  # fmt: skip
    email = user_model.objects.normalize_email(email or "")
    # Case-insensitive: "Alice" may not sit at the table pretending to be "alice".
    if user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__iexact": username}).exists():
        raise _username_taken()
    candidate = user_model(**{user_model.USERNAME_FIELD: username, "email": email})
    try:
        password_validation.validate_password(password, user=candidate)
    except DjangoValidationError as error:
        raise ApplicationError(
            " ".join(error.messages), field="password", code="weak_password"
        ) from error
    try:
        with transaction.atomic():  # a savepoint: the race loser gets a 400, not a 500
            user = user_model.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        raise _username_taken() from None
    profile = profile_get_or_create(user=user)  # made by the post_save signal already
    if display_name:
        profile.display_name = display_name
        profile.save(update_fields=["display_name"])
    return user


def profile_get_or_create(*, user: AbstractBaseUser) -> Profile:
    """The user's profile; made on the spot for a user older than the ``post_save`` signal."""
    profile, _ = Profile.objects.select_related("user").get_or_create(user=user)
    return profile


@transaction.atomic
def profile_update(*, user: AbstractBaseUser, **fields: Any) -> Profile:
    """Change the display name, email address, email and play preferences given in ``fields``."""
    unknown = set(fields) - {*PROFILE_FIELDS, "email"}
    if unknown:
        raise ApplicationError(
            f"Not a profile field: {', '.join(sorted(unknown))}.",
            field=min(unknown),
            allowed=[*PROFILE_FIELDS, "email"],
            code="unknown_field",
        )
    profile = profile_get_or_create(user=user)
    if "email" in fields:
        user.email = get_user_model().objects.normalize_email(fields["email"] or "")
        user.save(update_fields=["email"])
    changed = [name for name in PROFILE_FIELDS if name in fields]
    for name in changed:
        setattr(profile, name, fields[name])
    if changed:
        profile.save(update_fields=changed)
    profile.user = user
    return profile


@transaction.atomic
def token_issue(*, user: AbstractBaseUser) -> Token:
    """The user's API token, made the first time it is asked for."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def token_revoke(*, user: AbstractBaseUser) -> None:
    """Delete the user's API token (a no-op without one); a later issue makes a new key."""
    Token.objects.filter(user=user).delete()
