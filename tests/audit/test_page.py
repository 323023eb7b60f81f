"""The picture of a game (`minors report LOG --html`, `minors run --html`): the page holds a
band per minor, the BRP chart, the events with their clauses and the status diagram, and
needs nothing from outside. tests/audit/test_page_browser.py checks it in a real browser."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

import minors
from minors.audit.page import STATUS_COLOURS, major_colours, render
from minors.audit.story import Cell, story_of_game, story_of_log, tell
from minors.cli import main
from minors.rules82.machine import MACHINE
from minors.scenario import SAMPLE


class Page(HTMLParser):
    """The elements of a page: each start tag with its attributes, and the text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def having(self, tag: str, **wanted: str) -> list[dict[str, str]]:
        """The attributes of each `tag` whose classes include `class_` and whose other
        attributes have the values given."""
        found = []
        for name, attributes in self.tags:
            if name != tag:
                continue
            classes = attributes.get("class", "").split()
            if "class_" in wanted and wanted["class_"] not in classes:
                continue
            if all(attributes.get(k) == v for k, v in wanted.items() if k != "class_"):
                found.append(attributes)
        return found


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[minors.Game, Path]:
    """The sample campaign, played with a log."""
    path = tmp_path_factory.mktemp("page") / "campaign.jsonl"
    return minors.run_scenario(SAMPLE, log=path), path


@pytest.fixture(scope="module")
def page(logged: tuple[minors.Game, Path], tmp_path_factory: pytest.TempPathFactory) -> str:
    """`minors report LOG --html OUT` of the sample campaign, as text."""
    _, log = logged
    out = tmp_path_factory.mktemp("html") / "report.html"
    result = CliRunner().invoke(main, ["report", str(log), "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.stderr
    return out.read_text(encoding="utf-8")


def test_every_minor_of_the_game_has_a_band_of_every_season(
    logged: tuple[minors.Game, Path], page: str
) -> None:
    """Each minor in play has one band with one cell a season from the start to the last
    season, and the band's last cell is the minor's final status and major."""
    game, _ = logged
    parsed = Page(page)
    bands = [a["data-minor"] for a in parsed.having("g", class_="band")]
    final = game.to_json()["minors"]
    assert sorted(bands) == sorted(final)
    seasons = [a["data-turn"] for a in parsed.having("g", class_="season-head")]
    assert seasons[0] == "1939-fall"
    assert seasons[-1] == "1942-summer"
    assert len(seasons) == 12
    cells = parsed.having("g", class_="cell")
    absent = parsed.having("rect", class_="absent")
    assert len(cells) + len(absent) == len(bands) * len(seasons)
    # Vichy France is in play once France has fallen (Summer 1940), not before
    assert {a["data-turn"] for a in absent} == {"1939-fall", "1939-winter", "1940-spring"}
    ends = [c for c in cells if c["data-turn"] == seasons[-1]]
    assert [(c["data-status"], c["data-major"]) for c in ends] == [
        (final[m]["status"], final[m]["major"] or "") for m in bands
    ]


def test_a_cell_is_coloured_by_status_and_its_strip_by_major(page: str) -> None:
    """Belgium, conquered by Germany in Summer 1940, is drawn in the conquered colour with
    Germany's strip from then on, neutral grey before, and the season of the change is
    marked; its title names the changes with their clauses."""
    rs = minors.load_ruleset()
    colours = major_colours((n, m.faction) for n, m in rs.majors.items())
    band = re.search(r'<g class="band[^"]*" data-minor="Belgium".*?\n  </g>', page, re.S)
    assert band is not None
    cells = re.findall(
        r'<g class="cell" data-turn="([^"]+)" data-status="([^"]+)" data-major="([^"]*)">'
        r"<title>([^<]*)</title>\s*<rect [^>]*fill=\"([^\"]+)\"/>"
        r"\s*(<rect [^>]*fill=\"([^\"]+)\"/>)?\s*(<path class=\"changed\")?",
        band.group(0),
    )
    by_turn = {c[0]: c for c in cells}
    spring, summer = by_turn["1940-spring"], by_turn["1940-summer"]
    assert spring[1:3] == ("neutral", "")
    assert spring[4] == STATUS_COLOURS[minors.Status.NEUTRAL]
    assert not spring[5]
    assert not spring[7]
    assert summer[1:3] == ("conquered", "Germany")
    assert summer[4] == STATUS_COLOURS[minors.Status.CONQUERED]
    assert summer[6] == colours["Germany"]
    assert summer[7]
    assert "independent → conquered (Germany) [82.11G]" in summer[3]
    assert not by_turn["1940-fall"][7]  # no change in the next season


def test_the_brp_chart_has_a_line_per_major_ending_at_its_credits(
    logged: tuple[minors.Game, Path], page: str
) -> None:
    """The chart draws each major's credits a season at a time; the last point of each
    line is what `game.brps` says at the end."""
    game, _ = logged
    chart = page[page.index('<svg id="brps"') : page.index("</svg>", page.index('<svg id="brps"'))]
    for major in game.ruleset.majors:
        series = re.search(
            rf'<g class="series" data-major="{re.escape(major)}">(.*?)</g>', chart, re.S
        )
        assert series is not None, major
        points = re.findall(r"<title>([^<]*)</title>", series.group(1))
        assert len(points) == 12
        assert points[-1] == f"{major}, Summer 1942: {game.brps(major):+d} BRPs"
    assert game.brps("Italy") == -80  # the figure the chart must reach, not all zeros


def test_the_events_carry_their_clause_ids_and_minors(
    logged: tuple[minors.Game, Path], page: str
) -> None:
    """Every status change of the log is an event row naming its minor, in its season,
    with its clause id; commands are rows of their own."""
    game, _ = logged
    parsed = Page(page)
    rows = parsed.having("tr", class_="event")
    text = "".join(parsed.text)
    changes = [
        (entry, effect)
        for entry in game.log
        for effect in entry.effects
        if isinstance(effect, minors.StatusChanged)
    ]
    assert len(changes) > 20
    for _, effect in changes:
        assert f"{effect.minor}: {effect.old.value} → {effect.new.value}" in text
        assert any(effect.minor in r["data-minors"].split("|") for r in rows)
        assert f">{effect.rule}</abbr>" in page
    commands = parsed.having("tr", class_="command")
    assert len(commands) == sum(1 for e in game.log if e.command["command"] != "advance")
    conquest = [
        r for r in rows if r["data-minors"] == "Belgium" and r["data-turn"] == "1940-summer"
    ]
    assert conquest
    assert 'title="' + minors.load_ruleset().clauses["82.41"].title in page


def test_the_page_needs_nothing_from_outside(page: str) -> None:
    """No script, style, image or font is fetched: no src, no stylesheet link, no URL but
    XML namespaces, and a Content-Security-Policy that allows no load."""
    parsed = Page(page)
    assert not [a for _, a in parsed.tags if "src" in a]
    hrefs = [a["href"] for _, a in parsed.tags if "href" in a]
    assert all(h.startswith("data:") for h in hrefs), hrefs
    for url in re.findall(r"https?://[^\s\"'<>)]+", page):
        assert url in {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, url
    policy = parsed.having("meta", **{"http-equiv": "Content-Security-Policy"})
    assert policy
    assert policy[0]["content"].startswith("default-src 'none'")
    assert "<script>" in page
    assert "<style>" in page


def test_the_status_diagram_is_in_the_page_coloured_as_the_timeline(page: str) -> None:
    """The page carries the status diagram of docs/statuses.svg: every arrow of the
    Machine, and each status box filled with the colour its cells have."""
    arrows = {
        (s, t.dest or s)
        for e in MACHINE.events.values()
        for s, ts in e.transitions.items()
        for t in ts
    }
    for source, dest in arrows:
        assert f"<title>{source}&#45;&gt;{dest}</title>" in page, (source, dest)
    for status, colour in STATUS_COLOURS.items():
        assert re.search(rf'<title>{status.value}</title>\s*<path fill="{colour}"', page), status


def test_run_html_writes_the_page_and_names_a_broken_rule(tmp_path: Path) -> None:
    """`minors run FILE --html OUT` writes the page as well as its report; when a command
    breaks a rule (exit 3) the page shows the state before it and names the rule."""
    scenario = tmp_path / "broken.toml"
    scenario.write_text(
        '[scenario]\nname = "broken"\nstart = "1939-fall"\n\n'
        '[[do]]\nat = "1940-spring/axis/declarations"\ncommand = "declare_war"\n'
        'attacker = "Germany"\ntarget = "Sweden"\n\n'
        '[[do]]\nat = "1940-spring/axis/declarations"\ncommand = "declare_war"\n'
        'attacker = "Germany"\ntarget = "Sweden"\n',
        encoding="utf-8",
    )
    out = tmp_path / "run.html"
    result = CliRunner().invoke(main, ["run", str(scenario), "--json", "--html", str(out)])
    assert result.exit_code == 3
    document = json.loads(result.stdout)
    page = out.read_text(encoding="utf-8")
    assert f"broke rule {document['error']['rule']}" in page
    assert 'data-minor="Sweden"' in page
    assert "Sweden: neutral → independent" in page


def test_an_advance_over_seasons_gives_each_season_its_state(tmp_path: Path) -> None:
    """A log whose one advance crosses six seasons still has a cell for each of them, and
    the replay a season at a time gives the effects the log records."""
    game = minors.Game.new()
    game.advance_to("1941-spring/axis/declarations")  # one entry (a run splits it by turn)
    game.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    assert [e.command["command"] for e in game.log] == ["advance", "declare_war"]
    story = story_of_game(game)
    assert [t.label for t in story.turns] == [
        "Fall 1939", "Winter 1939", "Spring 1940", "Summer 1940", "Fall 1940", "Winter 1940",
        "Spring 1941",
    ]  # fmt: skip
    poland = next(b for b in story.bands if b.minor == "W. Poland")
    # W. Poland allies with Britain at the start of Winter 1939 (82.12), inside the advance
    fall, winter, spring = poland.cells[:3]
    assert fall == Cell(minors.Status.INDEPENDENT, None)
    assert winter == Cell(
        minors.Status.ALLIED, "Britain", ("independent → allied (Britain) [82.12]",)
    )
    assert spring == Cell(minors.Status.ALLIED, "Britain")


def test_text_in_the_page_is_escaped(logged: tuple[minors.Game, Path]) -> None:
    """Names and sentences are HTML-escaped: a title with markup shows as text."""
    game, _ = logged
    story = attrs.evolve(story_of_game(game), title="<script>alert(1)</script>")
    page = render(story)
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_report_of_a_tampered_log_exits_1_and_writes_nothing(
    logged: tuple[minors.Game, Path], tmp_path: Path
) -> None:
    """A log that fails verification gets no page: exit 1 naming the first bad entry."""
    _, log = logged
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if '"declare_war"' in line)
    lines[number] = lines[number].replace('"Germany"', '"Italy"', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "bad.html"
    result = CliRunner().invoke(main, ["report", str(bad), "--html", str(out)])
    assert result.exit_code == 1
    assert f"(line {number + 1}): the line's hash does not match its content" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["report", "{tmp}/missing.jsonl", "--html", "{tmp}/x.html"], "cannot read the log"),
        (["report", "{log}", "--html", "{tmp}/no/such/dir/x.html"], "cannot write"),
        (["report", "{log}", "--html", "{tmp}/x.html", "--rulebook", "nosuch"], "nosuch"),
    ],
)
def test_report_errors_are_one_line_exit_2(
    logged: tuple[minors.Game, Path], tmp_path: Path, args: list[str], says: str
) -> None:
    """A missing log, an output that cannot be written or an unknown rulebook: one line
    on stderr, exit 2, no traceback."""
    _, log = logged
    argv = [a.format(tmp=tmp_path, log=log) for a in args]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 2, result.output
    assert says in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_report_needs_html(logged: tuple[minors.Game, Path]) -> None:
    """`minors report LOG` without --html is a usage error naming the option."""
    _, log = logged
    result = CliRunner().invoke(main, ["report", str(log)])
    assert result.exit_code == 2
    assert "--html" in result.stderr


def test_tell_replays_from_the_start_game(logged: tuple[minors.Game, Path]) -> None:
    """The story of a log is the story of the game that wrote it."""
    game, log = logged
    from_log, from_game = story_of_log(log), story_of_game(game)
    assert from_log.bands == from_game.bands
    assert from_log.events == from_game.events
    assert from_log.brps == from_game.brps
    start = minors.Game.new()
    assert tell(start, game.log).bands == from_game.bands
    assert start.clock == minors.Game.new().clock  # the start game itself is not changed


def test_every_clause_badge_has_its_title(page: str) -> None:
    """Each clause id shown has its title from the rulebook's clause table, the kernel's
    K ids (K6, the cost of a declaration) among them."""
    badges = re.findall(r'<abbr title="([^"]*)">([^<]+)</abbr>', page)
    assert badges
    assert all(title for title, _ in badges)
    book = minors.find_rulebook("rule82").clauses
    assert (book["K6"].title, "K6") in badges


def test_a_log_of_a_variant_is_drawn_under_its_rulebook(tmp_path: Path) -> None:
    """A log written under winter-truce is drawn with --rulebook winter-truce; without it
    the report exits 2 naming the rulebook that wrote the log."""
    log, out = tmp_path / "truce.jsonl", tmp_path / "truce.html"
    played = CliRunner().invoke(main, ["run", "--rulebook", "winter-truce", "--log", str(log)])
    assert played.exit_code == 0
    refused = CliRunner().invoke(main, ["report", str(log), "--html", str(out)])
    assert refused.exit_code == 2
    assert "written under rulebook 'winter-truce'" in refused.stderr
    assert not out.exists()
    drawn = CliRunner().invoke(
        main, ["report", str(log), "--html", str(out), "--rulebook", "winter-truce"]
    )
    assert drawn.exit_code == 0, drawn.output
    assert "rulebook winter-truce" in out.read_text(encoding="utf-8")
