"""L-gent: find the right AI-agent artifact by name, by intent, or by what it must connect to.

Importing this package is cheap: the embedding model, faiss and tantivy load only when a brain
first needs them.
"""

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
    Relation,
    RelationType,
    Status,
    TypeDecl,
)

__version__ = "0.1.0"

__all__ = [
    "CatalogCorruptError",
    "CatalogEntry",
    "CatalogError",
    "ConstraintError",
    "DependencyError",
    "EntityType",
    "Execution",
    "IndexError_",
    "LGent",
    "LGentError",
    "LoadError",
    "ModelUnavailableError",
    "NotFoundError",
    "QueryError",
    "QuerySyntaxError",
    "Relation",
    "RelationType",
    "SettingsError",
    "Status",
    "TypeCycleError",
    "TypeDecl",
    "TypeLatticeError",
    "ValidationError",
    "__version__",
]
