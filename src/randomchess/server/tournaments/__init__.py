"""The tournaments wing: the routes over :mod:`randomchess.tournament`."""
