"""The `companion` program: version, help and the bench command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion import __version__
from companion.cli import build_parser, command_modules, main


def test_version_is_printed(capsys) -> None:
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code == 0
    assert capsys.readouterr().out.strip() == f"companion {__version__}"


def test_help_lists_the_commands(capsys) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "bench" in out
    assert "usage: companion" in out


def test_installed_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion", "--help"], capture_output=True, text=True, check=True
    )
    assert "Jumpy Jack" in out.stdout


def test_the_command_line_starts_without_loading_the_games_it_does_not_play() -> None:
    # Only `companion odds` needs an engine to describe its options (Course hippique's
    # setbacks); the registry, and with it every other engine, waits for a command that plays.
    probe = "import sys, companion.cli; companion.cli.build_parser(); print(*sorted(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert "companion.commands.replay" in loaded
    games = {"companion.games.registry", "companion.games.jumpy_jack", "companion.games.jockey"}
    assert not games & loaded
    assert not {"companion.session.session", "companion.session.autoplay"} & loaded


def test_bench_json_prints_one_object_with_figures(capsys) -> None:
    assert main(["bench", "--quick", "--json", "--only", "startup"]) == 0
    out, err = capsys.readouterr()
    assert err == "companion bench: startup (1/1)…\n"  # the subject named as it starts
    report = json.loads(out)
    figure = report["startup"]["command line start (median)"]
    assert figure["unit"] == "ms" and figure["value"] > 0


def test_bench_refuses_an_unknown_benchmark(capsys) -> None:
    assert main(["bench", "--only", "nonsense"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("companion bench: unknown benchmark: nonsense")


def test_bench_refuses_an_unknown_board_before_measuring(capsys) -> None:
    assert main(["bench", "--only", "startup", "--cpu", "pi-zero"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "companion bench: unknown board: pi-zero (known: pi-4, pi-zero-2w, pi-5)\n"


def test_the_command_line_starts_without_loading_the_journal() -> None:
    # export, games and replay load the journal and the log reader when they run.
    probe = "import sys, companion.cli; companion.cli.build_parser(); print(*sorted(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert {"companion.commands.export", "companion.commands.games"} <= loaded
    assert not {"companion.session", "companion.session.journal", "companion.session.log"} & loaded


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    return capsys.readouterr().out


def test_each_command_run_by_its_name_parses_as_with_every_command_loaded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `companion NAME` loads only NAME's module; its options, help and errors are the same.
    whole = build_parser()
    helps = {}
    for action in whole._subparsers._group_actions:  # type: ignore[union-attr]
        helps = {name: sub.format_help() for name, sub in action.choices.items()}
    assert len(helps) == len(command_modules()) >= 10
    for name, text in helps.items():
        assert _help([name, "--help"], capsys) == text
    for wrong in (["check-config", "--no-such-option"], ["odds", "--length", "9"]):
        with pytest.raises(SystemExit):
            whole.parse_args(wrong)
        expected = capsys.readouterr().err
        with pytest.raises(SystemExit):
            main(wrong)
        assert capsys.readouterr().err == expected
    with pytest.raises(SystemExit):
        main(["check_config"])  # a module's name is not a command
    assert "invalid choice: 'check_config'" in capsys.readouterr().err


def test_a_command_loads_no_other_commands_module() -> None:
    probe = (
        "import sys, companion.cli\n"
        "try:\n    companion.cli.main(['games', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(*sorted(sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = {name for name in out.stdout.split() if name.startswith("companion.commands.")}
    assert loaded == {"companion.commands.games", "companion.commands.export"}  # games uses export
