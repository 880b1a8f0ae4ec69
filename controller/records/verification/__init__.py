"""Whether a record holds: the check of a game's hash chain, signatures, evidence and copied tables
(`game_check`, reported as a `report.ChainReport`), the proof that an unsigned game is older than
signing (`unsigned`), and what a record file must be before anything of it is checked or stored
(`record_checks`, `strict_json`)."""
