"""One table of the posts a room takes (``games.rooms.commands``): the API and mail post
through it, and the kinds each accepts are read from it."""

from __future__ import annotations

from typing import get_args

import pytest

from games.rooms import commands
from games.rooms.api import RoomPostApi
from games.rooms.core import mail_posts
from games.web.exceptions import ApplicationError


def test_the_api_takes_every_kind_and_mail_the_four_a_reply_can_write():
    assert commands.POST_KINDS == (
        "note", "battle", "challenge", "ruling", "agree_result", "decide_result", "end_turn",
        "vacation", "accept_ruling", "reject_ruling",
    )  # fmt: skip
    assert RoomPostApi.RoomEntryInput().fields["kind"].values == commands.POST_KINDS
    assert commands.MAIL_KINDS == ("note", "battle", "challenge", "end_turn")


def test_the_mail_reader_writes_exactly_the_kinds_mail_may_post():
    """The pure reader cannot import the table; this keeps its kinds the table's."""
    read = set(get_args(mail_posts.Kind)) - {"refused"}
    assert read == set(commands.MAIL_KINDS)


@pytest.mark.parametrize(
    ("kind", "fields", "missing"),
    [
        ("ruling", {}, "decision"),  # the decision is named before the entry
        ("ruling", {"decision": "upheld"}, "entry"),
        ("challenge", {"text": "no"}, "entry"),
        ("agree_result", {}, "winners"),
        ("vacation", {}, "days"),
        ("reject_ruling", {}, "entry"),
    ],
)
def test_a_missing_field_is_named_before_any_service_runs(kind, fields, missing):
    with pytest.raises(ApplicationError) as refused:
        commands.run(1, None, kind, fields)
    assert (refused.value.code, refused.value.field) == ("required", missing)
    assert refused.value.message == f"{kind} needs {missing}"


def test_a_kind_mail_may_not_post_is_refused_with_what_it_may():
    with pytest.raises(ApplicationError) as refused:
        commands.run(1, None, "ruling", {"decision": "upheld", "entry": 2}, by_mail=True)
    assert (refused.value.field, tuple(refused.value.allowed)) == ("kind", commands.MAIL_KINDS)
