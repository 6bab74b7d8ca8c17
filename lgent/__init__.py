"""L-gent: find the right AI-agent artifact by name, by intent, or by what it must connect to."""
