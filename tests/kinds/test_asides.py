"""Two reading rules: a short aside after a format belongs to it ("as a PNG image (base64
encoded)" is a base64 image), and a description naming subkinds of two branches is settled by
its first sentence ("Create a new file ... Only works within allowed directories")."""

from __future__ import annotations

from lgent.kinds import Vocabulary
from tests.kinds.helpers import best_input, best_output


def test_an_aside_after_a_format_is_part_of_it(vocabulary: Vocabulary) -> None:
    said = "Get the current drawing canvas as a PNG image (base64 encoded)."
    assert best_output(vocabulary, name="get_canvas", description=said) == "Base64Image"
    plain = "Get the current drawing canvas as a PNG image."
    assert best_output(vocabulary, name="get_canvas", description=plain) == "Image"


def test_the_first_sentence_settles_two_branches(vocabulary: Vocabulary) -> None:
    said = (
        "Create a new file or completely overwrite an existing file with new content. "
        "Only works within allowed directories."
    )
    schema = {"type": "string"}
    assert best_input(vocabulary, "path", schema, description=said) == "FilePath"
    both = "Create a file or a directory."
    assert best_input(vocabulary, "path", schema, description=both) == "Path"
