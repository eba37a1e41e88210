"""The table simulator: the companion's displays in a terminal, keys for its buttons and reader.

:func:`run_simulator` runs the daemon's own loop in a background thread, on the fakes of
:func:`companion.daemon.rig.simulated_rig`, and a Textual app in the main thread. The app
only drives those fakes (gpiozero mock pins behind the real button, die, encoder and undo
classes; the pretend card reader) and reads what the fake LCD, OLED, LED strip and buzzer
were sent. Every rule, every refusal and the journal are the daemon's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static

from companion.daemon.app import Companion
from companion.daemon.rig import Simulation, card_name
from companion.daemon.simulator_view import (
    CardInput,
    LcdPanel,
    OledPanel,
    PagesPanel,
    StripPanel,
    half_blocks,
    pixels,
)
from companion.devices.base import PUSH_HOLD_S
from companion.devices.cards_file import card_label
from companion.devices.simulated import PRESS_S
from companion.web.qr import qr_rows

log = logging.getLogger("companion.simulator")

#: How often the app reads the fakes (seconds). A desktop tool may poll; the daemon does not.
REFRESH_S = 0.05

#: After a simulated press opens, the debouncer's time to see it open (seconds, with margin).
SETTLE_S = 0.07

#: Undo is held this much longer than the configured hold time (seconds).
HOLD_MARGIN_S = 0.3

#: How long quitting waits for the daemon's loop to shut down (seconds).
STOP_TIMEOUT_S = 5.0

#: Below this terminal size the OLED is drawn at half resolution.
FULL_OLED_MIN = (96, 32)

#: From this terminal width on, the join page's QR code is drawn beside the displays.
QR_MIN_WIDTH = 132
#: From this width on, the QR code is drawn beside the addresses in the panel's own row
#: (under the displays, where the panel goes when it has no room beside them).
QR_ROW_MIN_WIDTH = 100

LEGEND = (
    "[b]1[/]-[b]5[/] horse buttons   [b]space[/]/[b]d[/] die   [b]enter[/] push   "
    "[b]h[/] hold push (seat a phone)   "
    "[b]←[/]/[b]→[/] or [b]-[/]/[b]+[/] turn   [b]u[/] hold undo   "
    "[b]c[/] or [b]/[/] type a card   [b]q[/] quit"
)


# -- the daemon's loop in a thread -----------------------------------------------------------


class LoopThread:
    """The daemon's loop (``Companion.run``) in a background thread, started and stopped once."""

    def __init__(self, companion: Companion) -> None:
        self.companion = companion
        #: What ended the loop if it failed.
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="companion-loop", daemon=True)
        self._lock = threading.Lock()
        self._closed = False

    def start(self) -> None:
        """Start the loop (once)."""
        with self._lock:
            if self._thread.ident is None and not self._closed:
                self._thread.start()

    def _run(self) -> None:
        try:
            self.companion.run(handle_signals=False)
        except BaseException as error:  # shown by the app, which then exits with 1
            self.error = error
            log.exception("the companion's loop failed")

    @property
    def alive(self) -> bool:
        """Whether the loop's thread is running."""
        return self._thread.is_alive()

    @property
    def ended(self) -> bool:
        """Whether the loop ran and has finished."""
        return self._thread.ident is not None and not self._thread.is_alive()

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> bool:
        """Ask the loop to stop and wait up to ``timeout`` s; True once it has finished.

        A loop that never started has its journal and devices closed here instead.
        """
        with self._lock:
            started = self._thread.ident is not None
            first = not self._closed
            self._closed = True
        if not started:
            if first:
                self.companion.daemon.table.close()
                self.companion.rig.close()
            return True
        if self._thread.is_alive():
            self.companion.daemon.stop("the simulator was closed")
            self._thread.join(timeout)
        return not self._thread.is_alive()


class RecentLog(logging.Handler):
    """Keep the last few warnings so the app can show them (stderr is the app's screen)."""

    def __init__(self, keep: int = 5) -> None:
        super().__init__(logging.WARNING)
        self.messages: deque[str] = deque(maxlen=keep)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname.lower()}: {record.getMessage()}")
        self.count += 1


# -- the app ---------------------------------------------------------------------------------


class SimulatorApp(App[None]):
    """The simulated table: LCD, OLED, LED strip and buzzer on screen, keys for the controls.

    The app starts the daemon's loop when it mounts and stops it when it quits; it exits by
    itself if the loop ends some other way. Its ``return_code`` is 1 when the loop failed
    or did not stop.
    """

    TITLE = "companion simulator"
    AUTO_FOCUS = None
    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #displays { height: auto; }
    LcdPanel {
        width: auto; height: auto; padding: 0 1; margin-right: 2;
        background: #1b3a9c; color: #eef3ff; text-style: bold;
        border: heavy #6b7280; border-title-color: #d1d5db;
    }
    PagesPanel {
        width: auto; height: auto; padding: 0 1; margin-left: 2;
        border: heavy #6b7280; border-title-color: #d1d5db;
    }
    Screen > PagesPanel { margin-left: 0; }
    OledPanel {
        width: auto; height: auto; padding: 0 1;
        background: #000000; color: #9ad7ff;
        border: heavy #6b7280; border-title-color: #d1d5db;
    }
    StripPanel {
        height: auto; background: #101010;
        border: heavy #6b7280; border-title-color: #d1d5db;
    }
    #tones { height: 1; color: #fcd34d; }
    #status { height: auto; color: #a7f3d0; }
    #warnings { height: auto; color: #fca5a5; }
    CardInput { width: 64; margin: 0; }
    #legend { height: auto; color: #9ca3af; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"horse({n})", f"horse {n}", show=False) for n in range(1, 6)),
        Binding("space,d", "die", "die", show=False),
        Binding("enter", "push", "push", show=False),
        Binding("h", "hold_push", "hold push", show=False),
        Binding("left,minus", "turn(-1)", "turn left", show=False),
        Binding("right,plus,equals_sign", "turn(1)", "turn right", show=False),
        Binding("u", "undo", "hold undo", show=False),
        # Priority: the field has the keys at once, even for "c" and the card typed after it
        # in one burst (a paste); in the field these keys are typed (SkipAction).
        Binding("c,slash", "card", "type a card", show=False, priority=True),
        Binding("q", "quit", "quit", show=False),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
    ]

    def __init__(
        self,
        companion: Companion,
        *,
        refresh_s: float = REFRESH_S,
        handle_signals: bool = False,
    ) -> None:
        super().__init__()
        sim = companion.rig.simulation
        if sim is None:
            raise ValueError("the simulator needs a companion built with simulate=True")
        self.companion = companion
        self.sim: Simulation = sim
        self.loop_thread = LoopThread(companion)
        self.refresh_s = refresh_s
        self.handle_signals = handle_signals
        self.recent = RecentLog()
        self._quitting = False
        self._ready_said = False
        self._free_at: dict[str, float] = {}
        self._tones_seen = -1
        self._warnings_seen = -1
        self.lcd_panel = LcdPanel(sim.lcd.cols, sim.lcd.rows) if sim.lcd is not None else None
        self.oled_panel = (
            OledPanel(sim.oled.width, sim.oled.height) if sim.oled is not None else None
        )
        self.pages_panel = None
        self.pages_below = None
        if companion.web is not None:
            join_url = f"{companion.web.url}join"
            qr = half_blocks(qr_rows(join_url))
            loopback = companion.web.loopback
            self.pages_panel = PagesPanel(companion.web.url, join_url, qr, loopback)
            self.pages_below = PagesPanel(companion.web.url, join_url, qr, loopback)
        leds = sim.leds()
        self.strip_panel = StripPanel(len(leds)) if leds else None
        self.tones = Static(id="tones")
        self.status = Static("Starting the companion…", id="status")
        self.warnings = Static(id="warnings")
        self.card_input = CardInput(
            placeholder="card (QS, 10H, 7♥, red +7, jockey:12), Enter to scan", id="card"
        )
        journal = companion.session.journal
        self.journal_path = str(journal.path) if journal is not None else "(in memory)"

    # Building and running.

    def compose(self) -> ComposeResult:
        with Horizontal(id="displays"):
            panels = (self.lcd_panel, self.oled_panel, self.pages_panel)
            yield from (panel for panel in panels if panel is not None)
        if self.pages_below is not None:  # the panel's own row, when there is no room beside
            yield self.pages_below
        if self.strip_panel is not None:
            yield self.strip_panel
        yield self.tones
        yield self.status
        yield self.warnings
        yield self.card_input
        yield Static(f"{LEGEND}\n[dim]journal: {self.journal_path}[/]", id="legend")

    def on_mount(self) -> None:
        logging.getLogger().addHandler(self.recent)
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGTERM, lambda: self.call_next(self.action_quit))
            loop.add_signal_handler(signal.SIGHUP, self._hang_up)
        self._fit(self.size.width, self.size.height)
        self.loop_thread.start()
        self.set_interval(self.refresh_s, self.read_fakes)

    def on_unmount(self) -> None:
        logging.getLogger().removeHandler(self.recent)
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for number in (signal.SIGTERM, signal.SIGHUP):
                loop.remove_signal_handler(number)

    def _hang_up(self) -> None:
        """The terminal is gone: stop the daemon cleanly, then end as a hang-up would.

        Textual cannot leave a vanished terminal in order (it waits on writes that never
        finish), so the app is not shut down: the process ends once the journal is closed.
        """
        self._quitting = True
        self.loop_thread.stop()
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGHUP)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        compact = width < FULL_OLED_MIN[0] or height < FULL_OLED_MIN[1]
        if self.oled_panel is not None:
            self.oled_panel.set_compact(compact)
        if self.pages_panel is not None and self.pages_below is not None:
            beside = width >= QR_MIN_WIDTH
            self.pages_panel.display = beside
            self.pages_below.display = not beside
            self.pages_panel.set_qr(beside)
            wide = width >= QR_ROW_MIN_WIDTH
            self.pages_below.set_qr(wide and self.pages_below.width_needed(True) <= width)

    # Reading the fakes.

    def read_fakes(self) -> None:
        """Copy what the fake devices show into the widgets; notice when the loop has ended."""
        sim = self.sim
        if sim.lcd is not None and self.lcd_panel is not None:
            self.lcd_panel.show(sim.lcd.lines())
        if sim.oled is not None and self.oled_panel is not None:
            self.oled_panel.show(pixels(sim.oled.image))
        if self.strip_panel is not None:
            self.strip_panel.show(sim.leds())
        web = self.companion.web
        if web is not None and self.pages_panel is not None and self.pages_below is not None:
            taken = web.seats.taken()
            seated = tuple(p for p in web.seats.people() if p in taken)
            self.pages_panel.show_seated(seated)
            self.pages_below.show_seated(seated)
            code = None if web.side.host_taken() else web.side.joins.code  # as the table shows
            self.pages_panel.show_code(code)
            self.pages_below.show_code(code)
        if sim.buzzer is not None:
            self._read_buzzer(sim)
        if self.recent.count != self._warnings_seen:
            self._warnings_seen = self.recent.count
            self.warnings.update(Text("\n".join(list(self.recent.messages)[-2:])))
        if self.loop_thread.ended and not self._quitting:
            self._quitting = True
            self.exit(return_code=1 if self.loop_thread.error is not None else 0)
        elif not self._ready_said and self.companion.daemon.running.is_set():
            self._ready_said = True
            ready = "Ready: the companion is running."
            if self.companion.web is not None:
                ready += f" Phones: {self.companion.web.url}"
                if self.companion.web.loopback:
                    ready += " (this computer only: --web-bind 0.0.0.0 opens it to phones)"
            self.say(ready)

    def _read_buzzer(self, sim: Simulation) -> None:
        buzzer = sim.buzzer
        assert buzzer is not None
        played = list(buzzer.played)
        sounding = buzzer.hz
        key = len(played) * 2 + (sounding is not None)
        if key == self._tones_seen:
            return
        self._tones_seen = key
        text = Text("buzzer: ", style="dim")
        if not played:
            text.append("silent", style="dim")
        else:
            text.append(" · ".join(tone.value for tone in played[-6:]))
            text.append(f"  ({len(played)} tones)", style="dim")
        if sounding is not None:
            text.append(f"  ♪ {sounding:.0f} Hz", style="bold")
        self.tones.update(text)

    def say(self, message: str) -> None:
        """Show what the simulator just did (or why it did not)."""
        self.status.update(Text(message))

    # The controls.

    def _operate(self, done: str, action: Callable[[], str | None]) -> None:
        """Carry out a control once the loop runs; say ``done``, or what ``action`` returns."""
        if self._quitting:
            return
        if not self.companion.daemon.running.is_set():
            self.say("The companion is still starting: try again in a moment.")
            return
        try:
            said = action()
        except KeyError as error:  # a button this configuration does not have
            said = str(error.args[0]) if error.args else "no such control"
        self.say(said or done)

    def _press(self, button: str, down_s: float = PRESS_S) -> None:
        """Press ``button`` for ``down_s``; while it is still down, the press waits its turn.

        A contact pressed again before it opened would be one long press to the debouncer,
        so a quick second key would be lost: it is made once the button is free again.
        """
        controls = self.sim.controls
        if button not in controls.buttons:
            raise KeyError(f"This configuration has no {button} button.")
        now = time.monotonic()
        start = max(now, self._free_at.get(button, 0.0))
        self._free_at[button] = start + down_s + SETTLE_S

        def press() -> None:
            if not self._quitting:
                controls.press(button, down_s)

        if start <= now:
            press()
        else:
            self.set_timer(start - now, press)

    def action_horse(self, number: int) -> None:
        """Press horse button ``number``."""
        self._operate(f"Pressed horse button {number}.", lambda: self._press(f"horse{number}"))

    def action_die(self) -> None:
        """Press the die button."""
        self._operate("Pressed the die button.", lambda: self._press("die"))

    def action_push(self) -> None:
        """Push the encoder's knob."""
        self._operate("Pushed the knob.", lambda: self._press("push"))

    def action_hold_push(self) -> None:
        """Hold the knob down long enough to seat the phone the table asks about."""
        held = PUSH_HOLD_S + HOLD_MARGIN_S
        self._operate(f"Holding the knob ({held:.1f} s)…", lambda: self._press("push", held))

    def action_turn(self, steps: int) -> None:
        """Turn the encoder ``steps`` detents (negative: anticlockwise)."""
        way = "clockwise" if steps > 0 else "anticlockwise"
        self._operate(f"Turned the knob {way}.", lambda: self.sim.controls.turn(steps))

    def action_undo(self) -> None:
        """Hold the undo button down long enough to confirm."""
        held = self.sim.controls.hold_s + HOLD_MARGIN_S
        self._operate(f"Holding undo ({held:.1f} s)…", lambda: self._press("undo", held))

    def action_card(self) -> None:
        """Move the keys to the card field (in the field, the key is typed)."""
        card = self.card_input
        if card.has_focus:
            raise SkipAction
        if not self._quitting:
            self.screen.set_focus(card)
            self.say("Type a card and press Enter (Escape: back to the buttons).")

    def on_input_submitted(self, message: Input.Submitted) -> None:
        """Lay the typed card on the reader; the field is emptied and the keys are buttons again.

        Whether it was a card or not, Enter ends the typing, so the next key never lands
        in a field still holding a mistake.
        """
        typed = message.value.strip()
        self.card_input.value = ""
        self.screen.set_focus(None)
        self._operate("", lambda: self._lay(typed))

    def _lay(self, typed: str) -> str:
        """Lay the card named ``typed`` on the reader; say which, or why not."""
        name = card_name(typed, self.sim.jockey)
        if name is None:
            hint = "try QS, 10H, 7♥, red +7 or jockey:12 (c to type again)"
            return f'"{typed}" is not a card: {hint}.'
        self.sim.scan(name)
        label = card_label(name)
        return f"Laid {name} on the reader: {label}." if label else f"Laid {name} on the reader."

    async def action_quit(self) -> None:
        """Stop the daemon (journal closed, displays say bye), then leave."""
        if self._quitting and not self.loop_thread.alive:
            self.exit()
            return
        self._quitting = True
        self.say("Stopping the companion…")
        stopped = await asyncio.to_thread(self.loop_thread.stop)
        if not stopped:
            log.error("the companion's loop did not stop within %.0f s", STOP_TIMEOUT_S)
        self.exit(return_code=0 if stopped and self.loop_thread.error is None else 1)


def run_simulator(companion: Companion) -> int:
    """Run the simulator in this terminal until the user quits; return the exit status."""
    app = SimulatorApp(companion, handle_signals=True)
    try:
        app.run()
    finally:
        stopped = app.loop_thread.stop()
    error = app.loop_thread.error
    if error is not None:
        print(f"companion simulate: the companion stopped on an error: {error!r}", file=sys.stderr)
    if not stopped:
        print(
            f"companion simulate: the companion did not stop within {STOP_TIMEOUT_S:.0f} s",
            file=sys.stderr,
        )
    return 0 if stopped and error is None and not app.return_code else 1
