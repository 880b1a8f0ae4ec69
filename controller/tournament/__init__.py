"""Tournament director: the event formats of the seeds as data and pure functions, with
an SQLite store and the `tileref tournament` / `tileref mahjong` commands around them.

Pure core: `create_event`, `draw_next_round`, `enter_results`, `standings` over an
`Event`; results are `RummikubGameResult`, `HanchanResult` or `MatchResult`.
"""
from .boardgames import OthelloCount, othello_result, shogi_result
from .errors import (
    ChangeError,
    HistoryTamperedError,
    DisqualifiedError,
    DuplicateResultError,
    EventExistsError,
    EventFinishedError,
    EventNotFoundError,
    FormatError,
    GameNotDrawnError,
    InputFileError,
    PlayerListError,
    RoundNotCompleteError,
    ScoreError,
    TournamentError,
    UnknownPlayerError,
)
from .event import (
    apply_change,
    check_change,
    check_result,
    create_event,
    disqualify_table,
    draw_next_round,
    enter_results,
    is_finished,
    record_change,
    standings,
)
from .formats import FORMATS, get_format
from .mahjong import RON_CUP_SCORING, Hanchan, MahjongScoring, health_scoring, score_hanchan
from .model import (
    Change,
    ChangeKind,
    Disqualification,
    DrawEntry,
    Event,
    GameKind,
    HanchanResult,
    MatchResult,
    Round,
    RummikubGameResult,
    Standings,
    StandingRow,
    StandingsSection,
    Table,
    game_id,
)
from .storage import DEFAULT_DB, TournamentStore

__all__ = [name for name in dir() if not name.startswith("_")]
