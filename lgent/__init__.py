"""L-gent: find the right AI-agent artifact by name, by intent, or by what it must connect to.

Importing this package is cheap: the embedding model, faiss and tantivy load only when a brain
first needs them.
"""

from lgent.brains.base import BrainQuery, HitList, RankedAnswer
from lgent.brains.defaults import default_registry
from lgent.brains.registry import BrainContext, BrainRegistry, BrainSpec, Hints, SkipRule, Voting
from lgent.catalog.records import EntryFilter
from lgent.config import Settings
from lgent.errors import (
    CatalogCorruptError,
    CatalogError,
    ConstraintError,
    DependencyError,
    IndexError_,
    LGentError,
    LoadError,
    ModelUnavailableError,
    NotFoundError,
    QueryError,
    QuerySyntaxError,
    SettingsError,
    TypeCycleError,
    TypeLatticeError,
    ValidationError,
)
from lgent.lgent import LGent
from lgent.models import (
    CatalogEntry,
    EntityType,
    Execution,
    FilledPipeline,
    QueryContext,
    QueryResponse,
    QueryType,
    Relation,
    RelationType,
    Resolution,
    ResolutionPreferences,
    SearchFilters,
    Status,
    TypeDecl,
    TypeRequirement,
)
from lgent.sync import fill_holes, resolve, search

__version__ = "0.1.0"

__all__ = [
    "BrainContext",
    "BrainQuery",
    "BrainRegistry",
    "BrainSpec",
    "CatalogCorruptError",
    "CatalogEntry",
    "CatalogError",
    "ConstraintError",
    "DependencyError",
    "EntityType",
    "EntryFilter",
    "Execution",
    "FilledPipeline",
    "Hints",
    "HitList",
    "IndexError_",
    "LGent",
    "LGentError",
    "LoadError",
    "ModelUnavailableError",
    "NotFoundError",
    "QueryContext",
    "QueryError",
    "QueryResponse",
    "QuerySyntaxError",
    "QueryType",
    "RankedAnswer",
    "Relation",
    "RelationType",
    "Resolution",
    "ResolutionPreferences",
    "SearchFilters",
    "Settings",
    "SettingsError",
    "SkipRule",
    "Status",
    "TypeCycleError",
    "TypeDecl",
    "TypeLatticeError",
    "TypeRequirement",
    "ValidationError",
    "Voting",
    "__version__",
    "default_registry",
    "fill_holes",
    "resolve",
    "search",
]
