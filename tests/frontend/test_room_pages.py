"""The rooms' pages: shells that read no database; rooms.js and room.js fill them from
/api/rooms. Linked from the site's navigation."""

from __future__ import annotations

from combat.axis_allies.editions import available_editions
from tests.frontend.test_pages import SCRIPT, page, title


def test_the_nav_links_to_the_rooms(client):
    html = page(client, "/games")  # no db fixture: a database read would fail the test
    assert '<a href="/rooms">Rooms</a>' in html


def test_the_room_list_page_has_the_create_form(client):
    html = page(client, "/rooms")
    assert title(html) == "Rooms - Warboard"
    assert SCRIPT.format("rooms.js") in html
    for field in ("name", "system", "rules", "edition", "sides", "side", "referee", "rated",
                  "days_per_turn", "public"):  # fmt: skip
        assert f'name="{field}"' in html


def test_the_room_form_offers_every_aa_edition_revised_first_chosen(client):
    html = page(client, "/rooms")
    for key in available_editions():
        assert f'<option value="{key}"' in html
    assert '<option value="revised" selected>' in html
    assert ">Axis &amp; Allies 1942 Second Edition (2012)</option>" in html


def test_the_room_page_carries_the_id_and_the_post_form(client):
    html = page(client, "/rooms/42")
    assert title(html) == "Room 42 - Warboard"
    assert 'data-room-id="42"' in html
    assert SCRIPT.format("room.js") in html
    assert 'href="/api/rooms/42/journal.txt"' in html
    for kind in ("note", "battle", "challenge", "ruling", "end_turn", "agree_result",
                 "accept_ruling", "reject_ruling"):  # fmt: skip
        assert f'<option value="{kind}"' in html
