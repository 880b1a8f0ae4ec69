"""Web pages of a table and a club: server-rendered (Jinja2, autoescaped), live over WebSocket.

Table display, referee page, audit and replay in the browser (`tileref play --web`,
`tileref serve`), and the club board (`tileref club serve`).
"""
