"""The score sheet's core, beside the games' rules and under the pages: reading a match and
working its sheet out (sheet.py), and every action at a table, each one transaction through
writing.py: setting up a match (setup.py), entries (entries.py), corrections
(corrections.py), the match's life (life.py), and the people and phones at it (seats.py).

Nothing here reads the request or draws a page: the blueprints read a form, call one action
or reader with what was posted, and render.
"""
