"""The text budget: how many word pieces of an entry's text the model reads.

all-MiniLM-L6-v2 reads at most 256 word pieces ([CLS] and [SEP] included), and its cost grows
with every piece: an OpenAPI operation's text (its parameters written into the description) is
187 pieces at the median, a PyPI summary about 20. An entry's text is therefore cut to a budget
of word pieces (``semantic.entry_tokens``) before it is embedded: after its last whole word that
fits, so the text the model reads is a prefix of the entry's text that ends at a word. Only a
word longer than the whole budget is cut inside. The cut text is the text embedded and the one
the embedding cache keys, so a text cut to another budget is another key (never a stale
vector), and a text within the budget keeps its key. A query is never cut by it (only by the
model's own limit).

The default, 72 pieces, was chosen on the development sets and the ecosystem's texts
(docs/benchmarks.md, "Embedding long texts"). On ToolLens, whose tool texts run to 736 pieces,
any cut costs about half a point of fused nDCG@10: 0.65 at 64, 0.46 at 72, 0.41 at 80, 0.44 at 96
and 0.56 at 128. MetaTool's texts (at most 68 pieces) are not cut; of the labeled catalog's (at
most 80), 72 cuts a few, which changes no fused figure. On the ecosystem's texts (187 pieces at
the median) a build embedded 3.25, 3.19 and 2.93 times as many entries a second as before the
budget (whole texts) at 64, 72 and 80 pieces (one paired run on 2 busy cores). Cutting the description and keeping the keywords and
the type signature whole instead was measured too, and lost more (ToolLens 0.9 at 64, 0.7 at 80).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lgent.errors import ModelUnavailableError, SettingsError

SPECIAL_PIECES = 2
"""[CLS] and [SEP]: counted in the model's limit and in the budget."""
MIN_BUDGET = 8
"""The smallest budget a setting may ask for: room for a few words besides the special pieces."""
DEFAULT_MAX_SEQ_LENGTH = 256


def max_seq_length(model_dir: Path) -> int:
    """The word-piece limit a sentence-transformers folder declares (256 for all-MiniLM-L6-v2)."""
    try:
        config = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
        return int(config["max_seq_length"])
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_MAX_SEQ_LENGTH


def cut_point(
    word_of: Callable[[int], int | None], start_of: Callable[[int], int], room: int
) -> int:
    """Where to cut a text of more than ``room`` word pieces (no special pieces) so that at most
    ``room`` remain: the start of the first word that does not fit whole, or of the first piece
    that does not fit when one word fills the room. ``word_of(i)`` is piece ``i``'s word,
    ``start_of(i)`` its first character."""
    first = room
    word = word_of(room)
    while first > 0 and word is not None and word_of(first - 1) == word:
        first -= 1
    return start_of(first if first > 0 else room)


TokenizerSource = Path | Callable[[], str]
"""A ``tokenizer.json`` file, or a function giving that JSON (a loaded model's tokenizer)."""


class PieceCutter:
    """Cuts texts to a budget of the model's word pieces (``budget`` module docstring).

    ``limit`` is the model's own word-piece limit: a larger budget counts as the limit, so every
    text the model would truncate is cut here, at a word, and counted. The tokenizer is read
    from ``source`` on the first ``cut``, into a copy of its own (it never changes a model's)."""

    def __init__(self, source: TokenizerSource, limit: int) -> None:
        self.source = source
        self.limit = limit
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._tokenizer is None:
                try:
                    from tokenizers import Tokenizer
                except ImportError as err:
                    raise ModelUnavailableError(
                        f"cannot import tokenizers ({err}) to count word pieces: install it with "
                        "`pip install tokenizers`"
                    ) from err
                where = self.source if isinstance(self.source, Path) else "the model's tokenizer"
                try:
                    if isinstance(self.source, Path):
                        tokenizer = Tokenizer.from_file(str(self.source))
                    else:
                        tokenizer = Tokenizer.from_str(self.source())
                except ModelUnavailableError:
                    raise
                except Exception as err:  # the tokenizers package raises plain Exceptions
                    raise ModelUnavailableError(
                        f"cannot load {where} to count word pieces: {type(err).__name__}: {err}"
                    ) from err
                tokenizer.no_padding()
                tokenizer.no_truncation()
                self._tokenizer = tokenizer
            return self._tokenizer

    def cut(self, texts: Sequence[str], pieces: int) -> list[str]:
        """Each text cut to at most ``pieces`` word pieces (special pieces included) after its
        last whole word that fits, trailing spaces dropped; a text that fits is returned as
        it is.

        Only what can decide the cut is tokenized: a text of no more characters than the room
        fits (every word piece spans a character at least), and a long text's head, up to a
        space, holds its cut when the head alone has more pieces than the room (words end at
        spaces, so the head's pieces are the text's first ones); the whole text otherwise."""
        if pieces < MIN_BUDGET:
            raise SettingsError(
                f"a text budget of {pieces} word pieces is too small (at least {MIN_BUDGET})"
            )
        room = min(pieces, self.limit) - SPECIAL_PIECES
        out = list(texts)
        asked = [i for i, text in enumerate(texts) if len(text) > room]
        heads = [_head(texts[i], room * HEAD_CHARS_PER_PIECE) for i in asked]
        whole: list[int] = []
        for i, head, encoding in zip(asked, heads, self._encode(heads), strict=True):
            if len(encoding) > room:
                out[i] = _cut(texts[i], encoding, room)
            elif len(head) < len(texts[i]):
                whole.append(i)
        for i, encoding in zip(whole, self._encode([texts[i] for i in whole]), strict=True):
            if len(encoding) > room:
                out[i] = _cut(texts[i], encoding, room)
        return out

    def _encode(self, texts: list[str]) -> list[Any]:
        if not texts:
            return []
        tokenizer = self._load()
        try:
            return list(tokenizer.encode_batch(texts, add_special_tokens=False))
        except Exception as err:  # the tokenizers package raises plain Exceptions
            raise ModelUnavailableError(
                f"the tokenizer failed on a batch of {len(texts)} texts: {type(err).__name__}: {err}"
            ) from err


HEAD_CHARS_PER_PIECE = 6
"""A long text's head tokenized first: this many characters per piece of room (entry texts
average 4 to 5 characters a piece)."""


def _head(text: str, chars: int) -> str:
    """``text`` up to the last space within ``chars`` characters (all of it when it is no
    longer or has no such space)."""
    if len(text) <= chars:
        return text
    space = text.rfind(" ", 0, chars + 1)
    return text[:space] if space > 0 else text


def _cut(text: str, encoding: Any, room: int) -> str:
    def start_of(piece: int) -> int:
        return int(encoding.token_to_chars(piece)[0])

    return text[: cut_point(encoding.token_to_word, start_of, room)].rstrip()
