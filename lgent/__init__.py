"""L-gent: find the right AI-agent artifact by name, by intent, or by what it must connect to.

Importing this package is cheap: the embedding model, faiss and tantivy load only when a brain
first needs them.
"""

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
    "CatalogCorruptError",
    "CatalogEntry",
    "CatalogError",
    "ConstraintError",
    "DependencyError",
    "EntityType",
    "Execution",
    "FilledPipeline",
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
    "Relation",
    "RelationType",
    "Resolution",
    "ResolutionPreferences",
    "SearchFilters",
    "Settings",
    "SettingsError",
    "Status",
    "TypeCycleError",
    "TypeDecl",
    "TypeLatticeError",
    "TypeRequirement",
    "ValidationError",
    "__version__",
    "fill_holes",
    "resolve",
    "search",
]
