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
    # The registry, and with it every engine, waits for a command that plays.
    probe = "import sys, companion.cli; companion.cli.build_parser(); print(*sorted(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert "companion.commands.replay" in loaded
    games = {"companion.games.registry", "companion.games.jumpy_jack", "companion.games.jockey"}
    assert not games & loaded
    # `odds` offers the setback variants from Course hippique's light face, not its engine.
    assert "companion.games.course_hippique.variants" in loaded
    engine = ("table", "track", "odds", "rules", "game", "public")
    assert not {f"companion.games.course_hippique.{part}" for part in engine} & loaded
    assert "companion.games.cards" not in loaded
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


#: What describing the commands' options must not load: the Course hippique engine (odds
#: reads its setback variants from the game's light face, ``variants`` alone), the playing
#: cards, the configuration checker and its TOML reader (check-config, cards), the cards
#: file, the card readers and the device events (cards).
HEAVY_FOR_THE_PARSER = (
    "companion.games.course_hippique.table",
    "companion.games.course_hippique.track",
    "companion.games.course_hippique.odds",
    "companion.games.course_hippique.game",
    "companion.games.cards",
    "companion.devices.config",
    "companion.devices.config.checker",
    "tomllib",
    "companion.devices.cards_file",
    "companion.devices.readers",
    "companion.devices.base",
    "companion.devices.enrollment",
)


def test_the_whole_parser_loads_none_of_what_only_running_a_command_needs(tmp_path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text("")
    probe = (
        "import sys, companion.cli\n"
        "companion.cli.build_parser()\n"
        "print(*sorted(sys.modules))\n"
        "for argv in (['cards', 'labels', 'jockey'], ['odds', '--course', '7H,QS,2D,9H,KC'],\n"
        "             ['odds', '--setback', 'all', '--samples', '50'],\n"
        f"             ['check-config', {str(config)!r}]):\n"
        "    print('status', companion.cli.main(argv))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    first, *rest = out.stdout.splitlines()
    assert not set(HEAVY_FOR_THE_PARSER) & set(first.split())
    assert [line for line in rest if line.startswith("status")] == ["status 0"] * 4
    assert "jockey:54  No.3 +18 (3 of 3)" in rest
    assert any(line.startswith("Chances are exact.") for line in rest)
    assert any(line.startswith("Chances are an ESTIMATE from 50 simulated races") for line in rest)
    assert f"{config}: OK" in rest


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
