"""The opening explorer's core (issue 33): per start setup, the moves played from every
position reached, with their counts and results, from this server's finished games and from
imported PGN collections, kept apart by source (docs/analysis.md, "Opening explorer")."""

from randomchess import native

__path__ = native.prepend(__path__, "explorer")  # the compiled import loop, when fresh
