"""The Discord adapter: thin glue between discord.py and the host core (bot/core.py).

app.py           the client: intents, setup (store, dynamic items, timers, start-up repair), timer and
                 outbox posts, click handler, graceful shutdown (SIGTERM/SIGINT)
commands.py      the slash-command tree: /game and one group per game, from its declared verbs
schema.py        a declared verb's slots -> subcommand options, and option values -> move text
autocomplete.py  legal values only, from Conductor.labelled_commands / players / rules_topics
bridge.py        interaction -> command text -> Conductor.handle / click -> Reply delivered (core first,
                 then a public or private first response) -> Conductor.announced
clicks.py        what each button and menu choice does (Conductor.click / move_menu)
components.py    DynamicItem buttons/select menus and the view factories (no host imports)
delivery.py      Reply -> messages; sends that tolerate Discord failures
dispatcher.py    the background task that fires database timers
permissions.py   moderator and owner checks
endpoints.py     API and gateway base URLs from the settings (defaults untouched), gateway probe
stall.py         debug-only event-loop stall monitor
testhooks.py     test-only fault injection (slow renderer, SIGKILL after a commit), off by default
"""
