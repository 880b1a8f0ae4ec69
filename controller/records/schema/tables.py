"""The tables a tileref database may hold, by component. The records own this list: the
tournament director keeps its tables in the same database and takes their names from here, so
that opening a records file never needs the tournament package (and a file holding any other
table is another program's)."""
from __future__ import annotations

RECORDS_TABLES = frozenset({"meta", "games", "players", "events", "photos", "readings", "verdicts", "game_info",
                            "keyring", "key_acceptances", "schema_version"})

TOURNAMENT_TABLES = frozenset({"tournament_events", "tournament_players", "tournament_rounds", "tournament_draws",
                               "tournament_disqualifications", "tournament_results", "tournament_history",
                               "tournament_heads"})

# the club's player registry (controller/league/registry_store.py) and a league's copy of its clubs'
# signed logs (controller/league/league_store.py)
LEAGUE_TABLES = frozenset({"registry_players", "registry_names", "league_clubs", "league_club_keys",
                           "league_events", "league_entries"})


def known_tables() -> frozenset[str]:
    """Every table a tileref database may hold (records and tournament): anything else is another program's."""
    return RECORDS_TABLES | TOURNAMENT_TABLES | LEAGUE_TABLES
