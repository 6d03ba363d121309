"""Players: Glicko-2 ratings per variant and speed class (:mod:`.ratings`).  The accounts,
sessions and the HTTP routes live with the server (``randomchess.server.accounts.store*``)."""
