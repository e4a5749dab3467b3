"""Reading a MIME reply (games.mail.core.reading): the body in its charset, HTML as text, the
quoted thread and signature cut, the move lines kept. Real messages from common clients."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.mail.core import reading

MAIL = Path(__file__).parent.parent / "data" / "mail"
ADDRESS = "moves+1.0.1.0123456789abcdef0123@warboard.example.org"


def fixture(name: str, move1: str = "place 3 Alaska", move2: str = "end") -> bytes:
    """A fixture with its placeholders filled: the reply address and the two moves (the first
    written by the player, the second only in the quoted "your turn" mail)."""
    raw = (MAIL / name).read_bytes()
    for key, value in {"%REPLY_TO%": ADDRESS, "%MOVE1%": move1, "%MOVE2%": move2,
                       "%GAME%": "1", "%DOMAIN%": "warboard.example.org"}.items():  # fmt: skip
        raw = raw.replace(key.encode(), value.encode())
    return raw


def moves_of(raw: bytes) -> list[str]:
    return reading.move_lines(reading.reply_text(reading.read_mail(raw).text))


def test_a_gmail_reply_is_read_from_its_plain_part_without_the_quote():
    mail = reading.read_mail(fixture("gmail_reply.eml"))
    assert mail.message_id == "<CAGmail-reply-0001@mail.gmail.com>"
    assert mail.sender == "alice@example.org"  # lower-cased, display name dropped
    assert mail.recipients == (ADDRESS,)  # To and Delivered-To name the same address
    assert mail.subject == "Re: [Warboard] Your turn in Game 1"
    assert moves_of(fixture("gmail_reply.eml")) == ["place 3 Alaska"]


def test_an_outlook_reply_loses_its_sign_off_and_the_original_message():
    raw = fixture("outlook_reply.eml", move2="attack Alaska > Kamchatka")
    text = reading.read_mail(raw).text
    assert "Alice \u2013 sent from the office" in text  # windows-1252's 0x96, decoded
    assert moves_of(raw) == ["place 3 Alaska", "attack Alaska > Kamchatka"]


def test_an_apple_mail_reply_loses_sent_from_my_iphone_and_the_quoted_header():
    raw = fixture("apple_mail_reply.eml")
    mail = reading.read_mail(raw)
    assert mail.message_id == "<5F2C1A9E-3B7D-4C1E-9A0B-APPLE0001@example.org>"
    assert mail.recipients == (ADDRESS, "alice@example.org")  # To, then Cc
    assert moves_of(raw) == ["place 3 Alaska"]


def test_an_html_only_reply_is_turned_into_text_without_the_blockquote():
    raw = fixture("html_only_reply.eml")
    text = reading.read_mail(raw).text
    assert text == "place 3 Alaska\n\n# Gr\u00fc\u00dfe aus M\u00fcnchen"  # iso-8859-1 decoded
    assert moves_of(raw) == ["place 3 Alaska"]


def test_html_to_text_breaks_lines_at_blocks_and_drops_scripts_styles_and_quotes():
    html = (
        "<style>div{}</style><div>place 3 Alaska<br>end</div><script>x()</script>"
        "<ul><li>roll</li></ul><blockquote>quoted<blockquote>deeper</blockquote>still</blockquote>"
        "after&nbsp;&amp;&lt;"
    )
    assert reading.html_to_text(html) == "place 3 Alaska\nend\n\nroll\n\nafter &<"


def test_move_lines_skip_blanks_and_comments_and_take_bullets_off():
    text = "  place 3 Alaska  \n\n# a comment\n- end\n* roll\n\u2022 cruise S12\n-x\n"
    assert reading.move_lines(text) == ["place 3 Alaska", "end", "roll", "cruise S12", "-x"]


def test_a_mail_without_a_message_id_is_named_by_its_bytes():
    raw = b"From: alice@example.org\nTo: x@y.org\nSubject: hi\n\nend\n"
    first, again = reading.read_mail(raw), reading.read_mail(raw)
    assert first.message_id.startswith("<sha256:") and first.message_id == again.message_id
    assert reading.read_mail(raw + b"roll\n").message_id != first.message_id


def test_a_mail_without_a_sender_is_unreadable():
    with pytest.raises(reading.UnreadableMail, match="no From address"):
        reading.read_mail(b"To: x@y.org\nSubject: hi\n\nend\n")


def test_an_unknown_charset_is_read_as_utf8_with_replacements():
    raw = (
        b"From: alice@example.org\nTo: x@y.org\nMIME-Version: 1.0\n"
        b"Content-Type: text/plain; charset=x-no-such-charset\n\nend \xff\n"
    )
    assert reading.read_mail(raw).text == "end \ufffd\n"


def test_the_body_is_cut_before_the_reply_parser_sees_it():
    raw = b"From: alice@example.org\nTo: x@y.org\n\n" + b"end\n" * 20_000
    assert len(reading.read_mail(raw).text) == reading.MAX_TEXT_CHARS


def test_a_line_ending_with_a_comma_goes_on_on_the_next():
    text = "arrange Alaska 3,\nAlberta 5, Ontario 13,\n\nfactory Alaska\nend\nplace 1 Peru,"
    assert reading.move_lines(text) == [
        "arrange Alaska 3, Alberta 5, Ontario 13, factory Alaska",
        "end",
        "place 1 Peru,",
    ]


def test_format_flowed_soft_breaks_are_joined_back():
    raw = (
        b"From: alice@example.org\r\nTo: x@y.org\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=no\r\n\r\n"
        b"arrange Alaska 3, Alberta \r\n5, factory Alaska\r\n end\r\n-- \r\nAlice\r\n"
    )
    text = reading.read_mail(raw).text
    assert text == "arrange Alaska 3, Alberta 5, factory Alaska\nend\n-- \nAlice\n"
    assert reading.move_lines(reading.reply_text(text)) == [
        "arrange Alaska 3, Alberta 5, factory Alaska",
        "end",
    ]


def test_delsp_yes_drops_the_space_of_a_soft_break():
    assert reading.unflow("place 3 Ala \nska\nend", delsp=True) == "place 3 Alaska\nend"


def test_a_very_long_line_is_cut_before_the_reply_parser_sees_it():
    """20,000 characters of "On On On ..." kept the parser's "On ... wrote:" pattern busy for
    11 s; cut to one character over a move's limit it is quick, and still too long a move."""
    text = "On " * 6000
    lines = reading.move_lines(reading.reply_text(text))
    assert [len(line) for line in lines] == [reading.MAX_LINE_CHARS + 1]  # refused as too long
