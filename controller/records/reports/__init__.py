"""What people read of a recorded game, made only from a verified record: the turns folded from the
log (`turns`), the events in a referee's words (`words`), the audit page and the replay as text
(`views`) and as data (`turn_data`), the game notation (`notation`, `moves`) and its highlights
(`highlights`), the highlights reel (`reel`, `reel_focus`); every page through the Jinja2
environment of `templating`. Nothing here writes to a database."""
