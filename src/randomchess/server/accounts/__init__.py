"""The accounts wing: accounts, sessions, seats, ratings and the lobby."""
