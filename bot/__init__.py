"""The host: the Discord-free core (lobbies, seats, turn flow, undo, reminders) and its front ends."""
