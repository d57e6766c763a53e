"""The session says a file problem in the core's one wording for it (issue 24, one wording per message kind):
a missing file, a file that cannot be read and bytes that are not UTF-8 read as the core's own messages do."""
from __future__ import annotations

from bpe_core.base import no_such_file, not_utf8, read_error
from bpe_lens_app.session.payloads import user_message


def test_a_missing_file_is_said_as_the_core_says_it():
    exc = FileNotFoundError(2, "No such file or directory", "/srv/corpus.txt")
    assert user_message(exc) == no_such_file("/srv/corpus.txt") == "/srv/corpus.txt: no such file or folder"


def test_a_file_that_cannot_be_read_is_said_as_the_core_says_it():
    exc = PermissionError(13, "Permission denied", "/srv/v.json")
    assert user_message(exc) == str(read_error("/srv/v.json", exc)) == "/srv/v.json: cannot read (Permission denied)"


def test_bytes_that_are_not_utf8_are_said_as_the_core_says_it():
    exc = UnicodeDecodeError("utf-8", b"ab\xff", 2, 3, "invalid start byte")
    assert user_message(exc) == not_utf8("The file", 2, " (invalid start byte)")
