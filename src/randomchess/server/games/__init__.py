"""The game wing: the game service, its store, live games, the WebSocket hub and the game,
play, variant and setup routes."""
