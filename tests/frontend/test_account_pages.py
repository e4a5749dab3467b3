"""Settings and password pages: the profile form, and Django's password change and
reset-by-email views with the site's templates."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db

PASSWORD = "an old enough password 1"
NEW = "a brand new passphrase 22"


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", "alice@example.org", PASSWORD)


def test_the_settings_page_labels_every_field_and_links_the_password_pages(client):
    html = client.get("/settings").content.decode()
    for field in ("settings-display", "settings-email", "settings-your-turn",
                  "settings-reminder", "settings-game-over"):  # fmt: skip
        assert f'<label for="{field}">' in html, field
    assert 'href="/account/password"' in html and 'href="/account/reset"' in html
    assert 'href="/settings"' in html  # in the site's navigation


def test_changing_the_password_needs_the_old_one_and_a_session(client, alice):
    assert client.get("/account/password")["Location"] == "/login?next=/account/password"
    client.force_login(alice)
    page = client.get("/account/password").content.decode()
    assert '<label for="id_old_password">' in page
    wrong = client.post("/account/password", {"old_password": "nope", "new_password1": NEW,
                                              "new_password2": NEW})  # fmt: skip
    assert (
        wrong.status_code == 200
        and "Your old password was entered incorrectly" in wrong.content.decode()
    )
    done = client.post("/account/password", {"old_password": PASSWORD, "new_password1": NEW,
                                             "new_password2": NEW})  # fmt: skip
    assert done["Location"] == "/account/password/done"
    alice.refresh_from_db()
    assert alice.check_password(NEW)


def test_a_password_reset_mails_a_link_that_sets_a_new_password_once(client, alice):
    sent = client.post("/account/reset", {"email": "alice@example.org"})
    assert sent["Location"] == "/account/reset/sent"
    (message,) = mail.outbox
    assert message.subject == "Warboard: choose a new password"
    assert message.to == ["alice@example.org"]
    link = re.search(r"http://testserver(/account/reset/\S+)", message.body).group(1)
    form = client.get(link, follow=True)  # Django swaps the token for a session key first
    assert form.status_code == 200 and '<label for="id_new_password1">' in form.content.decode()
    final = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert final["Location"] == "/account/reset/done"
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    again = client.get(link, follow=True).content.decode()
    assert "This link has been used or has expired" in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, alice):
    sent = client.post("/account/reset", {"email": "nobody@example.org"})
    assert sent["Location"] == "/account/reset/sent" and mail.outbox == []
