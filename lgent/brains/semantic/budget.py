"""The text budget: how many word pieces of an entry's text the model reads.

all-MiniLM-L6-v2 reads at most 256 word pieces ([CLS] and [SEP] included), and its cost grows
with every piece: an OpenAPI operation's text (its parameters written into the description) is
187 pieces at the median, a PyPI summary about 20. An entry's text is therefore cut to a budget
of word pieces (``semantic.entry_tokens``) before it is embedded: after its last whole word that
fits, so the text the model reads is a prefix of the entry's text that ends at a word. Only a
word longer than the whole budget is cut inside. The cut text is the text embedded and the one
the embedding cache keys, so a text cut to another budget is another key (never a stale
vector), and a text within the budget keeps its key. A query is never cut by it (only by the
model's own limit). How the budget was chosen: docs/benchmarks.md, "Embedding long texts".

``PieceCutter`` counts with the model's own WordPiece tokenizer (``tokenizer.json``, run with the
``tokenizers`` package), loaded on first use.
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


def cut_point(word_ids: Sequence[int | None], offsets: Sequence[tuple[int, int]], room: int) -> int:
    """Where to cut a text whose word pieces (no special pieces) have these word ids and
    character offsets so that at most ``room`` pieces remain: the start of the first word that
    does not fit whole, or of the first piece that does not fit when one word fills the room.
    ``-1``: the text fits."""
    if len(word_ids) <= room:
        return -1
    first = room
    word = word_ids[room]
    while first > 0 and word is not None and word_ids[first - 1] == word:
        first -= 1
    return offsets[first if first > 0 else room][0]


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
        it is."""
        if pieces < MIN_BUDGET:
            raise SettingsError(
                f"a text budget of {pieces} word pieces is too small (at least {MIN_BUDGET})"
            )
        room = min(pieces, self.limit) - SPECIAL_PIECES
        tokenizer = self._load()
        try:
            encodings = tokenizer.encode_batch(list(texts), add_special_tokens=False)
        except Exception as err:  # the tokenizers package raises plain Exceptions
            raise ModelUnavailableError(
                f"the tokenizer failed on a batch of {len(texts)} texts: {type(err).__name__}: {err}"
            ) from err
        out: list[str] = []
        for text, encoding in zip(texts, encodings, strict=True):
            at = cut_point(encoding.word_ids, encoding.offsets, room)
            out.append(text if at < 0 else text[:at].rstrip())
        return out
