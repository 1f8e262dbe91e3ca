"""The Discord adapter: thin glue between discord.py and the host core (bot/core.py).

    app.py           the client: intents, setup (store, dynamic items, timers), timer posts
    commands.py      the slash-command tree: /game and one group per game
    schema.py        a game's notation -> subcommand options, and move text -> option values
    autocomplete.py  legal values only, from Conductor.legal_commands
    bridge.py        interaction -> command text -> Conductor.handle -> Reply delivered
    clicks.py        what each button and menu choice does
    components.py    DynamicItem buttons/select menus and the view factories
    delivery.py      Reply -> messages; sends that tolerate Discord failures
    dispatcher.py    the background task that fires database timers
    permissions.py   moderator and owner checks
    endpoints.py     API and gateway base URLs from the settings
    stall.py         debug-only event-loop stall monitor
"""
