"""Reading a room reply into posts (games.rooms.core.mail_posts): pure, text in, posts out."""

from __future__ import annotations

from games.rooms.core.mail_posts import Post, read_posts


def test_the_note_comes_first_then_the_commands_in_the_order_written():
    text = (
        "Buys 2 arm.\n\n# a comment\nBattle 3 inf 1 art vs 2 inf\nMoves 6 inf to Karelia\n"
        "challenge #12 Karelia had 2 fighters\n  End   Turn  \n"
    )
    note = "Buys 2 arm.\nMoves 6 inf to Karelia"
    assert read_posts(text) == [
        Post("note", note, text=note),
        Post("battle", "Battle 3 inf 1 art vs 2 inf", text="3 inf 1 art vs 2 inf"),
        Post("challenge", "challenge #12 Karelia had 2 fighters", text="Karelia had 2 fighters",
             entry=12),
        Post("end_turn", "End   Turn"),
    ]  # fmt: skip


def test_a_challenge_without_its_number_or_text_is_a_refused_post_in_its_place():
    assert read_posts("challenge twelve it was wrong\nend turn") == [
        Post("refused", "challenge twelve it was wrong",
             refusal="word 2 'twelve': expected the number of the entry challenged"),
        Post("end_turn", "end turn"),
    ]  # fmt: skip
    assert read_posts("challenge 3")[0].refusal == (
        "a challenge needs a text after the entry's number"
    )
    assert read_posts("challenge")[0].kind == "refused"


def test_a_reply_with_nothing_but_blank_and_comment_lines_has_no_posts():
    assert read_posts("\n  \n# only a comment\n") == []
    # 'battle' alone and 'end' alone are note text, not commands.
    assert read_posts("battle\nend") == [Post("note", "battle\nend", text="battle\nend")]
