"""The club's player registry, the ratings from signed results, the league that adds up several
clubs' signed logs, and the standings published as a static site (docs/league.md)."""
