"""L-gent over the Model Context Protocol: ``lgent serve --mcp`` (see ``lgent.mcp.server``).

Importing this package loads nothing heavy; ``lgent.mcp.server`` imports the MCP SDK.
"""
