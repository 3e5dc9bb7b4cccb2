"""The teacher's guide and the print-friendly rules sheet: complete, linked, consistent with the engine."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gopskit.games import available_games
from gopskit.games.divide_and_conquer import beats
from gopskit.games.gooseberry_fool import gooseberry
from gopskit.games.gops_for_three import resolve_bids as gops3_resolve
from gopskit.games.raj import resolve_bids as raj_resolve

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
GUIDE = (LESSONS / "README.md").read_text(encoding="utf-8")
SHEET = (LESSONS / "rules-sheet.html").read_text(encoding="utf-8")


def test_guide_links_every_lesson_and_the_rules_sheet():
    for notebook in sorted(LESSONS.glob("[0-9][0-9]-*.ipynb")):
        assert f"]({notebook.name})" in GUIDE, f"the guide does not link {notebook.name}"
    for target in re.findall(r"\]\(([^)#]+)\)", GUIDE):
        if not target.startswith("http"):
            assert (LESSONS / target).exists(), f"broken link in lessons/README.md: {target}"
    assert "](rules-sheet.html)" in GUIDE


def test_guide_covers_the_three_ways_to_run_a_class():
    assert "urlpath=lab/tree/lessons" in GUIDE and "urlpath=voila/tree/notebooks" in GUIDE
    assert "make serve" in GUIDE and "gopskit serve" in GUIDE
    assert "JupyterHub" in GUIDE and "default_url" in GUIDE and "GOPSKIT_CLASS_FOLDER" in GUIDE


def test_every_lesson_plan_fits_one_period():
    plans = re.split(r"^### Lesson ", GUIDE, flags=re.M)[1:]
    assert len(plans) == 5
    for plan in plans:
        spans = [tuple(map(int, m)) for m in re.findall(r"^\| (\d+)–(\d+) \|", plan, flags=re.M)]
        assert spans and spans[0][0] == 0, f"lesson {plan[:2]}: the plan starts at minute 0"
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])), f"lesson {plan[:2]}: gaps in the timings"
        assert 45 <= spans[-1][1] <= 50, f"lesson {plan[:2]} lasts {spans[-1][1]} minutes"


class _Sections(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.external = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "game" in attrs.get("class", ""):
            self.sections.append(attrs.get("id"))
        for key in ("src", "href"):
            if attrs.get(key, "").startswith(("http:", "https:", "//")):
                self.external.append(attrs[key])
        if tag in ("script", "link", "img"):
            self.external.append(tag)


def test_rules_sheet_has_one_printable_page_per_game_and_stands_alone():
    parser = _Sections()
    parser.feed(SHEET)
    assert parser.sections == available_games(), "one section per game, in the kit's order"
    assert not parser.external, f"the sheet must print offline: {parser.external}"
    print_css = SHEET[SHEET.index("@media print"):]
    assert "page-break-after: always" in print_css and "break-after: page" in print_css
    assert "nav" in print_css and "display: none" in print_css


def test_rules_sheet_examples_agree_with_the_engine():
    assert "the 2 beats 3, 4, 6, 8, 10 and Q" in SHEET
    assert [c for c in (3, 4, 6, 8, 10, 12) if beats(2, c)] == [3, 4, 6, 8, 10, 12]
    assert "loses to 2, 3, 4 and 6" in SHEET and all(beats(c, 12) for c in (2, 3, 4, 6))
    assert "J♠ 9♠ Q♠: the J♠ wins" in SHEET and gooseberry(["JS", "9S", "QS"])[0] == 0
    assert "Q♥ A♦ 7♥: the A♦ wins" in SHEET and gooseberry(["QH", "AD", "7H"])[0] == 1
    assert "J♣ 9♠ K♥: the K♥ wins" in SHEET and gooseberry(["JC", "9S", "KH"])[0] == 2
    assert "+5 with bids 15, 15, 8: the 15s cancel, the 8 takes +5" in SHEET
    assert raj_resolve([15, 15, 8], highest=True)[0] == 2
    assert "−3 with bids 12, 7, 7: the 7s cancel, the 12" in SHEET
    assert raj_resolve([12, 7, 7], highest=False)[0] == 0
    assert "Two equal bids: the third player takes the prize" in SHEET
    assert gops3_resolve([9, 9, 4])[0] == 2


# ------------------------------------------------------------ timings --
TIMED = re.compile(r"⏱ (\d+) min")


def _sections(notebook: Path) -> list[tuple[str, int]]:
    """(heading, minutes) for every section heading of a teacher notebook that carries "⏱ N min"."""
    import nbformat

    found = []
    for cell in nbformat.read(notebook, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("## ") and (match := TIMED.search(line)):
                found.append((line, int(match.group(1))))
    return found


def _guide_rows(number: int) -> list[tuple[int, str]]:
    """(minutes, what) for every row of lesson ``number``'s plan in the guide."""
    plan = re.split(r"^### Lesson ", GUIDE, flags=re.M)[number]
    return [(int(b) - int(a), what) for a, b, what in re.findall(r"^\| (\d+)–(\d+) \| ([^|]*) \|", plan, flags=re.M)]


def _guide_spans(number: int) -> list[int]:
    return [minutes for minutes, _what in _guide_rows(number)]


def _notebook(number: int) -> Path:
    return next((LESSONS / "teacher").glob(f"0{number}-*.ipynb"))


def _exercises_per_section(notebook: Path) -> list[set[int]]:
    """The exercise numbers ("### Exercise N") inside each timed section of a teacher notebook, in order."""
    import nbformat

    sections: list[set[int]] = []
    for cell in nbformat.read(notebook, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("## "):
                sections.append(set()) if TIMED.search(line) else sections.append(None)
            elif (match := re.match(r"### Exercise (\d+)", line)) and sections and sections[-1] is not None:
                sections[-1].add(int(match.group(1)))
    return [found for found in sections if found is not None]


def _exercises_named(row: str) -> set[int]:
    """Exercise numbers a plan row names in bold: **exercise 2**, **exercises 1, 2**, **Exercise 3** (...)."""
    named = set()
    for bold in re.findall(r"\*\*([^*]+)\*\*", row):
        if re.match(r"[Ee]xercises? ", bold):
            named |= {int(n) for n in re.findall(r"\d+", bold)}
    return named


LESSON_NUMBERS = [1, 2, 3, 4, 5]


def test_every_lesson_times_every_section():
    timed = sorted(n for n in LESSON_NUMBERS if _sections(_notebook(n)))
    assert timed == LESSON_NUMBERS


@pytest.mark.parametrize("number", LESSON_NUMBERS)
def test_teacher_timings_fit_one_period(number):
    notebook = _notebook(number)
    sections = _sections(notebook)
    text = notebook.read_text(encoding="utf-8")
    headings = re.findall(r'"## [^"]*', text)
    untimed = [h for h in headings if "⏱" not in h and "Formal track" not in h]
    assert not untimed, f"lesson {number}: section headings without a time: {untimed}"
    assert sum(m for _h, m in sections) <= 50, f"lesson {number}: {sections} add up to more than 50 minutes"


@pytest.mark.parametrize("number", LESSON_NUMBERS)
def test_guide_plan_lists_the_notebook_sections_with_their_times(number):
    sections = _sections(_notebook(number))
    rows = _guide_rows(number)
    minutes = [m for _h, m in sections]
    assert _guide_spans(number) == minutes, (
        f"lesson {number}: the guide's plan {_guide_spans(number)} differs from the notebook's sections {minutes}")
    for (heading, _m), (_minutes, what) in zip(sections, rows):
        numbered = re.match(r"## (\d+) · ", heading)
        label = f"{numbered.group(1)} · " if numbered else heading[3:].split(" ⏱")[0]
        assert what.startswith(label), f"lesson {number}: the guide's row {what[:40]!r} is not section {label!r}"


@pytest.mark.parametrize("number", LESSON_NUMBERS)
def test_guide_plan_names_each_exercise_in_its_section(number):
    in_notebook = _exercises_per_section(_notebook(number))
    in_guide = [_exercises_named(what) for _minutes, what in _guide_rows(number)]
    assert in_guide == in_notebook, (
        f"lesson {number}: exercises per section, guide {in_guide} against notebook {in_notebook}")
    assert set().union(*in_notebook) == set(range(1, max(set().union(*in_notebook)) + 1))


def test_the_guide_describes_lesson_3_without_calling_mixing_bluffing():
    overview = GUIDE[:GUIDE.index("## Two versions")]
    assert "how often the equilibrium bluffs" not in overview
    assert "open-bid control" in overview


def _stored_output(number: int) -> str:
    import nbformat

    cells = nbformat.read(_notebook(number), as_version=4).cells
    return "\n".join(o.get("text", "") for c in cells if c.cell_type == "code" for o in c.outputs)


def test_numbers_the_guide_quotes_are_the_notebooks_checked_outputs():
    assert "*one-higher* wins 78–13" in GUIDE
    assert "one-higher against match-prize, 2000 games of 13 cards: average score 78.0 to 13.0" in _stored_output(1)
    assert "the dealer's −2 is what it can guarantee" in GUIDE
    assert "the dealer's seat is worth -2.00 points per hand to the dealer in equilibrium" in _stored_output(3)
    assert "120 plans" in GUIDE and "120 plans in 5-card Gops" in _stored_output(1)
