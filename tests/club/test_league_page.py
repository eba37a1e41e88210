"""The league board as `companion league` serves it: live tables, results, standings, history,
exports; in English, French and German; every word of it in each catalog."""

from __future__ import annotations

import csv
import io
import json
import signal
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from companion.club.broker import LocalBroker
from companion.club.league import CACHED_STANDINGS, League, Scope
from companion.club.mqtt import client_for
from companion.club.payloads import content_hash, dump
from companion.club.publisher import Publisher
from companion.devices.config.checker import parse_config
from companion.devices.config.sections import ClubSection
from tests.club.conftest import CLUB, USERS, login, start_league, wait_for
from tests.club.games import open_table, play
from tests.club.test_league import a_result
from tests.web.hostile.conftest import send
from tests.web.hostile.test_headers import INLINE, secured

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "companion" / "locale"


def page_words() -> set[str]:
    source = ROOT / "companion" / "club" / "page.py"
    return {m for _, m, _, _ in extract_from_file("python", str(source), keywords={"t": None})}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_word_of_the_board_is_in_each_catalog_translated(language: str) -> None:
    with (LOCALE / language / "LC_MESSAGES" / "league.po").open("rb") as handle:
        catalog = read_po(handle)
    ids = {m.id for m in catalog if m.id}
    assert ids == page_words()
    for message in catalog:
        if message.id:
            assert message.string, f"{language}: {message.id!r} is not translated"
            assert ("{name}" in message.id) == ("{name}" in message.string)


def fetch(url: str, language: str = "en") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def test_the_board_shows_tables_results_standings_and_history(
    broker: LocalBroker, tmp_path: Path
) -> None:
    database = tmp_path / "league.sqlite3"
    config = tmp_path / "league.toml"
    config.write_text(
        f'[league]\nclub = "{CLUB}"\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "league"\npassword = "{USERS["league"]}"\ndatabase = "{database}"\n'
        'bind = "127.0.0.1"\npage_port = 0\n'
    )
    league, url = start_league(config)
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = Publisher(ClubSection(CLUB, "table1", login(broker, "table1")), path)
    publisher.start()
    try:
        for seed in (1, 2):
            play(session, seed=seed)
            publisher.board(session.view())
        exported = wait_for(
            lambda: (
                len(json.loads(fetch(url + "results.json")[1])) == 2
                and json.loads(fetch(url + "results.json")[1])
            ),
            what="two results on the board",
        )
        status, english = fetch(url)
        _, french = fetch(url, "fr")
        _, german = fetch(url + "?lang=de", "fr")
        _, history = fetch(url + "player/Anna")
        missing, _ = fetch(url + "player/Nobody")
        _, table = fetch(url + "results.csv")
    finally:
        publisher.stop()
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    assert league.returncode == 0 and "Traceback" not in out, out
    assert status == 200 and missing == 404
    assert "Live tables" in english and "table1" in english and "Standings of the season" in english
    assert "Tables en direct" in french and "Classement de la saison" in french
    assert "Tische live" in german and "Tabelle der Saison" in german
    winners = {w for r in exported for w in r["winners"]}
    assert all(name in english for name in ("Anna", "Bob", "Chloé"))
    assert "<svg" in history and "<polyline" in history and "History of Anna" in history
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == 6 and {r["player"] for r in rows} == {"Anna", "Bob", "Chloé"}
    assert {r["player"] for r in rows if r["winner"] == "True"} == winners


FORMULAS = ('=HYPERLINK("x")', "@Bob", "-Chloé")


def test_the_board_answers_its_own_names_only_with_the_pages_headers_and_csv_as_text(
    broker: LocalBroker, tmp_path: Path
) -> None:
    """The league's web is the table's: a Host allow-list, the same headers, no inline style;
    a name that a spreadsheet would run as a formula is exported as text."""
    database = tmp_path / "league.sqlite3"
    config = tmp_path / "league.toml"
    config.write_text(
        f'[league]\nclub = "{CLUB}"\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "league"\npassword = "{USERS["league"]}"\ndatabase = "{database}"\n'
        'page_port = 0\nnames = ["league.lan"]\n'
    )
    league, url = start_league(config)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    base = a_result(tmp_path, "table1")
    players = [{**p, "name": n} for p, n in zip(base["players"], FORMULAS, strict=True)]
    winners = [p["name"] for p in players if p["rank"] == 1]
    result = {**base, "players": players, "winners": winners}
    result["hash"] = content_hash(result)
    client = client_for(login(broker, "table1"), "raw-table1")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        client.publish(f"companion/{CLUB}/table1/results", dump(result), 1).wait_for_publish(10)
        wait_for(lambda: json.loads(fetch(url + "results.json")[1]), what="the result")
        answers = {
            host: send(port, "GET", "/", headers={"Host": host})
            for host in ("evil.example", f"league.lan:{port}", f"127.0.0.1:{port}", "localhost")
        }
        files = [send(port, "GET", path) for path in ("/static/style.css", "/static/league.css")]
        exported = send(port, "GET", "/results.csv")
        bad_scope = send(port, "GET", "/standings.json?evening=../../etc")
    finally:
        client.loop_stop()
        client.disconnect()
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    assert "Traceback" not in out, out
    assert answers["evil.example"].status == 421
    assert "its own address" in answers["evil.example"].body.decode()
    for host, answer in answers.items():
        secured(answer.headers, host)
        assert answer.headers.get("cache-control") == "no-store", host
    board = answers["localhost"].body.decode()
    assert answers["localhost"].status == 200 and "Club league" in board
    assert not INLINE.search(board), INLINE.search(board)
    assert all(f.status == 200 and f.headers["content-type"].startswith("text/css") for f in files)
    assert bad_scope.status == 400
    cells = {row["player"] for row in csv.DictReader(io.StringIO(exported.body.decode()))}
    assert cells == {"'" + name for name in FORMULAS}


def test_the_league_keeps_a_few_standings_worked_out_not_every_one_asked_for(
    tmp_path: Path,
) -> None:
    store = League.open(tmp_path / "league.sqlite3")
    store.add(a_result(tmp_path, "table1"))
    for day in range(1, 29):
        for month in range(1, 13):
            store.standings(Scope(evening=f"2025-{month:02d}-{day:02d}"))
    assert len(store._standings) <= CACHED_STANDINGS
    store.close()


def test_the_league_board_listens_on_this_machine_only_unless_told() -> None:
    config = parse_config('[league]\nclub = "c"\n')
    assert config.league is not None and config.league.bind == "127.0.0.1"
    opened = parse_config('[league]\nclub = "c"\nbind = "0.0.0.0"\nnames = ["League.LAN."]\n')
    assert opened.league is not None
    assert (opened.league.bind, opened.league.names) == ("0.0.0.0", ("league.lan",))
