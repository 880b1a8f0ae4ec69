"""The database's shape: which tables a tileref database may hold (`tables`), the numbered steps that
bring a file to the current version on SQLite and PostgreSQL (`migrations`), and the records' own
steps (`versions`). Nothing here reads or writes a game: that is the store's (controller/records/store.py)."""
