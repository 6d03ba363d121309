"""The puzzles wing of the server (issue 33): storage, routes and the generation job."""
