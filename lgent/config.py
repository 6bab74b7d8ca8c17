"""Settings: frozen, keyword-only objects with validated values and ``DEFAULT_*`` constants."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from lgent.errors import FieldProblem, SettingsError, ValidationError
from lgent.models import QueryType

if TYPE_CHECKING:
    from lgent.brains.registry import BrainRegistry
    from lgent.scopes import Tokens

S = TypeVar("S")

QUERY_TYPES = (
    "exact_name",
    "keyword_syntax",
    "type_query",
    "relationship",
    "semantic_intent",
)
"""The query classes fusion weighs brains for (``lgent.models.QueryType`` values)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class FusionSettings:
    """Query fusion: brain weights per query type, the fusion method and RRF's k, over-fetching.

    ``weights`` override, per query type and brain, the default weights each brain declares in
    its registry entry (``lgent/brains/registry.py``); brain names are checked against the
    registry when a home opens (``check_brains``)."""

    weights: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    method: Literal["auto", "rrf", "score"] = "auto"
    """``score``: weighted min-max score fusion; ``rrf``: weighted reciprocal rank fusion;
    ``auto``: score fusion for plain-language queries (``semantic_intent``), rank fusion for the
    other classes, where the leading brain's few hits would be zeroed by min-max (measured:
    docs/quality.md)."""
    rrf_k: int = 60
    overfetch: int = 1
    min_brain_hits: int = 50
    """Hits each brain is asked for, whatever the page size (``limit * overfetch`` when that
    is more): the fused answer, its total and its scores are then the same for every ``limit``
    up to it, in Python and on every surface (which page the first 50 results). 100 gave the
    same development-set figures and cost a third more time per query at 100k entries
    (docs/benchmarks.md)."""
    serendipity: int = 3
    free_text_min_match: float = 0.0
    """For plain-language queries the keyword brain ORs the words; a hit must match this share."""
    coverage_saturation: float = 0.0
    """``WORD_COVERAGE`` (``lgent/fusion/coverage.py``): on a plain-language query a
    word-matching brain's vote for an artifact is scaled by ``min(1, coverage / this)``; 0: off."""
    coverage_floor: float = 0.0
    coverage_scope: Literal["artifact", "query"] = "artifact"
    """``artifact``: each vote is scaled by its artifact's coverage; ``query``: every vote of
    the brain is scaled by the best coverage among its hits (how lexical the query is)."""
    """The least ``WORD_COVERAGE`` leaves of a vote: the scale is ``floor + (1 - floor) * s``."""
    long_requests: bool = True
    """``LONG_REQUESTS`` (``lgent/fusion/length.py``): on a plain-language query the
    word-matching brains' share of the vote grows from their class weight at
    ``short_request_words`` content words to ``long_request_share`` at ``long_request_words``."""
    short_request_words: int = 8
    long_request_words: int = 20
    long_request_share: float = 0.6
    feedback_weight: float = 0.3
    """``WORD_FEEDBACK`` (``lgent/fusion/feedback.py``): on a plain-language query the answers
    that can be moved (the semantic brain's) are searched again with the query moved toward the
    word-matching brains' hits that hold most of its words, by this weight (0: off). Such a hit
    is among the ``feedback_depth`` best of its brain and holds at least ``feedback_share`` of
    the query's content words and at least ``feedback_min_words`` of them."""
    feedback_depth: int = 10
    feedback_share: float = 0.3
    feedback_min_words: int = 3
    parts_first: bool = True
    """``PARTS_FIRST`` (``lgent/fusion/owners.py``): on a plain-language query that does not ask
    for servers or APIs, an artifact with parts (a server, an API) ranks below every result
    without, and its tools say whose they are."""
    companions: bool = True
    """``COMPANIONS`` (``lgent/fusion/companions.py``): on a plain-language query, a best result
    that needs a kind of value the request does not supply gets the best producer of it right
    after it, labelled as its companion."""
    runnable: int = 5
    """``RUNNABLE`` (``lgent/fusion/runnable.py``): on a plain-language query that writes values
    (a date, coordinates, an email address), the best candidates those values can run are lifted
    to this position, one after another (0: off)."""
    name_matches: int = 3
    """``NAME_MATCHES`` (``lgent/fusion/names.py``): on a plain-language query, a word-matching
    brain's first hit whose name holds some of the query's words is lifted past the results
    whose names hold fewer, not above this position unless its name holds two (0: off)."""

    def __post_init__(self) -> None:
        unknown = set(self.weights) - set(QUERY_TYPES)
        if unknown:
            raise SettingsError(
                f"fusion.weights: unknown query type(s) {', '.join(sorted(unknown))} "
                f"(known: {', '.join(QUERY_TYPES)})"
            )
        for query_type, table in self.weights.items():
            if not isinstance(table, Mapping):
                raise SettingsError(f"fusion.weights.{query_type}: must be a table of brains")
            for brain, value in table.items():
                if not isinstance(value, int | float) or value < 0:
                    raise SettingsError(
                        f"fusion.weights.{query_type}.{brain}: must be a number >= 0, got {value!r}"
                    )
        if self.coverage_scope not in ("artifact", "query"):
            raise SettingsError(
                f"fusion.coverage_scope: must be 'artifact' or 'query', got {self.coverage_scope!r}"
            )
        if self.method not in ("auto", "rrf", "score"):
            raise SettingsError(
                f"fusion.method: must be 'auto', 'rrf' or 'score', got {self.method!r}"
            )
        if not isinstance(self.rrf_k, int) or self.rrf_k < 1:
            raise SettingsError(f"fusion.rrf_k: must be an integer >= 1, got {self.rrf_k!r}")
        if (
            not isinstance(self.free_text_min_match, int | float)
            or not 0 <= self.free_text_min_match <= 1
        ):
            raise SettingsError(
                f"fusion.free_text_min_match: must be a number from 0 to 1, got {self.free_text_min_match!r}"
            )
        if not isinstance(self.long_requests, bool):
            raise SettingsError(
                f"fusion.long_requests: must be true or false, got {self.long_requests!r}"
            )
        if (
            isinstance(self.short_request_words, bool)
            or not isinstance(self.short_request_words, int)
            or isinstance(self.long_request_words, bool)
            or not isinstance(self.long_request_words, int)
            or not 0 <= self.short_request_words < self.long_request_words <= 1000
        ):
            raise SettingsError(
                "fusion.short_request_words and fusion.long_request_words: must be integers "
                f"with 0 <= short < long <= 1000, got {self.short_request_words!r} and "
                f"{self.long_request_words!r}"
            )
        for name in (
            "coverage_saturation",
            "coverage_floor",
            "long_request_share",
            "feedback_weight",
            "feedback_share",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise SettingsError(f"fusion.{name}: must be a number from 0 to 1, got {value!r}")
        for name, low, high in (
            ("overfetch", 1, 20),
            ("min_brain_hits", 1, 1000),
            ("serendipity", 0, 20),
            ("feedback_depth", 1, 100),
            ("feedback_min_words", 1, 100),
            ("name_matches", 0, 100),
            ("runnable", 0, 100),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise SettingsError(
                    f"fusion.{name}: must be an integer from {low} to {high}, got {value!r}"
                )

    def check_brains(self, names: Iterable[str]) -> None:
        """SettingsError if a weight names a brain that is not among ``names``."""
        known = set(names)
        for query_type, table in self.weights.items():
            bad = set(table) - known
            if bad:
                raise SettingsError(
                    f"fusion.weights.{query_type}: unknown brain(s) {', '.join(sorted(bad))} "
                    f"(known: {', '.join(sorted(known))})"
                )

    def method_for(self, query_type: str) -> Literal["rrf", "score"]:
        """The fusion function for one query type (``auto`` decided)."""
        if self.method == "auto":
            return "score" if query_type == "semantic_intent" else "rrf"
        return self.method

    def weights_for(self, query_type: str, registry: BrainRegistry) -> dict[str, float]:
        """The brain weights for one query type: each brain's declared default, overridden."""
        defaults = {spec.name: spec.weight(QueryType(query_type)) for spec in registry}
        return {**defaults, **self.weights.get(query_type, {})}


@dataclass(frozen=True, kw_only=True, slots=True)
class CacheSettings:
    """The response cache: entries kept and their time to live (0 disables it)."""

    size: int = 1024
    ttl_seconds: float = 3600.0

    def __post_init__(self) -> None:
        if not isinstance(self.size, int) or self.size < 0:
            raise SettingsError(f"cache.size: must be an integer >= 0, got {self.size!r}")
        if not isinstance(self.ttl_seconds, int | float) or self.ttl_seconds < 0:
            raise SettingsError(
                f"cache.ttl_seconds: must be a number >= 0, got {self.ttl_seconds!r}"
            )


CATALOG_URL_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True, kw_only=True, slots=True)
class CatalogSettings:
    """Where the catalog lives: ``url`` None is the home's own SQLite file; a PostgreSQL URL
    makes this home a replica of that shared catalog (docs/architecture.md). A replica pulls
    new changes when the database announces them, and every ``poll_seconds`` in any case."""

    url: str | None = None
    poll_seconds: float = 5.0

    def __post_init__(self) -> None:
        if self.url is not None:
            check_catalog_url(self.url, "catalog.url")
        if (
            isinstance(self.poll_seconds, bool)
            or not isinstance(self.poll_seconds, int | float)
            or not 0.05 <= self.poll_seconds <= 3600
        ):
            raise SettingsError(
                f"catalog.poll_seconds: must be a number from 0.05 to 3600, got {self.poll_seconds!r}"
            )


DEFAULT_MAX_FILE_MIB = 256


@dataclass(frozen=True, kw_only=True, slots=True)
class LoadSettings:
    """What ``load`` and ``import`` read: files up to ``max_file_mib`` MiB each, and symlinks
    only when they stay inside the loaded folder unless ``follow_symlinks`` (docs/limits.md)."""

    max_file_mib: int = DEFAULT_MAX_FILE_MIB
    follow_symlinks: bool = False

    def __post_init__(self) -> None:
        if (
            isinstance(self.max_file_mib, bool)
            or not isinstance(self.max_file_mib, int)
            or not 1 <= self.max_file_mib <= 65_536
        ):
            raise SettingsError(
                f"load.max_file_mib: must be an integer from 1 to 65536, got {self.max_file_mib!r}"
            )
        if not isinstance(self.follow_symlinks, bool):
            raise SettingsError(
                f"load.follow_symlinks: must be true or false, got {self.follow_symlinks!r}"
            )

    def following(self, follow_symlinks: bool | None) -> LoadSettings:
        """These settings, with ``follow_symlinks`` when a caller gives one (a bool)."""
        if follow_symlinks is None:
            return self
        if not isinstance(follow_symlinks, bool):
            raise ValidationError(
                [
                    FieldProblem(
                        "follow_symlinks", f"expected true or false, got {follow_symlinks!r}"
                    )
                ]
            )
        return dataclasses.replace(self, follow_symlinks=follow_symlinks)

    @property
    def max_file_bytes(self) -> int:
        return self.max_file_mib * 1024 * 1024


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


@dataclass(frozen=True, kw_only=True, slots=True)
class HttpSettings:
    """``lgent serve --http``: the names a request's Host (and a browser's Origin) may carry
    (``"*"``: any), whether reads need the token too (writes always do when one is set), and how
    long a client may take to send a request's head and then its body (docs/http.md)."""

    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES
    token_for_reads: bool = False
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0

    def __post_init__(self) -> None:
        hosts = self.allowed_hosts
        if isinstance(hosts, str) or not isinstance(hosts, list | tuple):
            raise SettingsError(f"http.allowed_hosts: must be a list of host names, got {hosts!r}")
        if not hosts or not all(isinstance(h, str) and h.strip() for h in hosts):
            raise SettingsError(
                f"http.allowed_hosts: must be a non-empty list of host names, got {hosts!r}"
            )
        object.__setattr__(self, "allowed_hosts", tuple(h.strip().lower() for h in hosts))
        if not isinstance(self.token_for_reads, bool):
            raise SettingsError(
                f"http.token_for_reads: must be true or false, got {self.token_for_reads!r}"
            )
        for name in ("header_timeout_seconds", "body_timeout_seconds"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0.1 <= value <= 3600
            ):
                raise SettingsError(
                    f"http.{name}: must be a number from 0.1 to 3600, got {value!r}"
                )


@dataclass(frozen=True, kw_only=True, slots=True)
class AccessSettings:
    """``[access]``: the named tokens (``[access.tokens.<name>]``, each with the SHA-256 of its
    secret and its read and write scopes) and what a caller without a token gets
    (``anonymous``: ``read``, ``none`` or a token's name); ``lgent.scopes`` states the rule."""

    tokens: Mapping[str, Any] = field(default_factory=dict)
    anonymous: str = "read"

    def __post_init__(self) -> None:
        if not isinstance(self.anonymous, str):
            raise SettingsError(f"access.anonymous: must be a string, got {self.anonymous!r}")
        self.parsed()  # every token checked when the settings are read

    def parsed(self) -> Tokens:
        """The tokens as ``lgent.scopes.Tokens``."""
        from lgent.scopes import tokens_of

        return tokens_of(self.tokens, self.anonymous)


def redact(url: str) -> str:
    """A catalog URL (or libpq key=value string) without its password, for messages: the one in
    ``user:password@``, and any ``password=`` parameter. A malformed URL is redacted too."""
    from urllib.parse import urlsplit, urlunsplit

    text = _PASSWORD_PARAM.sub(r"\1***", url)
    try:
        parts = urlsplit(text)
    except ValueError:  # e.g. an unclosed [ in the host: drop what sits between : and @
        return _USERINFO_PASSWORD.sub(r"\1@", text)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return text
    user = userinfo.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{hostport}" if user else hostport))


_PASSWORD_PARAM = re.compile(r"(?i)((?:^|[?&\s])(?:password|passwd|sslpassword)\s*=\s*)[^&\s]*")
"""A password given as a parameter: ``?password=x`` in a URL, ``password=x`` in key=value form."""
_USERINFO_PASSWORD = re.compile(r"(//[^/:@]*):[^/@]*@")
"""The ``:password`` of ``//user:password@`` in a URL too malformed to parse."""


def check_catalog_url(url: object, where: str) -> str:
    """``url`` if it is a PostgreSQL URL, else a SettingsError naming ``where``."""
    if not isinstance(url, str) or not url.startswith(CATALOG_URL_SCHEMES):
        shown = url if not isinstance(url, str) else redact(url)
        raise SettingsError(
            f"{where}: must be a PostgreSQL URL (postgresql://user@host/database), got {shown!r}"
        )
    return url


@dataclass(frozen=True, kw_only=True, slots=True)
class Settings:
    """Every setting of an L-gent home, in one validated object (``<home>/lgent.toml``)."""

    fusion: FusionSettings = field(default_factory=FusionSettings)
    cache: CacheSettings = field(default_factory=CacheSettings)
    catalog: CatalogSettings = field(default_factory=CatalogSettings)
    load: LoadSettings = field(default_factory=LoadSettings)
    http: HttpSettings = field(default_factory=HttpSettings)
    access: AccessSettings = field(default_factory=AccessSettings)
    brains: Mapping[str, Any] = field(default_factory=dict)
    """Each brain's own section (``[keyword]``, ``[semantic]``...), by brain name, of the type
    its ``BrainSpec.settings`` declares; a brain with no section here gets that type's
    defaults (``section``)."""

    def section(self, brain: str, kind: type[S]) -> S:
        """Brain ``brain``'s settings section (``kind``'s defaults when none was given)."""
        found = self.brains.get(brain)
        if found is None:
            return kind()
        if not isinstance(found, kind):
            raise SettingsError(
                f"settings.brains[{brain!r}]: expected {kind.__name__}, got {type(found).__name__}"
            )
        return found

    def __post_init__(self) -> None:
        if not isinstance(self.brains, Mapping):
            raise SettingsError(
                f"settings.brains: expected a mapping of brain sections, got "
                f"{type(self.brains).__name__}"
            )
        for section in dataclasses.fields(self):
            if section.name == "brains":
                continue
            value = getattr(self, section.name)
            wanted = _SECTION_TYPES[section.name]
            if not isinstance(value, wanted):
                raise SettingsError(
                    f"settings.{section.name}: expected {wanted.__name__}, got "
                    f"{type(value).__name__} (a mapping of settings goes through "
                    "settings_from_mapping, which checks every key)"
                )

    @classmethod
    def of(
        cls, settings: Settings | Mapping[str, Any], registry: BrainRegistry | None = None
    ) -> Settings:
        """``settings`` as ``Settings``: itself, or a mapping of sections read as ``lgent.toml``
        is (``settings_from_mapping``, with the brains of ``registry``)."""
        if isinstance(settings, Settings):
            return settings
        if isinstance(settings, Mapping):
            return settings_from_mapping(settings, registry=registry)
        raise SettingsError(
            f"settings: expected Settings or a mapping of sections, got {type(settings).__name__}"
        )


def settings_from_mapping(
    data: Mapping[str, Any], source: str = "settings", registry: BrainRegistry | None = None
) -> Settings:
    """Build ``Settings`` from nested mappings (e.g. parsed TOML); a bad key or value raises
    SettingsError naming it and ``source``. A section named after a brain of ``registry``
    (default: the brains L-gent ships) is that brain's own (``BrainSpec.settings``)."""
    if registry is None:
        from lgent.brains.defaults import default_registry

        registry = default_registry()
    if not isinstance(data, Mapping):
        raise SettingsError(f"{source}: expected a table of sections")
    own = {spec.name: spec.settings for spec in registry if spec.settings is not None}
    types = {**_SECTION_TYPES, **own}
    built: dict[str, Any] = {}
    brains: dict[str, Any] = {}
    for section, values in data.items():
        if section not in types:
            raise SettingsError(
                f"{source}: unknown section [{section}] (known: {', '.join(types)})"
            )
        cls = types[section]
        if not isinstance(values, Mapping):
            raise SettingsError(f"{source}: [{section}] must be a table")
        known = {f.name for f in dataclasses.fields(cls)}
        for key in values:
            if key not in known:
                raise SettingsError(
                    f"{source}: unknown key '{section}.{key}' (known: {', '.join(sorted(known))})"
                )
        try:
            made = cls(**values)
        except SettingsError as err:
            raise SettingsError(f"{source}: {err}") from None
        (brains if section in own else built)[section] = made
    return Settings(**built, brains=brains)


def load_settings(path: Path | None, registry: BrainRegistry | None = None) -> Settings:
    """``Settings`` from a TOML file (defaults when ``path`` is None or the file is absent);
    brain sections as ``settings_from_mapping`` reads them."""
    if path is None:
        return Settings()
    try:
        if not path.exists():
            return Settings()
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise SettingsError(f"{path}: cannot read: {err}") from err
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(f"{path}: invalid TOML: {err}") from err
    return settings_from_mapping(data, str(path), registry)


_SECTION_TYPES: dict[str, type] = {
    "fusion": FusionSettings,
    "cache": CacheSettings,
    "catalog": CatalogSettings,
    "load": LoadSettings,
    "http": HttpSettings,
    "access": AccessSettings,
}
