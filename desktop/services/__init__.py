"""Qt-free application services: what the CLI and the GUI both call.

Each function takes the open `Store` and plain arguments and returns plain
data (dataclasses), never ORM rows bound to a session.
"""
