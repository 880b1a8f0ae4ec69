"""The state table: every pair not in it is refused naming both; the fold counts tiles right."""
from __future__ import annotations

import dataclasses

import pytest

from controller.game import judging
from controller.game.errors import GameSetupError, TransitionError
from controller.game.events import (
    EVENT_TYPES, CountAlert, DealAccepted, Dealt, TableUnrestorable, EventKind, GameScored, RackRevealed, RedealClaimed, RefereeCorrection,
    RestoreChecked, StartOrderDrawn, TableRead, TimerIncident, TurnEnded, TurnJudged, TurnStarted,
    ClockRecorded, ClockAdjusted, TableAccepted, VerdictOverridden, event_from_payload, HeldPenaltyAnswered, PenaltyHeld, PlayAreaSet,
)
from controller.game.machine import TILES_IN_GAME, TRANSITIONS, GameModel, State, TableState, apply, fold
from game_helpers import table

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def sample(kind: EventKind):
    """One well-formed event of each kind (content that fits a game in progress)."""
    return {
        EventKind.GAME_CREATED: judging.game_created("classic", PLAYERS),
        EventKind.START_ORDER_DRAWN: StartOrderDrawn((("Ann", "K5"),), "Ann", None),
        EventKind.DEALT: Dealt(1),
        EventKind.REDEAL_CLAIMED: RedealClaimed("Ann", ("R1", "R1"), False, "too few"),
        EventKind.TURN_STARTED: TurnStarted(1, "Ann", 60, None),
        EventKind.TURN_ENDED: TurnEnded(1, "button", "1", 30),
        EventKind.TIMER_INCIDENT: TimerIncident("device-reset", "test"),
        EventKind.TABLE_READ: TableRead("turn", None, None, (), (), (), ()),
        EventKind.REFEREE_CORRECTION: RefereeCorrection("table", (), None, "test"),
        EventKind.TURN_JUDGED: TurnJudged(1, "Ann", "draw", (), (), (), 1, 0, False, False, (), ()),
        EventKind.RESTORE_CHECKED: RestoreChecked(None, None, False, ("x",), (), (), False),
        EventKind.COUNT_ALERT: CountAlert(1, 0, 0, 0, 106, False),
        EventKind.RACK_REVEALED: RackRevealed("Ann", (), 0, None, None, ()),
        EventKind.GAME_SCORED: GameScored("empty-rack", "Ann", (("Ann", 1),), None),
        EventKind.DEAL_ACCEPTED: DealAccepted(1),
        EventKind.TABLE_UNRESTORABLE: TableUnrestorable(1, "Ann", None, None, (), (), (), False, (), (), (), 0),
        EventKind.CLOCK: ClockRecorded("pressed", "Ann", (("Ann", 1000),), "button 1"),  # never part of a Rummikub game
        EventKind.VERDICT_OVERRIDDEN: VerdictOverridden(1, "Ann", "legal", "Rita", "test"),
        EventKind.CLOCK_ADJUSTED: ClockAdjusted(1, "pause", 0, "Rita", "test"),
        EventKind.TABLE_ACCEPTED: TableAccepted("ab" * 32, "right edge", "the occluder net", "arbiter button"),
        EventKind.PENALTY_HELD: PenaltyHeld(1, "Ann", (("R5", 10.0, 20.0),), (("table-tile-taken", "R5 left"),), None, None),
        EventKind.HELD_PENALTY_ANSWERED: HeldPenaltyAnswered(1, "Ann", "confirmed", (), "Rita", "2026-11-26T02:00:00Z",
                                                             "test"),
        EventKind.PLAY_AREA_SET: PlayAreaSet("marked", ((40.0, 30.0), (600.0, 30.0), (600.0, 450.0), (40.0, 450.0)),
                                             640, 480, "referee Rita", "the tile box was read"),
    }[kind]


ILLEGAL = [(state, kind) for state in State for kind in EventKind if (state, kind) not in TRANSITIONS]


@pytest.mark.parametrize("state,kind", ILLEGAL, ids=[f"{s.value}+{k.value}" for s, k in ILLEGAL])
def test_an_event_outside_the_table_is_refused_naming_state_and_event(state, kind):
    model = dataclasses.replace(GameModel(), state=state, players=PLAYERS, racks=(14,) * 4,
                                opened=(False,) * 4, had_turn=(False,) * 4, penalty_points=(0,) * 4, penalties=(0,) * 4)
    with pytest.raises(TransitionError) as caught:
        apply(model, sample(kind))
    assert repr(state.value) in str(caught.value) and repr(kind.value) in str(caught.value)


def test_every_event_kind_has_a_sample_and_round_trips_through_json():
    for kind in EventKind:
        event = sample(kind)
        assert event_from_payload(kind.value, event.payload()) == event


def started_game(variant="classic", players=PLAYERS):
    model = fold([judging.game_created(variant, players), StartOrderDrawn((), players[0], None), Dealt(1)])
    if model.state is State.REDEAL_WINDOW:  # world: nobody asks for a redeal after the deal
        model = apply(model, DealAccepted(1))
    return model


def play_turn(model, after: TableState, cause="button"):
    model = apply(model, TurnStarted(model.turn + 1, model.player, 60, None))
    model = apply(model, TurnEnded(model.turn, cause, "1" if cause == "button" else None, 10))
    model = apply(model, TableRead("turn", None, None, after.tiles, after.sets, (), ()))
    verdict = judging.judge(model, after)
    return apply(model, verdict), verdict


def test_deal_counts_fourteen_each_and_the_rest_in_the_pool():
    model = started_game()
    assert model.state is State.TURN_READY
    assert model.racks == (14,) * 4 and model.pool == TILES_IN_GAME - 56
    assert model.tiles_counted == TILES_IN_GAME


def test_legal_opening_moves_tiles_from_rack_to_table_and_passes_the_turn():
    model, verdict = play_turn(started_game(), table(["K10", "K11", "K12"]))
    assert verdict.outcome == "legal"
    assert model.racks[0] == 11 and model.opened[0] and model.current == 1
    assert model.tiles_counted == TILES_IN_GAME


def test_nothing_played_draws_one_from_the_pool():
    model, verdict = play_turn(started_game(), TableState())
    assert verdict.outcome == "draw" and model.racks[0] == 15 and model.pool == 49
    assert model.tiles_counted == TILES_IN_GAME


def test_penalty_waits_for_the_restore_then_draws_the_variants_count():
    model, verdict = play_turn(started_game(), table(["B1", "B2"]), cause="expired")
    assert verdict.outcome == "penalty" and model.state is State.RESTORING
    model = apply(model, RestoreChecked(None, None, False, ("not before: B1",), (), (), False))
    assert model.state is State.RESTORING  # a wrong restore changes nothing
    model = apply(model, RestoreChecked(None, None, True, (), (), (), False))
    assert model.state is State.TURN_READY and model.racks[0] == 14 + 3 and model.penalties[0] == 1
    assert model.tiles_counted == TILES_IN_GAME


def test_japan_penalty_costs_fifty_points_and_one_tile():
    model, verdict = play_turn(started_game("japan-2017"), table(["B1", "B2"]))
    model = apply(model, RestoreChecked(None, None, True, (), (), (), False))
    assert model.penalty_points[0] == -50 and model.racks[0] == 15


def test_empty_rack_ends_the_game_and_losers_reveal():
    model = dataclasses.replace(started_game(), racks=(3, 14, 14, 14), pool=TILES_IN_GAME - 45)
    model, verdict = play_turn(model, table(["K10", "K11", "K12"]))
    assert model.state is State.REVEALING and model.winner == "Ann" and model.end == "empty-rack"
    assert model.to_reveal() == ("Ben", "Cat", "Dan")
    for name in ("Ben", "Cat", "Dan"):
        model = apply(model, RackRevealed(name, tuple(f"O{n}" for n in range(1, 15)), 14, None, None, ()))
    assert model.state is State.SCORING
    with pytest.raises(TransitionError):
        apply(model, RackRevealed("Ann", (), 0, None, None, ()))


def test_japan_game_ends_when_the_last_pool_tile_is_drawn():
    model = dataclasses.replace(started_game("japan-2017"), pool=1, racks=(14, 14, 14, 14 + 49))
    model, _ = play_turn(model, TableState())
    assert model.pool == 0 and model.state is State.REVEALING and model.end == "pool-out"


def test_classic_pool_out_plays_on_until_every_player_passes():
    model = dataclasses.replace(started_game(), pool=0, racks=(14, 14, 14, 14 + 50))
    for _ in range(3):
        model, _ = play_turn(model, TableState())
        assert model.state is State.TURN_READY
    model, _ = play_turn(model, TableState())
    assert model.state is State.REVEALING and model.end == "pool-out"


def test_world_count_mismatch_disqualifies_the_table_classic_only_alerts():
    world = apply(started_game("world"), CountAlert(0, 0, 56, 49, 106, True))
    assert world.state is State.DISQUALIFIED
    classic = apply(started_game(), CountAlert(0, 0, 56, 49, 106, False))
    assert classic.state is State.TURN_READY and classic.alerts == 1


def test_redeal_only_at_the_players_first_turn():
    model = started_game("japan-2017")
    model = apply(model, TurnStarted(1, "Ann", 60, None))
    granted = apply(model, RedealClaimed("Ann", ("R1", "R1", "B4", "B4", "K13", "K13"), True, "three doubles"))
    assert granted.state is State.DEALING and granted.racks == (0,) * 4
    redealt = apply(granted, Dealt(2))
    assert redealt.deal == 2 and redealt.racks == (14,) * 4 and redealt.current == 0


def test_a_second_redeal_claim_in_a_later_turn_is_refused():
    model = started_game("japan-2017")
    model, _ = play_turn(model, TableState())
    model = apply(model, TurnStarted(model.turn + 1, "Ben", 60, None))
    model, _ = model, None
    for _ in range(3):
        model = apply(model, TurnEnded(model.turn, "button", "2", 1))
        model = apply(model, TableRead("turn", None, None, (), (), (), ()))
        model = apply(model, judging.judge(model, TableState()))
        model = apply(model, TurnStarted(model.turn + 1, model.player, 60, None))
    assert model.player == "Ann" and not model.first_turn
    with pytest.raises(TransitionError, match="first turn"):
        apply(model, RedealClaimed("Ann", (), True, ""))


def test_a_doubtful_read_waits_for_the_referee_and_the_correction_is_applied():
    model = apply(started_game(), TurnStarted(1, "Ann", 60, None))
    model = apply(model, TurnEnded(1, "button", "1", 3))
    after = table(["K10", "K11", "K13"])
    model = apply(model, TableRead("turn", None, None, after.tiles, after.sets, ((2, ("K13", "K12"), "unsure"),), ()))
    assert model.state is State.REFEREE_CHECK
    model = apply(model, RefereeCorrection("table", ((2, "K12"),), None, "looked"))
    assert model.state is State.TURN_JUDGING and model.pending.melds == (("K10", "K11", "K12"),)


def test_turn_started_for_the_wrong_player_is_refused():
    with pytest.raises(TransitionError, match="Ann"):
        apply(started_game(), TurnStarted(1, "Ben", 60, None))


def test_bad_player_list_is_a_setup_error():
    with pytest.raises(GameSetupError, match="Ann"):
        fold([judging.game_created("classic", ("Ann", "Ann"))])


def test_every_transition_target_is_a_state():
    for (state, kind), transition in TRANSITIONS.items():
        assert kind in EVENT_TYPES and all(isinstance(t, State) for t in transition.targets)


from hypothesis import given, settings, strategies as st  # noqa: E402

ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("legal"), st.integers(1, 5)),
    st.tuples(st.just("draw"), st.just(1)),
    st.tuples(st.just("penalty"), st.integers(1, 3)),
), max_size=60)


@settings(max_examples=150, deadline=None)
@given(variant=st.sampled_from(["classic", "japan-2017", "world"]), actions=ACTIONS)
def test_any_run_of_turns_keeps_table_racks_and_pool_at_106(variant, actions):
    model = started_game(variant)
    on_table = 0
    for outcome, count in actions:
        if model.state is not State.TURN_READY:
            break
        model = apply(model, TurnStarted(model.turn + 1, model.player, 60, None))
        model = apply(model, TurnEnded(model.turn, "button", str(model.current + 1), 1))
        played = {"legal": min(count, model.racks[model.current]), "draw": 0, "penalty": 1}[outcome]
        after = TableState(tuple(("K1", float(i), 0.0) for i in range(on_table + played)),
                           (tuple(range(on_table + played)),) if on_table + played else ())
        model = apply(model, TableRead("turn", None, None, after.tiles, after.sets, (), ()))
        if outcome == "legal":
            event = TurnJudged(model.turn, model.player, "legal", ("K1",) * played, (), (), 0, 0, True, False, (), ())
            on_table += played
        elif outcome == "draw":
            event = TurnJudged(model.turn, model.player, "draw", (), (), (), 1, 0, False, False, (), ())
        else:
            event = TurnJudged(model.turn, model.player, "penalty", ("K1",), (), (), count, -50, False, True, ("K1",), ())
        model = apply(model, event)
        if model.state is State.RESTORING:
            before = TableState(tuple(("K1", float(i), 0.0) for i in range(on_table)),
                                (tuple(range(on_table)),) if on_table else ())
            model = apply(model, RestoreChecked(None, None, True, (), before.tiles, before.sets, False))
        assert min(model.racks) >= 0 and model.pool >= 0
        if model.state is State.TURN_READY:
            assert model.tiles_counted == TILES_IN_GAME
        else:
            assert model.state is State.REVEALING
            assert model.end == "pool-out" or 0 in model.racks
