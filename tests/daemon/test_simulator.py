"""The terminal simulator, driven through Textual's headless pilot and, once, in a real pty."""

from __future__ import annotations

import asyncio
import dataclasses
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from companion.commands.simulate import where_the_pages_are
from companion.daemon.app import JOURNAL_NAME, Companion, build
from companion.daemon.rig import card_name
from companion.daemon.simulator import SimulatorApp
from companion.daemon.simulator_view import (
    CardInput,
    LcdPanel,
    OledPanel,
    PagesPanel,
    StripPanel,
    braille,
    half_blocks,
    pixels,
    seen_colour,
    shrink,
)
from companion.devices.base import ButtonPressed, CardScanned, DeviceStatus, DieRolled, Event
from companion.devices.config import Config, default_config
from companion.devices.oled import die_image
from companion.games.jockey import JockeyBoard
from companion.web.qr import qr_rows
from companion.web.server import lan_address

SIZE = (120, 40)


def quick_config() -> Config:
    """The default build with a quick die and a short hold on undo."""
    config = default_config()
    assert config.die is not None and config.undo is not None
    return dataclasses.replace(
        config,
        gpio=dataclasses.replace(config.gpio, pin_factory="mock"),
        die=dataclasses.replace(config.die, roll_ms=50),
        undo=dataclasses.replace(config.undo, hold_s=0.2),
        web=dataclasses.replace(config.web, bind="127.0.0.1", port=0),
    )


class Recorder:
    """The daemon's table, with every event it is handed kept in order."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.events: list[Event] = []

    def handle(self, event: Event) -> Any:
        self.events.append(event)
        return self.table.handle(event)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    def scanned(self) -> list[str | None]:
        """The card of every scan handed to the table so far (None: a tag nobody enrolled)."""
        return [e.card for e in self.events if isinstance(e, CardScanned)]


def companion_on(state_dir: Path) -> tuple[Companion, Recorder]:
    """A simulated companion on ``state_dir`` whose table records the events it gets."""
    companion = build(quick_config(), simulate=True, state_dir=state_dir)
    recorder = Recorder(companion.daemon.table)
    companion.daemon.table = recorder
    return companion, recorder


def play(app: SimulatorApp, scenario: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    """Run ``scenario`` against the app in Textual's headless driver; stop the loop after."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, app.companion.daemon.running.is_set, "the loop to start")
            await scenario(pilot)

    try:
        asyncio.run(main())
    finally:
        assert app.loop_thread.stop(), "the daemon's loop did not stop"


async def until(
    pilot: Pilot[None], check: Callable[[], object], what: str, timeout: float = 20.0
) -> None:
    """Let the app run until ``check()`` is true; fail after ``timeout`` seconds (a moment on a
    quiet machine: the wait is long for one busy with other work, where the presses queued
    behind each other take their turns slowly)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; LCD: {lcd_shown(pilot.app)}")
        await pilot.pause(0.03)


def lcd_shown(app: Any) -> list[str]:
    """The rows the app's LCD panel draws on the terminal."""
    panel = app.query_one(LcdPanel)
    return [panel.render_line(y).text for y in range(panel.size.height)]


def oled_shown(app: Any) -> list[str]:
    """The braille rows the app's OLED panel draws on the terminal."""
    panel = app.query_one(OledPanel)
    return [panel.render_line(y).text for y in range(panel.size.height)]


def lcd_says(app: Any, text: str) -> Callable[[], bool]:
    return lambda: any(text in row for row in lcd_shown(app))


def status(app: Any) -> str:
    return str(app.query_one("#status", Static).content)


def die_faces() -> dict[int, list[str]]:
    """What the OLED panel draws for each die face at full resolution."""
    return {face: braille(pixels(die_image(face))) for face in range(1, 7)}


# -- drawing ----------------------------------------------------------------------------------


def test_braille_puts_each_pixel_on_its_dot() -> None:
    dots = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08, (1, 1): 0x10}
    dots |= {(1, 2): 0x20, (0, 3): 0x40, (1, 3): 0x80}
    for (x, y), bit in dots.items():
        grid = [[False] * 4 for _ in range(4)]
        grid[y][x + 2] = True
        assert braille(grid) == [chr(0x2800) + chr(0x2800 + bit)]


def test_a_die_face_in_braille_shows_its_pips() -> None:
    faces = die_faces()
    assert len({tuple(rows) for rows in faces.values()}) == 6
    assert all(len(rows) == 16 and {len(r) for r in rows} == {64} for rows in faces.values())
    assert shrink([[False, True], [False, False]], 2) == [[True]]
    half = braille(shrink(pixels(die_image(5)), 2))
    assert len(half) == 8 and braille(shrink(pixels(die_image(4)), 2)) != half


def test_half_blocks_put_two_rows_of_a_qr_code_on_each_line() -> None:
    modules = qr_rows("http://127.0.0.1:8080/join")
    lines = half_blocks(modules)
    assert len(lines) == (len(modules) + 1) // 2
    upper = {"▀", "█"}
    lower = {"▄", "█"}
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            assert (lines[y // 2][x] in (upper if y % 2 == 0 else lower)) is dark


def shown_panel(app: SimulatorApp) -> list[str]:
    """The lines of the Phones panel on show (beside the displays, or in its own row)."""
    panel = next(p for p in app.query(PagesPanel) if p.display)
    return [panel.render_line(y).text.rstrip() for y in range(panel.size.height)]


def has(lines: list[str], words: str) -> bool:
    return any(words in line for line in lines)


def test_a_simulator_on_this_computer_alone_says_so_and_how_to_open_it(tmp_path: Path) -> None:
    companion, _ = companion_on(tmp_path)
    assert companion.web is not None and companion.web.loopback
    url = companion.web.url
    assert where_the_pages_are(url, True) == [
        f"the pages are at {url}",
        "they answer this computer only; --web-bind 0.0.0.0 opens them to the phones of your "
        "network",
    ]
    app = SimulatorApp(companion)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.resize_terminal(80, 40)
        await until(pilot, lambda: "this computer only" in status(app), "the status says so")
        assert "--web-bind 0.0.0.0" in status(app)
        await until(pilot, lambda: has(shown_panel(app), f"pages: {url}"), "the whole address")
        assert has(shown_panel(app), f"join:  {url}join")
        assert has(shown_panel(app), "--web-bind 0.0.0.0")
        assert has(shown_panel(app), "seated: nobody yet")
        assert companion.web is not None
        code = companion.web.side.joins.code  # no host yet: the table shows it, and so the panel
        assert has(shown_panel(app), f"code:  {code}")
        companion.web.seats.seat_order(["Anna", "Ben", "Chloé"])  # the room of a game...
        companion.web.seats.issue("Ben")  # ...and the phones the table gave seats to
        companion.web.seats.issue("Anna")
        await until(pilot, lambda: has(shown_panel(app), "seated: Anna, Ben"), "the seated")
        companion.web.seats.issue("#host")  # a host: the code is on the host page only now
        await until(pilot, lambda: not has(shown_panel(app), "code: "), "the code gone")
        for size in ((100, 40), (140, 48)):  # no QR code of an address no phone can open
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert has(shown_panel(app), f"pages: {url}")
            assert not has(shown_panel(app), "█"), size

    play(app, scenario)


def test_a_simulator_open_to_the_network_shows_its_lan_address_whole_and_as_a_qr_code(
    tmp_path: Path,
) -> None:
    config = quick_config()
    config = dataclasses.replace(config, web=dataclasses.replace(config.web, bind="0.0.0.0"))
    companion = build(config, simulate=True, state_dir=tmp_path)
    assert companion.web is not None and not companion.web.loopback
    url = companion.web.url
    assert url.startswith(f"http://{lan_address()}:")  # the machine's address, not 127.0.0.1
    assert where_the_pages_are(url, False) == [f"the pages are at {url}"]
    qr = [line.rstrip() for line in half_blocks(qr_rows(f"{url}join")) if line.strip()]
    app = SimulatorApp(companion)

    def drawn() -> bool:
        """Whether the whole QR code of the join address is on show, row by row."""
        return all(has(shown_panel(app), line) for line in qr)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.resize_terminal(80, 40)
        await until(pilot, lambda: has(shown_panel(app), f"pages: {url}"), "the whole address")
        assert has(shown_panel(app), f"join:  {url}join")
        assert not has(shown_panel(app), "█")  # no room for the QR code beside the words
        await pilot.resize_terminal(100, 48)
        await until(pilot, drawn, "the QR code at 100 columns")
        assert has(shown_panel(app), f"join:  {url}join")
        await pilot.resize_terminal(140, 48)
        await until(pilot, drawn, "the QR code beside the displays")

    play(app, scenario)


def test_dim_led_colours_are_shown_at_full_strength() -> None:
    assert seen_colour((0, 0, 0)) == (0, 0, 0)
    assert seen_colour((64, 16, 0)) == (255, 64, 0)


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("QS", "QS"), ("qs", "QS"), (" 10h ", "10H"), ("7♥", "7H"), ("JS", "JS"),
        ("queen of spades", "QS"), ("jockey:12", "jockey:12"), ("jockey 54", "jockey:54"),
        ("j7", "jockey:7"), ("J10", "jockey:10"), ("jockey:red+7#2", "jockey:14"),
        ("red+7#2", "jockey:14"), ("red +7", "jockey:13"), ("red+7", "jockey:13"),
        ("No.3 +18", "jockey:52"), ("red+7#5", None),
        ("jockey:55", None), ("j0", None), ("", None), ("zz", None), ("11H", None),
    ],
)  # fmt: skip
def test_typed_cards_get_the_name_the_reader_reports(typed: str, name: str | None) -> None:
    assert card_name(typed) == name


# -- the app on the headless driver ----------------------------------------------------------


def test_the_keys_set_up_jumpy_jack_and_roll_the_die(tmp_path: Path) -> None:
    companion, recorder = companion_on(tmp_path)
    app = SimulatorApp(companion)
    sim = companion.rig.simulation
    assert sim is not None

    async def scenario(pilot: Pilot[None]) -> None:
        await until(pilot, lcd_says(app, "Choose a game:"), "the menu")
        await pilot.press("1")
        await until(pilot, lcd_says(app, "Players:"), "the players step")
        await pilot.press("enter")
        await until(pilot, lcd_says(app, "Start"), "the options step")
        await pilot.press("enter")
        await until(pilot, lcd_says(app, "predict"), "the predictions")
        await pilot.press("1", "2", "3")
        await until(pilot, lcd_says(app, "sealed"), "the sealed prediction")
        await pilot.press("space")
        faces = die_faces()
        await until(pilot, lambda: oled_shown(app) in faces.values(), "a die face on the OLED")
        face = next(f for f, rows in faces.items() if rows == oled_shown(app))
        await until(pilot, lcd_says(app, f"die {face}"), "the LCD to name the face")
        strip = app.query_one(StripPanel)
        await until(pilot, lambda: strip.leds == sim.leds(), "the strip panel to catch up")
        lit = {i for i, colour in enumerate(sim.leds()) if colour != (0, 0, 0)}
        assert lit and set(strip.lit()) == lit
        assert "accepted" in str(app.query_one("#tones", Static).content)

    play(app, scenario)
    inputs = [e for e in recorder.events if not isinstance(e, DeviceStatus)]
    pressed = [e.button for e in inputs if isinstance(e, ButtonPressed)]
    assert pressed == ["horse1", "push", "push", "horse1", "horse2", "horse3", "die"]
    assert isinstance(inputs[-1], DieRolled)


def test_the_knob_turns_and_undo_is_held(tmp_path: Path) -> None:
    companion, _ = companion_on(tmp_path)
    app = SimulatorApp(companion)

    async def scenario(pilot: Pilot[None]) -> None:
        await until(pilot, lcd_says(app, ">1 Jumpy Jack"), "the cursor on Jumpy Jack")
        await pilot.press("right")
        await until(pilot, lcd_says(app, ">2 Course hippique"), "the cursor to move down")
        await pilot.press("minus")
        await until(pilot, lcd_says(app, ">1 Jumpy Jack"), "the cursor to move back up")
        await pilot.press("1")
        await until(pilot, lcd_says(app, "Players:"), "the players step")
        await pilot.press("u")
        assert "Holding undo" in status(app)
        await until(pilot, lcd_says(app, "Choose a game:"), "undo to go back to the menu")

    play(app, scenario)


def test_a_typed_card_is_laid_on_the_reader(tmp_path: Path) -> None:
    companion, recorder = companion_on(tmp_path)
    app = SimulatorApp(companion)

    async def scenario(pilot: Pilot[None]) -> None:
        field = app.query_one(CardInput)
        await pilot.press("c", "1", "0", "h")  # typed, not horse button 1
        assert field.has_focus and field.value == "10h"
        await pilot.press("enter")
        await until(pilot, lambda: recorder.scanned() == ["10H"], "the table to get 10H")
        assert not field.has_focus and field.value == ""
        assert "10H" in status(app)
        await pilot.press("slash", "z", "z", "enter")
        assert '"zz" is not a card' in status(app)
        assert not field.has_focus and field.value == ""  # cleared, the keys are buttons again
        await pilot.press("1")
        await until(pilot, lcd_says(app, "Players:"), "the horse button to work again")
        await pilot.press("c", "j", "1", "2", "enter")
        await until(
            pilot, lambda: recorder.scanned() == ["10H", "jockey:12"], "the table to get jockey:12"
        )

    play(app, scenario)


def test_jockey_cards_typed_by_label_or_id_are_the_copies_not_yet_played(tmp_path: Path) -> None:
    companion, recorder = companion_on(tmp_path)
    app = SimulatorApp(companion)

    def pile() -> list[str]:
        board = companion.daemon.call(lambda: companion.session.view().board).result(5.0)
        assert isinstance(board, JockeyBoard)
        return list(board.pile)

    async def lay(pilot: Pilot[None], typed: str, name: str) -> None:
        played = len(recorder.scanned())
        await pilot.press("c", *typed, "enter")
        await until(pilot, lambda: len(recorder.scanned()) > played, f"{typed!r} to be scanned")
        assert recorder.scanned()[-1] == name

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("3")  # Jockey
        await until(pilot, lcd_says(app, "Players:"), "the players step")
        await pilot.press("enter")
        await until(pilot, lcd_says(app, "Start"), "the options step")
        await pilot.press("enter")
        for _ in range(2):  # each player bets 100 on brown to win
            await until(pilot, lcd_says(app, ": bet"), "a player's bet")
            await pilot.press("enter", "1", "enter")
        await until(pilot, lcd_says(app, "'s card"), "the race to start")
        await lay(pilot, "red +7", "jockey:13")
        await until(pilot, lambda: pile() == ["red+7#1"], "red +7 (1 of 4) to be played")
        assert "red +7 (1 of 4)" in status(app)
        await lay(pilot, "red+7", "jockey:14")
        await lay(pilot, "jockey:red+7#4", "jockey:16")
        await until(pilot, lambda: len(pile()) == 3, "three cards played")
        assert pile() == ["red+7#1", "red+7#2", "red+7#4"]
        await lay(pilot, "red +7", "jockey:15")
        await until(pilot, lambda: len(pile()) == 4, "the last red +7 to be played")

    play(app, scenario)


def test_a_two_character_card_reaches_the_table(tmp_path: Path) -> None:
    companion, recorder = companion_on(tmp_path)
    app = SimulatorApp(companion)

    async def scenario(pilot: Pilot[None]) -> None:
        field = app.query_one(CardInput)
        await pilot.press("c", "q", "s")  # q and s are typed, not quit and not a button
        assert field.has_focus and field.value == "qs"
        await pilot.press("enter")
        await until(pilot, lambda: recorder.scanned() == ["QS"], "the table to get QS")

    play(app, scenario)


def test_quitting_stops_the_daemon_and_the_game_is_resumed_next_time(tmp_path: Path) -> None:
    companion, _ = companion_on(tmp_path)
    app = SimulatorApp(companion)
    sim = companion.rig.simulation
    assert sim is not None and sim.lcd is not None

    async def start_a_game(pilot: Pilot[None]) -> None:
        await pilot.press("1")
        await until(pilot, lcd_says(app, "Players:"), "the players step")
        await pilot.press("enter")
        await until(pilot, lcd_says(app, "Start"), "the options step")
        await pilot.press("enter")
        await until(pilot, lcd_says(app, "Player 1: predict"), "the race")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit")

    play(app, start_a_game)
    assert app.return_code == 0
    assert not app.loop_thread.alive and not companion.daemon.running.is_set()
    assert companion.session.journal is None  # closed
    assert not (tmp_path / (JOURNAL_NAME + "-wal")).exists()
    assert "bye" in "".join(sim.lcd.lines())

    again, _ = companion_on(tmp_path)
    reopened = SimulatorApp(again)

    async def look(pilot: Pilot[None]) -> None:
        await until(pilot, lcd_says(reopened, "Player 1: predict"), "the game to come back")

    play(reopened, look)


def test_the_app_closes_when_the_daemon_stops_on_its_own(tmp_path: Path) -> None:
    companion, _ = companion_on(tmp_path)
    app = SimulatorApp(companion)

    async def scenario(pilot: Pilot[None]) -> None:
        companion.daemon.stop("stop from the control socket")
        await until(pilot, lambda: not app.is_running, "the app to close")

    play(app, scenario)
    assert app.return_code == 0
    assert companion.session.journal is None


def test_a_failing_loop_closes_the_app_with_an_error(tmp_path: Path) -> None:
    companion, _ = companion_on(tmp_path)

    def broken() -> int:
        raise RuntimeError("the loop broke")

    companion.daemon.run = broken  # type: ignore[method-assign]
    app = SimulatorApp(companion)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: not app.is_running, "the app to close")

    try:
        asyncio.run(main())
    finally:
        companion.session.close()
    assert app.return_code == 1
    assert isinstance(app.loop_thread.error, RuntimeError)


# -- `companion simulate` in a real terminal ---------------------------------------------------


class Terminal:
    """`companion simulate` in a child process on a pseudo-terminal of a given size."""

    def __init__(self, args: Sequence[str], size: tuple[int, int] = SIZE) -> None:
        main, child = pty.openpty()
        cols, rows = size
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "simulate", *args],
            stdin=child, stdout=child, stderr=child, env=env, start_new_session=True,
        )  # fmt: skip
        os.close(child)
        self.main = main
        self.output = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:  # keep draining, or the app blocks on a full terminal
        while True:
            ready, _, _ = select.select([self.main], [], [], 0.1)
            if not ready:
                if self.process.poll() is not None:
                    return
                continue
            try:
                chunk = os.read(self.main, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def wait_for(self, text: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while text.encode() not in self.output:
            if time.monotonic() > deadline or self.process.poll() is not None:
                tail = bytes(self.output[-2000:]).decode(errors="replace")
                raise AssertionError(f"{text!r} never appeared on the terminal:\n{tail}")
            time.sleep(0.05)

    def type(self, keys: str) -> None:
        os.write(self.main, keys.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._reader.join(2)
        os.close(self.main)


@pytest.mark.parametrize("how", ["q", "SIGTERM"])
def test_companion_simulate_runs_in_a_terminal(tmp_path: Path, how: str) -> None:
    terminal = Terminal(["--state-dir", str(tmp_path)])
    try:
        terminal.wait_for("Choose a game:")
        terminal.wait_for("Ready")
        terminal.type("1")
        terminal.wait_for("Players:")
        if how == "q":
            terminal.type("q")
        else:
            terminal.process.send_signal(signal.SIGTERM)
        assert terminal.process.wait(timeout=10) == 0
    finally:
        terminal.close()
    assert (tmp_path / JOURNAL_NAME).exists()
    assert not (tmp_path / (JOURNAL_NAME + "-wal")).exists()  # closed cleanly
