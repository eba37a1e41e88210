"""`companion bench --cpu`: the board model's arithmetic, its table, and its cgroup's life."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.benchmarks import Figure
from companion.benchmarks._board import (
    BOARDS,
    Calibration,
    ModelError,
    Quota,
    advance,
    energy,
    nbody_system,
    quota_for,
)
from companion.benchmarks._cgroup import ENV, ROOTS, Controller, CpuCgroup, find, own_cgroup
from companion.benchmarks._model import ModelRun, as_on_board, run_child, table
from companion.cli import main
from companion.commands.bench import _model_lines
from tests.unprivileged import as_unprivileged_user


def test_each_board_takes_its_cited_time_per_step() -> None:
    pi_4 = 158.26 / 5_000_000  # the published Pi 4 run
    assert BOARDS["pi-4"].step_s == pytest.approx(pi_4)
    # The Zero 2 W: a Pi 3B+ core at 1.0 GHz in place of 1.4, by sysbench's single-core rate.
    assert BOARDS["pi-zero-2w"].step_s == pytest.approx(pi_4 * 1477.83 / (687.45 / 1.4))
    assert BOARDS["pi-5"].step_s == pytest.approx(pi_4 * 1477.83 / 2737.49)
    assert BOARDS["pi-zero-2w"].step_s * 1e6 == pytest.approx(95.26, abs=0.01)


def test_the_share_is_this_machine_over_the_board() -> None:
    calibration = Calibration(BOARDS["pi-zero-2w"], here_step_s=9.526e-6)
    assert calibration.share == pytest.approx(0.1, rel=1e-3)


def test_the_quota_is_the_kernels_smallest_over_the_shortest_period() -> None:
    assert quota_for(0.1) == Quota(0.1, 1000, 10_000)
    assert quota_for(0.3).quota_us == 1000 and quota_for(0.3).period_us == 3333
    assert quota_for(0.0001) == Quota(0.001, 1000, 1_000_000)  # the longest period there is
    assert quota_for(2.5) == Quota(1.0, 1000, 1000)  # a board faster than here: a whole core
    with pytest.raises(ModelError):
        quota_for(0.0)


def test_the_workload_is_the_standard_n_body() -> None:
    # The energies the Benchmarks Game prints for its n-body program, before and after 1000 steps.
    bodies = nbody_system()
    assert f"{energy(bodies):.9f}" == "-0.169075164"
    advance(bodies, 0.01, 1000)
    assert f"{energy(bodies):.9f}" == "-0.169087605"


def test_the_table_puts_the_model_and_the_wire_floor_beside_each_figure() -> None:
    here = {
        "100 kHz: horse press -> LEDs lit (p99)": Figure(9.8, "ms"),
        "100 kHz: horse press -> LEDs lit, wire floor (p99)": Figure(2.2, "ms"),
        "100 kHz: horse press -> OLED (p99)": Figure(69, "ms"),
        "100 kHz: horse press -> OLED, wire floor (p99)": Figure(53, "ms"),
        "100 kHz: press -> applied (tone) (p99)": Figure(1.1, "ms"),
    }
    model = {
        "100 kHz: horse press -> LEDs lit (p99)": Figure(24, "ms"),
        "100 kHz: horse press -> LEDs lit, wire floor (p99)": Figure(2.2, "ms"),
        "100 kHz: horse press -> OLED (p99)": Figure(float("nan"), "ms"),
        "100 kHz: horse press -> OLED, wire floor (p99)": Figure(41, "ms"),
    }
    lines = table(here, model, "pi-zero-2w")
    assert lines[0].split() == ["here", "pi-zero-2w", "wire", "floor"]
    rows = {line.split("  ")[1]: line.split("  ")[-1].split() for line in lines[1:]}
    assert rows.keys() == {
        "100 kHz: horse press -> LEDs lit (p99)",
        "100 kHz: horse press -> OLED (p99)",
        "100 kHz: press -> applied (tone) (p99)",
    }
    led_row = lines[1].split()
    assert led_row[-6:] == ["9.8", "ms", "24", "ms", "2.2", "ms"]
    oled_row = lines[2].split()  # no model figure; the floors differ, so both are shown
    assert oled_row[-7:] == ["ms", "-", "53", "ms", "/", "41", "ms"]
    tone_row = lines[3].split()
    assert tone_row[-4:] == ["1.1", "ms", "-", "-"]


def test_cpu_time_under_the_model_is_counted_as_the_board_would() -> None:
    measured = {
        "100 kHz: CPU per press, the loop thread (median)": Figure(0.5, "ms"),
        "idle CPU, 10 pages open (one core)": Figure(0.3, "%"),
        "100 kHz: horse press -> LEDs lit (p99)": Figure(24, "ms"),
        "resident memory after start-up": Figure(40, "MB"),
    }
    board = as_on_board(measured, 0.1)
    assert [f.value for f in board.values()] == pytest.approx([5.0, 3.0, 24, 40])


def test_the_model_lines_say_the_step_its_quota_throttles_in() -> None:
    # A machine 2.8 times faster than the eighth round's: the same 1 ms quota, a longer period.
    calibration = Calibration(BOARDS["pi-zero-2w"], here_step_s=3.31e-6)
    run = ModelRun(calibration, quota_for(calibration.share), {})
    said = _model_lines(run).splitlines()
    assert said[0].startswith("pi-zero-2w model: 0.035 of one core (1000 us every 28780 us);")
    assert said[1] == (
        "  work under 1 ms of CPU here between two refills runs at this machine's speed;"
        " past it, it waits up to 28.8 ms for the next"
    )


def _writable_controller() -> Controller:
    try:
        controller = find(ROOTS)
    except ModelError as error:
        pytest.skip(f"no cgroup cpu controller here ({error})")
    if not os.access(controller.root, os.W_OK):
        pytest.skip(f"the cgroup cpu controller at {controller.root} is not writable")
    return controller


@pytest.fixture
def group() -> Iterator[CpuCgroup]:
    cgroup = CpuCgroup(
        _writable_controller(), Quota(0.5, 1000, 2000), f"companion-test-{os.getpid()}"
    )
    yield cgroup
    assert not cgroup.path.exists()


def test_a_child_runs_inside_the_cgroup_and_the_cgroup_goes_when_it_fails(group) -> None:
    mine = own_cgroup(group.controller.version)
    with group:
        limit = "cpu.cfs_quota_us" if group.controller.version == 1 else "cpu.max"
        assert (group.path / limit).read_text().split()[0] == "1000"
        child = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read(); sys.exit(3)"],
            stdin=subprocess.PIPE,
            preexec_fn=group.preexec,
        )
        assert own_cgroup(group.controller.version, child.pid).endswith(group.path.name)
        assert group.pids() == [child.pid]
        assert own_cgroup(group.controller.version) == mine  # the bench itself stays out
        child.communicate(b"")
        assert child.returncode == 3
    assert not group.path.exists()


def test_the_cgroup_goes_on_an_error_and_its_child_goes_back(group) -> None:
    mine = own_cgroup(group.controller.version)
    child = None
    with pytest.raises(KeyboardInterrupt), group:
        child = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read()"],
            stdin=subprocess.PIPE,
            preexec_fn=group.preexec,
        )
        raise KeyboardInterrupt
    assert child is not None
    try:
        assert not group.path.exists()
        assert own_cgroup(group.controller.version, child.pid) == mine
    finally:
        child.communicate(b"")


def test_a_failing_bench_child_gives_no_figures_and_leaves_no_cgroup(group) -> None:
    said: list[str] = []
    with group:
        figures = run_child("nonsense", True, group, "process", said.append)
    assert figures == {}
    assert len(said) == 1
    assert said[0].startswith(
        "companion bench: nonsense failed under the model"
        " (companion bench: unknown benchmark: nonsense"
    )


def test_a_bench_child_puts_only_its_daemon_in_the_cgroup(group) -> None:
    probe = (
        "import subprocess, sys\n"
        "from companion.benchmarks._cgroup import joiner_from_env\n"
        "print(open('/proc/self/cgroup').read(), flush=True)\n"
        "subprocess.run([sys.executable, '-c', \"print(open('/proc/self/cgroup').read())\"],"
        " preexec_fn=joiner_from_env(), check=True)\n"
    )
    with group:
        env = dict(os.environ, **{ENV: str(group.path)})
        out = subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
        ).stdout
    child, daemon = out.split("\n\n", 1)
    assert group.path.name not in child
    assert f"/{group.path.name}\n" in daemon


def test_where_no_cgroup_can_be_made_the_bench_says_so_and_gives_this_machines_figures(
    tmp_path: Path, capsys
) -> None:
    fake = tmp_path / "cpu"
    fake.mkdir()
    (fake / "cpu.cfs_quota_us").write_text("-1\n")
    (fake / "cpu.cfs_period_us").write_text("100000\n")
    fake.chmod(0o555)
    try:
        argv = ["bench", "--quick", "--only", "startup", "--cpu", "pi-zero-2w"]
        assert main([*argv, "--cgroup-root", str(fake)]) == 0
    finally:
        fake.chmod(0o755)
    out, err = capsys.readouterr()
    assert "companion bench: no pi-zero-2w model (" in err
    assert err.rstrip().endswith("); figures of this machine only")
    assert "command line start (median)" in out and "pi-zero-2w" not in out
    assert sorted(p.name for p in fake.iterdir()) == ["cpu.cfs_period_us", "cpu.cfs_quota_us"]


def test_a_read_only_controller_folder_is_refused_and_left_as_it_was() -> None:
    def make(fake: Path) -> object:
        with CpuCgroup(Controller(fake, 1), quota_for(0.1), "companion-bench-x"):
            return "made"

    with tempfile.TemporaryDirectory() as folder:
        Path(folder).chmod(0o755)  # the unprivileged child may come in
        fake = Path(folder) / "cpu"
        fake.mkdir()
        (fake / "cpu.cfs_quota_us").write_text("-1\n")
        fake.chmod(0o555)
        refused = as_unprivileged_user(lambda: make(fake))
        fake.chmod(0o777)  # the same folder, writable: a plain folder, not a controller
        plain = as_unprivileged_user(lambda: make(fake))
        assert [p.name for p in fake.iterdir()] == ["cpu.cfs_quota_us"]
    assert refused == {
        "raised": "ModelError",
        "message": f"cannot make a cgroup at {fake}/companion-bench-x: Permission denied",
    }
    assert plain == {"raised": "ModelError", "message": f"{fake} is not a cgroup controller"}


@pytest.mark.parametrize(
    ("stop", "when"), [(signal.SIGINT, "as it starts"), (signal.SIGTERM, "with the child inside")]
)
def test_a_bench_stopped_under_the_model_leaves_no_cgroup_nor_child(
    stop: signal.Signals, when: str
) -> None:
    controller = _writable_controller()
    bench = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "bench",
            "--only",
            "startup",
            "--quick",
            "--cpu",
            "pi-5",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert bench.stderr is not None
    for line in bench.stderr:
        if "as on a pi-5" in line:  # said once the cgroup is made, before the child starts
            break
    group = controller.root / f"companion-bench-{bench.pid}"
    assert group.is_dir()
    inside: list[str] = []
    deadline = time.monotonic() + 30
    while when == "with the child inside" and not inside and time.monotonic() < deadline:
        inside = (group / "cgroup.procs").read_text().split()
        time.sleep(0.01)
    bench.send_signal(stop)
    bench.communicate(timeout=60)
    assert bench.returncode == 128 + stop
    assert not group.exists()
    if when == "with the child inside":
        assert inside
        for pid in inside:  # the child bench was stopped with it
            assert not Path(f"/proc/{pid}").exists()


def test_a_press_on_the_board_is_its_cpu_over_the_share_then_its_waits_and_wire() -> None:
    from companion.benchmarks.glass import OutputTrace

    step = OutputTrace(cpu=0.0012, waits=0.002, wire=0.008)
    assert step.on_board(0.04) == pytest.approx(0.030 + 0.002 + 0.008)
    assert step.on_board(1.0) == pytest.approx(0.0112), "at this machine's share: as measured"


def test_the_figures_given_as_on_a_board_are_taken_out_of_this_machines() -> None:
    from companion.benchmarks._model import split_prefixed

    here = {
        "glass": {
            "100 kHz: horse press -> LEDs lit (p99)": Figure(4.0, "ms"),
            "trace: 100 kHz: horse press -> LEDs lit (p99)": Figure(21.0, "ms"),
            "rp2040: Pico-wired horse press -> strip lit (p99)": Figure(3.8, "ms"),
        }
    }
    taken, models = split_prefixed(here)
    assert here == {"glass": {"100 kHz: horse press -> LEDs lit (p99)": Figure(4.0, "ms")}}
    assert taken["glass"]["100 kHz: horse press -> LEDs lit (p99)"] == Figure(21.0, "ms")
    assert models["glass"] == {
        "100 kHz: horse press -> LEDs lit (p99)": "trace",
        "Pico-wired horse press -> strip lit (p99)": "micropython-rp2040",
    }


def test_a_small_share_is_modelled_from_the_traces_on_any_kernel(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from companion.benchmarks._model import keyed, run_model, summary

    calibration = Calibration(BOARDS["pi-zero-2w"], here_step_s=3.3e-6)  # a share of 0.035
    traced = {
        "glass": {
            "100 kHz: horse press -> LEDs lit (p99)": Figure(21.0, "ms"),
            "Pico-wired horse press -> strip lit (p99)": Figure(3.8, "ms"),
            "400 kHz: horse press -> OLED (median)": Figure(60.0, "ms"),
        }
    }
    models = {
        "glass": {
            "100 kHz: horse press -> LEDs lit (p99)": "trace",
            "Pico-wired horse press -> strip lit (p99)": "micropython-rp2040",
            "400 kHz: horse press -> OLED (median)": "trace",
        }
    }
    glass = SimpleNamespace(NAME="glass", CPU_MODEL="process")
    said: list[str] = []
    run = run_model(  # no cpu controller at tmp_path: the traced figures need none
        BOARDS["pi-zero-2w"], [glass], True, [tmp_path], said.append, calibration, traced, models
    )
    assert run.models == {"glass": "trace"} and said == []
    assert summary(run)["models"] == {"glass": "trace"}
    keys = keyed(run)
    assert keys["pi-zero-2w.glass.press_to_leds.p99"] == {
        "value": 21.0,
        "unit": "ms",
        "model": "trace",
        "label": "100 kHz: horse press -> LEDs lit (p99)",
    }
    assert keys["pi-zero-2w.glass.press_to_leds_pico.p99"]["model"] == "micropython-rp2040"
    assert keys["pi-zero-2w.glass.400_khz_horse_press_oled_median"]["value"] == 60.0


def test_a_large_share_keeps_the_quota_model_and_the_traces_stand_beside_it(
    tmp_path: Path,
) -> None:
    from types import SimpleNamespace

    from companion.benchmarks._model import run_model

    calibration = Calibration(BOARDS["pi-4"], here_step_s=6.0e-6)  # a share of 0.19
    traced = {"glass": {"100 kHz: horse press -> LEDs lit (p99)": Figure(9.0, "ms")}}
    models = {"glass": {"100 kHz: horse press -> LEDs lit (p99)": "trace"}}
    glass = SimpleNamespace(NAME="glass", CPU_MODEL="process")
    with pytest.raises(ModelError):  # the quota model needs a cgroup; there is none here
        run_model(BOARDS["pi-4"], [glass], True, [tmp_path], print, calibration, traced, models)


def test_a_tap_or_a_start_on_the_board_is_the_daemons_cpu_over_the_share_then_its_waits() -> None:
    from companion.benchmarks._model import Span

    tap = Span(wall=0.010, cpu=0.006)  # 4 ms here were the phones, the sockets, wake-ups
    assert tap.waits == pytest.approx(0.004)
    assert tap.on_board(0.03) == pytest.approx(0.200 + 0.004)
    assert tap.on_board(1.0) == pytest.approx(0.010), "at this machine's share: as measured"
    both = Span(wall=0.005, cpu=0.007)  # two of its threads ran at once on two cores here
    assert both.waits == 0.0
    assert both.on_board(0.1) == pytest.approx(0.070), "on the board one thread at a time"
    loaded = Span(wall=0.300, cpu=0.006, queued=0.290)  # other work held this machine's cores
    assert loaded.waits == pytest.approx(0.004)
    assert loaded.on_board(0.03) == pytest.approx(0.204), "as on a quiet machine"


def test_the_daemons_cpu_counts_every_thread_even_one_that_ended() -> None:
    from companion.benchmarks._model import process_cpu

    code = (
        "import threading, time\n"
        "def burn():\n"
        "    end = time.thread_time() + 0.2\n"
        "    while time.thread_time() < end: pass\n"
        "t = threading.Thread(target=burn); t.start(); t.join()\n"
        "print(time.process_time(), flush=True)\n"
        "input()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        own = float(child.stdout.readline())  # the child's own count, its burner ended
        seen = process_cpu(child.pid)
        threads = sum(
            int((task / "schedstat").read_text().split()[0])
            for task in Path(f"/proc/{child.pid}/task").iterdir()
        )
        assert own >= 0.2
        assert own <= seen < own + 0.05
        assert threads / 1e9 < seen - 0.15, "the threads still there miss the ended one's"
        child.stdin.write("\n")
        child.stdin.flush()
    finally:
        child.wait(10)


def test_the_tap_and_the_start_figures_come_from_each_ones_own_trace() -> None:
    from companion.benchmarks._model import Span
    from companion.benchmarks.daemon import start_figures
    from companion.benchmarks.web import tap_figures

    spans = [Span(wall=0.010, cpu=0.006)] * 98 + [Span(wall=0.050, cpu=0.008)] * 2
    here = tap_figures(spans, None)
    assert here["tap to 10 scoreboards (median)"].value == pytest.approx(10.0)
    assert here["tap to 10 scoreboards (p99)"].value == pytest.approx(50.0)
    assert here["CPU per tap, the daemon's threads (median)"].value == pytest.approx(6.0)
    board = tap_figures(spans, 0.04)
    assert board["trace: tap to 10 scoreboards (median)"].value == pytest.approx(150 + 4)
    assert board["trace: tap to 10 scoreboards (p99)"].value == pytest.approx(200 + 42)
    assert board["trace: CPU per tap, the daemon's threads (median)"].value == pytest.approx(150)

    ready = [Span(0.150, 0.120), Span(0.160, 0.140), Span(0.300, 0.130)]
    answered = [Span(0.250, 0.200)] * 3
    assert start_figures(ready, answered, None) == {
        "start-up to READY=1": Figure(pytest.approx(160.0), "ms"),
        "start-up to the pages answering": Figure(pytest.approx(250.0), "ms"),
        "CPU to READY=1, the daemon's process (median)": Figure(pytest.approx(130.0), "ms"),
    }
    on_board = start_figures(ready, answered, 0.02)
    # each start on the board: 6.03, 7.02, 6.67 s; the median is the third start's
    assert on_board["trace: start-up to READY=1"].value == pytest.approx(6670.0)
    assert on_board["trace: start-up to the pages answering"].value == pytest.approx(10050.0)
    assert on_board["trace: CPU to READY=1, the daemon's process (median)"].value == (
        pytest.approx(6500.0)
    )


def _partly_traced(share_step_s: float, board: str, monkeypatch) -> tuple[ModelRun, list[str]]:
    """``run_model`` over the pages' bench, traced in part, with a stand-in quota run."""
    from contextlib import nullcontext
    from types import SimpleNamespace

    from companion.benchmarks import _model

    monkeypatch.setattr(_model, "find", lambda roots: None)
    monkeypatch.setattr(_model, "CpuCgroup", lambda controller, quota: nullcontext())
    quota_run = {
        "tap to 10 scoreboards (p99)": Figure(290.0, "ms"),
        "CPU per tap, the daemon's threads (median)": Figure(6.0, "ms"),
        "idle CPU, 10 pages open (one core)": Figure(0.05, "%"),
        "trace: tap to 10 scoreboards (p99)": Figure(999.0, "ms"),  # traced under the quota
    }
    monkeypatch.setattr(_model, "run_child", lambda *args: dict(quota_run))
    calibration = Calibration(BOARDS[board], here_step_s=share_step_s)
    traced = {
        "web": {
            "tap to 10 scoreboards (p99)": Figure(230.0, "ms"),
            "CPU per tap, the daemon's threads (median)": Figure(190.0, "ms"),
        }
    }
    web = SimpleNamespace(NAME="web", CPU_MODEL="daemon", TRACE_PART=True)
    said: list[str] = []
    run = _model.run_model(BOARDS[board], [web], True, [], said.append, calibration, traced, {})
    return run, said


def test_on_a_small_share_the_tap_comes_from_its_trace_and_the_rest_from_the_quota(
    monkeypatch,
) -> None:
    from companion.benchmarks._model import keyed, summary

    run, said = _partly_traced(3.0e-6, "pi-zero-2w", monkeypatch)  # a share of 0.031
    assert said == ["companion bench: web as on a pi-zero-2w (1/1)…"]
    figures = run.figures["web"]
    assert figures["tap to 10 scoreboards (p99)"] == Figure(230.0, "ms")
    assert figures["CPU per tap, the daemon's threads (median)"] == Figure(190.0, "ms")
    share = run.quota.share
    assert figures["idle CPU, 10 pages open (one core)"].value == pytest.approx(0.05 / share)
    assert "trace: tap to 10 scoreboards (p99)" not in figures
    keys = keyed(run)
    assert keys["pi-zero-2w.web.tap_to_scoreboards.p99"] == {
        "value": 230.0,
        "unit": "ms",
        "model": "trace",
        "label": "tap to 10 scoreboards (p99)",
    }
    assert keys["pi-zero-2w.web.idle_cpu"]["model"] == "quota"
    assert summary(run)["traced figures"] == {
        "web": ["tap to 10 scoreboards (p99)", "CPU per tap, the daemon's threads (median)"]
    }
    assert run.checks == {}
    assert _model_lines(run).splitlines()[-1] == (
        "  web: tap to 10 scoreboards (p99); CPU per tap, the daemon's threads (median): from"
        " each run's own trace (the daemon's CPU time here divided by 0.031, the rest as it"
        " was); the rest by the quota"
    )


def test_on_a_large_share_the_quota_gives_the_tap_and_its_trace_stands_beside_it(
    monkeypatch,
) -> None:
    from companion.benchmarks._model import keyed

    run, _ = _partly_traced(6.0e-6, "pi-4", monkeypatch)  # a share of 0.19
    assert run.figures["web"]["tap to 10 scoreboards (p99)"] == Figure(290.0, "ms")
    assert keyed(run)["pi-4.web.tap_to_scoreboards.p99"]["model"] == "quota"
    assert run.checks["web"]["tap to 10 scoreboards (p99)"] == Figure(230.0, "ms")
    assert run.traced_figures == {}


def test_on_a_small_share_without_a_cgroup_the_traced_figures_stand_alone(
    tmp_path: Path,
) -> None:
    from types import SimpleNamespace

    from companion.benchmarks._model import keyed, run_model

    calibration = Calibration(BOARDS["pi-zero-2w"], here_step_s=3.0e-6)
    traced = {"daemon": {"start-up to READY=1": Figure(7000.0, "ms")}}
    daemon = SimpleNamespace(NAME="daemon", CPU_MODEL="process", TRACE_PART=True)
    said: list[str] = []
    run = run_model(
        BOARDS["pi-zero-2w"], [daemon], True, [tmp_path], said.append, calibration, traced, {}
    )
    assert said[0].startswith("companion bench: no quota model (")
    assert run.figures == {"daemon": {"start-up to READY=1": Figure(7000.0, "ms")}}
    assert keyed(run)["pi-zero-2w.daemon.start_to_ready"]["model"] == "trace"


def test_the_time_the_daemon_waited_for_a_core_taken_by_other_work_is_counted_apart() -> None:
    from companion.benchmarks._model import process_cpu, queued

    spin = "import time\nend = time.process_time() + {}\nwhile time.process_time() < end: pass\n"
    one_core = {sorted(os.sched_getaffinity(0))[0]}
    other = subprocess.Popen([sys.executable, "-c", spin.format(5)])
    os.sched_setaffinity(other.pid, one_core)
    code = spin.format(0.3) + "input()\n"
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, text=True)
    os.sched_setaffinity(child.pid, one_core)
    try:
        while process_cpu(child.pid) < 0.3:
            time.sleep(0.02)
        assert queued(child.pid) > 0.1, "it shared its one core with the other spinner"
    finally:
        other.kill()
        other.wait(10)
        assert child.stdin is not None
        child.stdin.write("\n")
        child.stdin.close()
        child.wait(10)
