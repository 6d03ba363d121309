"""HTTP plumbing shared by every wing: settings, errors, guards, rate limits, assets, the
database dependency, and the app that wires the wings (docs/server.md, "The map")."""
