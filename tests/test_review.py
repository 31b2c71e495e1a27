"""`nimmt review`: each play's loss against the equilibrium, checked with the reference solver;
marks, totals, the fallback to the search player, 3 players, bad records."""
import io
import json
import re

import numpy as np
import pytest

from solver.review import (Mark, Method, Why, BLUNDER_FROM, MISTAKE_FROM, mark_of,
                           review_record)
from solver.text.progress import ReviewProgress
from solver.text.review import format_review
from tests.reference_solver import reference_solution, row_choice_values
from tests.support import POSITIONS_DIR, assert_equilibrium, error_line, run, strategy_vector

# positions/records/five_cards.json: positions/05_five_cards_cheapest_row_not_best.json (value
# -0.00034) played out. Turn 1: 24 is in player 1's equilibrium; player 2's 1 is too and is
# too low, but they take row 1 (7 bullheads) where row 0 was best (2 bullheads; not the
# cheapest, row 3); turn 2: player 1's 5 loses 7 bullheads (the equilibrium plays 18), player
# 2's 13 loses nothing; turn 5 is forced.
FIVE_CARDS = json.loads((POSITIONS_DIR / "records" / "five_cards.json").read_text())

# 3 players, the 10n+4 deck (34 cards), 3 cards a hand; player 1's 1 is too low at turn 3
THREE_PLAYERS = {
    "deck": 34,
    "rows": [[3], [12], [20], [30]],
    "hands": [[1, 14, 22], [8, 25, 31], [10, 18, 34]],
    "turns": [
        {"cards": [14, 8, 10]},
        {"cards": [22, 25, 18]},
        {"cards": [1, 31, 34], "row_choices": [2, None, None]},
    ],
}


@pytest.fixture(scope="module")
def five_review():
    return review_record(FIVE_CARDS, time_limit=0)


def test_exact_losses_match_the_reference_solver(five_review):
    """Each card's loss is v - M[i,:]·y (player 1) or M[:,j]·x - v (player 2), with M and v
    from the slow reference and x, y the review's strategies, themselves an equilibrium of M;
    each row choice's loss is the best row's value minus the chosen row's, by the reference."""
    rows_checked = 0
    for turn in five_review.turns:
        assert turn.method is Method.EXACT
        position = turn.position
        value, _, _, matrix = reference_solution(position)
        assert turn.value == pytest.approx(value, abs=1e-6)
        x, y = (strategy_vector(s, h) for s, h in zip(turn.strategies, position.hands))
        assert_equilibrium(matrix, x, y, value)
        p1, p2 = turn.plays
        i, j = position.hands[0].index(p1.card), position.hands[1].index(p2.card)
        assert p1.card_loss == pytest.approx(value - matrix[i] @ y, abs=1e-6)
        assert p2.card_loss == pytest.approx(matrix[:, j] @ x - value, abs=1e-6)
        for play in turn.plays:
            if play.row is None:
                continue
            k = play.player
            cards = [p1.card, p2.card]
            hands = [[c for c in h if c != cards[n]] for n, h in enumerate(position.hands)]
            values = row_choice_values(position.rows, play.card, k, cards[1 - k], hands)
            own = [v if k == 0 else -v for v in values]      # the owner's side
            assert play.row_loss == pytest.approx(max(own) - own[play.row], abs=1e-6)
            assert play.best_rows == tuple(r for r in range(4) if own[r] >= max(own) - 1e-9)
            rows_checked += 1
    assert rows_checked == 1


def test_marks_best_blunder_forced(five_review):
    first, second, *_, last = five_review.turns
    assert first.plays[0].mark is Mark.BEST and first.plays[0].card_loss == 0.0
    assert first.plays[1].card_loss == 0.0                   # the card was right ...
    assert first.plays[1].row == 1 and first.plays[1].best_rows == (0,)
    assert first.plays[1].row_loss == pytest.approx(5.0)     # ... the row was not
    assert first.plays[1].mark is Mark.BLUNDER
    assert second.plays[0].card_loss == pytest.approx(7.0)
    assert second.plays[0].best_cards == (18,) and second.plays[0].mark is Mark.BLUNDER
    assert second.plays[1].mark is Mark.BEST
    assert [p.mark for p in last.plays] == [Mark.FORCED, Mark.FORCED]


def test_mark_thresholds():
    assert mark_of(0.0) is Mark.BEST and mark_of(1e-12) is Mark.BEST
    assert mark_of(0.0, forced=True) is Mark.FORCED
    assert mark_of(1e-6) is Mark.INACCURACY
    assert mark_of(MISTAKE_FROM - 1e-6) is Mark.INACCURACY
    assert mark_of(MISTAKE_FROM) is Mark.MISTAKE
    assert mark_of(BLUNDER_FROM) is Mark.BLUNDER
    assert mark_of(None) is None


def test_an_estimated_loss_whose_interval_holds_zero_is_good():
    from solver.review import PlayReview

    def play(loss, interval, card=5):
        return PlayReview(0, card, (7,), loss, interval)
    assert play(2.5, (-0.1, 5.1)).mark is Mark.GOOD
    assert play(0.3, (None, 0.6)).mark is Mark.GOOD
    assert play(2.5, (0.2, 4.8)).mark is Mark.BLUNDER
    assert play(0.0, (0.0, 0.0), card=7).mark is Mark.BEST
    # a loss of 0 on another card: at most 0 on the other half's worlds, not the best card
    assert play(0.0, (-0.9, 0.6)).mark is Mark.GOOD
    assert play(2.5, None).mark is Mark.BLUNDER            # exact: no interval
    assert play(0.0, None).mark is Mark.BEST


def test_totals_are_the_sums(five_review):
    for k, total in enumerate(five_review.totals()):
        losses = [turn.plays[k].loss for turn in five_review.turns]
        assert total.loss == pytest.approx(sum(losses))
        assert total.exact_loss == pytest.approx(sum(losses)) and total.estimated_loss == 0
        assert total.exact_turns == 5 and total.estimated_turns == 0
        assert sum(total.marks.values()) == 5
    assert five_review.totals()[0].loss >= 7.0 and five_review.totals()[1].loss >= 5.0


def test_a_hidden_hand_the_24_card_game_determines_is_reviewed(five_review):
    """Every card of the 2-player 24-card game is dealt: a record seen by one player, whose
    start's `played` leaves exactly the other hand unseen, is reviewed as the full one."""
    seen = {c for row in FIVE_CARDS["rows"] for c in row}
    seen.update(c for hand in FIVE_CARDS["hands"] for c in hand)
    played = [c for c in range(1, 25) if c not in seen]
    full = review_record(dict(FIVE_CARDS, played=played), time_limit=0)
    hidden = review_record(dict(FIVE_CARDS, played=played,
                                hands=[FIVE_CARDS["hands"][0], None]), time_limit=0)
    def timeless(review):
        data = review.to_dict()
        for turn in data["turns"]:
            del turn["seconds"]
        return data
    assert timeless(hidden) == timeless(full)
    assert [t.plays for t in full.turns] == [t.plays for t in five_review.turns]


def test_stopped_solve_falls_back_to_the_search():
    """An 8-card turn cannot be solved in 0.05 s: estimated, and said so; the 7-card turn
    after it neither; the small turns are exact."""
    start = json.loads((POSITIONS_DIR / "08_eight_cards_midround.json").read_text())
    record = {k: start[k] for k in ("deck", "rows", "hands", "penalties")}
    hands = record["hands"]
    record["turns"] = [{"cards": [hands[0][t], hands[1][t]]} for t in range(len(hands[0]))]
    review = review_record(record, time_limit=0.05, iterations=2000)
    first = review.turns[0]
    assert first.method is Method.ESTIMATED and first.why is Why.STOPPED
    assert first.exact_limit == 0.05        # no estimate yet: the whole limit
    assert 0.025 <= review.turns[1].exact_limit < 0.05   # time kept for the estimate (at most half)
    assert first.iterations == 2000
    for play in first.plays:
        assert play.card_interval is not None and play.card_loss >= 0.0
        assert play.card_loss == pytest.approx(play.expected - play.best_expected)
    assert all(t.method is Method.EXACT for t in review.turns if t.hand_size <= 3)
    data = review.to_dict()
    assert data["turns"][0]["method"] == "estimated" and data["turns"][0]["why"] == "stopped"
    assert data["turns"][-1]["method"] == "exact"
    # a value's loss and one's own bullheads are not summed
    for total in data["totals"]:
        assert total["loss"] is None and total["exact_turns"] and total["estimated_turns"]
    text = format_review(review)
    assert re.search(r"player 1 gave away [\d.]+ in \d+ exact turns? \(of the value: the other's"
                     r" bullheads minus one's own\) and [\d.]+ .* in \d+ estimated turns? \(of"
                     r" their own bullheads\)", text), text


def test_large_hands_are_not_tried_under_a_short_limit():
    start = json.loads((POSITIONS_DIR / "09_nine_cards_midround.json").read_text())
    record = {k: start[k] for k in ("deck", "rows", "hands", "penalties")}
    record["turns"] = [{"cards": [record["hands"][0][0], record["hands"][1][0]]}]
    turn, = review_record(record, time_limit=5, iterations=2000).turns
    assert turn.method is Method.ESTIMATED and turn.why is Why.TOO_LONG
    assert turn.seconds < 5


def test_three_players_are_estimated_from_each_players_view():
    review = review_record(THREE_PLAYERS, iterations=3000, seed=7)
    assert all(t.method is Method.ESTIMATED and t.why is Why.GAME for t in review.turns)
    for turn in review.turns[:2]:
        for play in turn.plays:
            low, high = play.card_interval
            assert low <= play.card_loss <= high
            if play.card in play.best_cards:
                assert play.card_loss == 0.0 and play.mark is Mark.BEST
            else:
                assert play.card_loss > 0 and play.expected > play.best_expected
    # the last turn: no card to choose; player 1's 1 takes row 2 (10 bullheads) where rows 1
    # and 3 cost 3: with no card left, only this turn's bullheads count (exact)
    last = review.turns[-1]
    assert [p.mark for p in last.plays] == [Mark.BLUNDER, Mark.FORCED, Mark.FORCED]
    assert last.plays[0].row == 2 and last.plays[0].best_rows == (1, 3)
    assert last.plays[0].row_loss == 7.0 and last.plays[0].loss == 7.0
    # deterministic for a seed
    again = review_record(THREE_PLAYERS, iterations=3000, seed=7).to_dict()
    first = review.to_dict()
    for data in (first, again):
        for turn in data["turns"]:
            turn.pop("seconds")
    assert first == again


FOUR_PLAYERS = {        # 104 cards, 4 players, 3 cards a hand: hidden hands in play
    "deck": 104,
    "rows": [[5], [40], [61], [90]],
    "hands": [[7, 44, 70], [12, 45, 95], [38, 66, 99], [9, 63, 101]],
    "turns": [{"cards": [44, 45, 66, 9]}, {"cards": [70, 12, 99, 63]}],
}


def test_a_whole_round_s_hidden_hands_are_the_cards_they_played():
    whole = dict(FOUR_PLAYERS, turns=FOUR_PLAYERS["turns"] + [{"cards": [7, 95, 38, 101]}])
    hidden = dict(whole, hands=[whole["hands"][0], None, None, None])
    seen = review_record(hidden, iterations=2000, seed=3)
    assert seen.start.hands == review_record(whole, iterations=2000, seed=3).start.hands
    assert [p.loss for t in seen.turns for p in t.plays] == \
        [p.loss for t in review_record(whole, iterations=2000, seed=3).turns for p in t.plays]


def test_hidden_hands_are_estimated_by_the_network_search_on_common_worlds():
    """Each card's estimate is its mean over the reviewer's worlds, from the player's view of
    the round (record_view), seeded by the seed, turn and player; the loss of a card not best
    is its difference to the best card of the other half of the worlds, each half in turn,
    its interval that of the difference world by world."""
    import math

    from solver.core.record import record_view, replay_steps
    from solver.learn.search import card_totals
    from solver.mcts.player import derive_seed
    from solver.play.bots import make_bot
    from solver.review import REVIEWER
    review = review_record(FOUR_PLAYERS, iterations=2000, seed=3)
    assert review.reviewer == REVIEWER
    start, outcomes = replay_steps(FOUR_PLAYERS)
    for t, turn in enumerate(review.turns):
        assert turn.method is Method.ESTIMATED and turn.iterations is None and turn.worlds == 64
        for k, play in enumerate(turn.plays):
            bot = make_bot(REVIEWER, derive_seed(3, t, k))
            totals, samples = card_totals(bot.net, record_view(start, outcomes[:t], k),
                                          bot.options, bot.rng, bot.others_net)
            hand = sorted(turn.position.hands[k])
            means = totals.mean(axis=0)
            best = int(means.argmin())
            assert play.best_cards[0] == hand[best] and play.best_expected == means[best]
            mine = hand.index(play.card)
            assert play.expected == means[mine]
            if play.card in play.best_cards:
                assert play.card_loss == 0.0 and play.card_interval == (0.0, 0.0)
                continue
            # each half of the worlds scores the card against the other half's best card
            even, odd = totals[0::2], totals[1::2]
            diff = list(odd[:, mine] - odd[:, even.mean(axis=0).argmin()]) \
                + list(even[:, mine] - even[:, odd.mean(axis=0).argmin()])
            mean, half = np.mean(diff), 1.96 * np.std(diff) / math.sqrt(samples)
            assert play.card_loss == pytest.approx(max(0.0, mean))
            assert play.card_interval == pytest.approx((mean - half, mean + half))
    data = review.to_dict()
    assert data["reviewer"] == REVIEWER and data["turns"][0]["worlds"] == 64
    searched = review_record(FOUR_PLAYERS, iterations=2000, seed=3, reviewer="mcts")
    assert searched.reviewer == "mcts"
    assert [(t.iterations, t.worlds) for t in searched.turns] == [(2000, None)] * 2
    text = run(["review", "-", "--iterations", "2000"], stdin=json.dumps(FOUR_PLAYERS)).output
    assert "by the network search (belief)" in text and "64 worlds" in text
    text = run(["review", "-", "--bot", "mcts", "--iterations", "2000"],
               stdin=json.dumps(FOUR_PLAYERS)).output
    assert "by the search player" in text and "2,000 iterations" in text


@pytest.mark.parametrize("spec, words", [
    ("net", ["bot 'net' cannot review", "belief, nsearch or mcts"]),
    ("mcts:iterations=5", ["takes its budget from --iterations"]),
    ("belief:worlds=0", ["worlds"]),
    ("nope", ["unknown bot"]),
])
def test_a_reviewer_that_cannot_review_is_refused(spec, words):
    result = run(["review", "-", "--bot", spec], stdin=json.dumps(FOUR_PLAYERS))
    assert result.exit_code == 2 and all(w in error_line(result) for w in words), result.output


def test_cli_text_and_json():
    record = json.dumps(dict(FIVE_CARDS, turns=FIVE_CARDS["turns"][:2]))
    result = run(["review", "-"], stdin=record)
    assert result.exit_code == 0, result.output
    assert "exact turns: 1-2" not in result.output            # every turn exact: said once
    assert "every turn exact" in result.output
    assert "player 1 gave away 7.00 bullheads" in result.output
    data = json.loads(run(["review", "-", "--json"], stdin=record).output)
    assert [t["method"] for t in data["turns"]] == ["exact", "exact"]
    assert data["turns"][1]["players"][0]["mark"] == "blunder"
    assert data["totals"][1]["loss"] == pytest.approx(5.0)
    assert data["marks"] == {"mistake_from": MISTAKE_FROM, "blunder_from": BLUNDER_FROM,
                             "best_within": 1e-9}


def test_a_record_without_turns():
    record = json.dumps(dict(FIVE_CARDS, turns=[]))
    result = run(["review", "-"], stdin=record)
    assert result.exit_code == 0 and "nothing to review" in result.output
    data = json.loads(run(["review", "-", "--json"], stdin=record).output)
    assert data["turns"] == [] and [t["loss"] for t in data["totals"]] == [0.0, 0.0]


@pytest.mark.parametrize("record, words", [
    ("not json", ["json"]),
    (json.dumps({k: v for k, v in FIVE_CARDS.items() if k != "turns"}), ["turns"]),
    (json.dumps(dict(FIVE_CARDS, turns=[{"cards": [24, 11]}, {"cards": [24, 13]}])),
     ["turn 2", "24"]),
    (json.dumps(dict(FIVE_CARDS, hands=[[5, 7, 9, 18, 24], None],
                     turns=FIVE_CARDS["turns"][:3])),
     ["player 2's is hidden", "stops after 3 of 5 turns",
      'a "played" list of the cards out of play makes it known']),
])
def test_bad_records_exit_2_with_one_line(record, words):
    line = error_line(run(["review", "-"], stdin=record), 2)
    for word in words:
        assert word in line.lower()


def test_bad_options_exit_2():
    record = json.dumps(FIVE_CARDS)
    assert "time-limit" in error_line(run(["review", "-", "--time-limit", "-1"], stdin=record))
    assert "iterations" in error_line(run(["review", "-", "--iterations", "0"], stdin=record))


def test_row_choice_of_an_estimated_turn():
    """A full deal's first turn is estimated (10 cards under 10 s are not tried); player 2's
    1 is too low and takes row 0: each row's bullheads to the end are estimated, the loss is
    the chosen row's less the lowest, its interval added to the card's."""
    record = {"deck": 24, "rows": [[9], [3], [19], [5]],
              "hands": [[6, 7, 10, 11, 12, 14, 18, 21, 22, 24],
                        [1, 2, 4, 8, 13, 15, 16, 17, 20, 23]],
              "turns": [{"cards": [6, 1], "row_choices": [None, 0]}]}
    turn, = review_record(record, iterations=4000).turns
    assert turn.method is Method.ESTIMATED and turn.why is Why.TOO_LONG
    play = turn.plays[1]
    assert play.row == 0 and len(play.row_expected) == 4
    lowest = min(play.row_expected)
    assert play.best_rows == (play.row_expected.index(lowest),)
    assert play.row_loss == pytest.approx(play.row_expected[0] - lowest)
    low, high = play.row_interval
    assert low <= play.row_loss <= high
    assert play.loss == pytest.approx(play.card_loss + play.row_loss)
    assert play.loss_interval == pytest.approx(
        tuple(c + r for c, r in zip(play.card_interval, play.row_interval)))
    assert turn.plays[0].row is None and turn.plays[0].row_loss is None


def test_estimated_rows_that_tie_are_all_best():
    """Four one-card rows of 1 bullhead each and one card left after the turn: every row
    costs the same to the end of the round, so every row is best and the one taken loses
    nothing."""
    record = {"deck": 104, "rows": [[50], [60], [70], [80]], "hands": [[3, 91], [85, 90]],
              "turns": [{"cards": [3, 85], "row_choices": [3, None]}]}
    play = review_record(record, iterations=2000).turns[0].plays[0]
    assert list(play.row_expected) == [3.0] * 4
    assert play.best_rows == (0, 1, 2, 3)
    assert play.row_loss == 0.0 and play.row_interval == (0.0, 0.0)


def test_search_sees_only_the_players_own_hand():
    """Players 2 and 3 swap hands (and plays): player 1 saw the same thing at turn 1, so the
    review of player 1's first card is the same; a review with hindsight would differ."""
    swapped = dict(THREE_PLAYERS, hands=[THREE_PLAYERS["hands"][k] for k in (0, 2, 1)],
                   turns=[{"cards": [t["cards"][k] for k in (0, 2, 1)]}
                          for t in THREE_PLAYERS["turns"][:2]])
    record = dict(THREE_PLAYERS, turns=THREE_PLAYERS["turns"][:2])
    one, two = (review_record(r, iterations=3000, seed=7).turns[0].plays[0]
                for r in (record, swapped))
    assert one == two


def test_progress_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    progress = ReviewProgress(stream)
    record = dict(FIVE_CARDS, turns=FIVE_CARDS["turns"][:1])
    review_record(record, progress=progress)
    progress.close()
    assert "turn 1/1, 5 cards" in stream.getvalue()
    assert stream.getvalue().endswith("\r\033[K")          # erased at the end


def test_a_review_of_some_players_gives_their_plays_as_the_whole_review_does():
    whole = review_record(FOUR_PLAYERS, iterations=2000, seed=3)
    some = review_record(FOUR_PLAYERS, iterations=2000, seed=3, players=[2, 0])
    assert some.seats == (0, 2) and [t.player for t in some.totals()] == [0, 2]
    for part, full in zip(some.turns, whole.turns):
        assert part.plays == tuple(p for p in full.plays if p.player in (0, 2))
    data = some.to_dict()
    assert data["reviewed"] == [1, 3] and [t["player"] for t in data["totals"]] == [1, 3]
    five = review_record(FIVE_CARDS, players=[1])
    assert all(len(t.plays) == 1 and t.plays[0].player == 1 for t in five.turns)
    text = run(["review", "-", "--player", "3", "--iterations", "2000"],
               stdin=json.dumps(FOUR_PLAYERS)).output
    assert "the plays of player 3 (the others' turns replayed, not judged)" in text
    assert error_line(run(["review", "-", "--player", "5"], stdin=json.dumps(FOUR_PLAYERS)),
                      2).endswith("the players to review must be 1..4, got [5]")
