"""The paper-shaped challenge boards (instances/tantrix_challenge_paper_n.txt): the shape rule
of scripts/make_tantrix_instances.py --paper-shape (two-neighbour places as in Kino & Uno's
Figure 11), the record condition of the paper's footnote, and C7-C9 from six tiles on."""

from pathlib import Path

import pytest

import tilesolve
from tilesolve.core import hexgrid as hx
from tilesolve.families.tantrix.challenge import record_shape, tips_wanted, two_neighbour_places
from tilesolve.families.tantrix.milp_kino_uno import KinoUnoMilp
from tilesolve.families.tantrix.parse import read_instance
from tilesolve.families.tantrix.region import fixed_layout

ROOT = Path(__file__).resolve().parent.parent


def board(name: str) -> list:
    return read_instance(ROOT / "instances" / f"tantrix_{name}.txt").board


def test_two_neighbour_places_are_counted_and_told_apart():
    # in a triangle of three cells each has two neighbours that touch; a straight strip's
    # middle cell has two that do not
    assert two_neighbour_places([(0, 0), (1, 0), (0, 1)]) == [
        ((0, 0), True), ((1, 0), True), ((0, 1), True)]
    assert two_neighbour_places([(0, 0), (1, 0), (2, 0)]) == [((1, 0), False)]
    assert tips_wanted(5) == 1 and tips_wanted(20) == 4 and tips_wanted(60) == 12


def test_record_condition_rules_out_strips():
    assert record_shape(hx.hexagon(3))
    assert not record_shape([(q, 0) for q in range(10)] + [(q, 1) for q in range(10)])


@pytest.mark.parametrize("n", range(5, 61, 5))
def test_paper_board_has_its_two_neighbour_places(n):
    cells = board(f"challenge_paper_{n}")
    places = two_neighbour_places(cells)
    assert len(cells) == n
    assert len(places) >= tips_wanted(n) and all(touch for _c, touch in places)


def test_compact_board_has_fewer():
    assert len(two_neighbour_places(board("challenge_20"))) == 2
    assert len(two_neighbour_places(board("challenge_paper_20"))) >= 4


def test_paper_board_20_is_solved_and_checked():
    res = tilesolve.load(ROOT / "instances" / "tantrix_challenge_paper_20.txt").solve(
        "cpsat", threads=1, time_limit=120)
    assert res.status.value == "solved" and res.verified is True


def test_c7_c9_start_above_five_tiles_as_in_the_paper():
    def short_rows(n: int) -> set[str]:
        inst = read_instance(ROOT / "instances" / f"tantrix_challenge_{n}.txt")
        model = KinoUnoMilp(fixed_layout(inst), c6=False, c7_c9=True)
        return {row.name[:2] for row in model.prob.constraints() if row.name[:2] in
                ("C7", "C8", "C9")}
    assert short_rows(5) == set()
    assert short_rows(10) == {"C7", "C8", "C9"}
