"""The architecture's import boundaries, checked on the source text of the package."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from companion.games.registry import GAMES

PACKAGE = Path(__file__).resolve().parent.parent / "companion"

#: Libraries that talk to hardware (or draw for it): only companion/devices/ may import them.
HARDWARE = {
    "gpiozero", "luma", "RPLCD", "smbus2", "serial", "evdev", "mfrc522",
    "lgpio", "spidev", "RPi", "colorzero",
}  # fmt: skip


def imports_of(path: Path) -> set[str]:
    """Return every module name a source file imports (absolute, relative ones resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = parts[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names.add(module)
            # `from companion import games` imports the module companion.games.
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


#: Calls an engine must not make: the global random generator, files, the terminal.
GLOBAL_EFFECTS = {
    "open", "print", "input", "random.random", "random.randint", "random.randrange",
    "random.choice", "random.shuffle", "random.sample", "random.seed", "os.urandom",
}  # fmt: skip


def calls_of(path: Path) -> set[str]:
    """Return the dotted names of every plain or module-level call in a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                found.add(func.id)
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                found.add(f"{func.value.id}.{func.attr}")
    return found


def sources(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py")) if (PACKAGE / folder).exists() else []


def test_the_checker_sees_imports_and_calls(tmp_path: Path) -> None:
    probe = PACKAGE / "games" / "text.py"
    assert {"__future__.annotations", "textwrap"} <= imports_of(probe)
    assert "importlib.import_module" in calls_of(PACKAGE / "cli.py")
    assert "companion.benchmarks" in imports_of(PACKAGE / "commands" / "bench.py")


def test_engines_import_only_the_standard_library_and_each_other() -> None:
    assert sources("games"), "companion/games/ has no modules"
    for path in sources("games"):
        for name in imports_of(path):
            top = name.split(".")[0]
            allowed = top in sys.stdlib_module_names or name.startswith("companion.games")
            assert allowed, f"{path.relative_to(PACKAGE.parent)} imports {name}"


def test_engines_use_no_clock_no_global_random_and_no_io() -> None:
    forbidden = {"time", "datetime", "socket", "subprocess", "threading", "asyncio", "sqlite3"}
    for path in sources("games"):
        names = {n.split(".")[0] for n in imports_of(path)}
        assert not names & forbidden, f"{path.name} imports {sorted(names & forbidden)}"
        for call in calls_of(path):
            assert call not in GLOBAL_EFFECTS, f"{path.name} calls {call}()"


def test_only_device_adapters_import_hardware_libraries() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "devices" in path.relative_to(PACKAGE).parts:
            continue
        for name in imports_of(path):
            top = name.split(".")[0]
            assert top not in HARDWARE, f"{path.relative_to(PACKAGE.parent)} imports {name}"


#: What the device adapters may import from companion/games and the session: the one colour
#: table (plain data) and the one name rule (the configuration's names; the standard library).
DEVICE_SAFE = ("companion.games.colours", "companion.session.names")


def test_device_adapters_never_import_the_engines_or_the_session() -> None:
    for path in sources("devices"):
        for name in imports_of(path):
            if name.startswith(DEVICE_SAFE):
                continue
            assert not name.startswith(("companion.games", "companion.session")), (
                f"{path.relative_to(PACKAGE.parent)} imports {name}"
            )


def modules_of(path: Path) -> set[str]:
    """Return the modules a source file imports from (``from m import x`` gives ``m`` only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


#: The engines: each a package of companion/games whose __init__ is its only public face.
ENGINES = sorted(p.parent.name for p in (PACKAGE / "games").glob("*/__init__.py"))
#: What companion/games shares between the engines and with the other layers.
SHARED = {f"companion.games.{p.stem}" for p in (PACKAGE / "games").glob("*.py")}


def allowed_games_import(name: str) -> bool:
    """An import of companion.games other layers may make: a face or a shared module."""
    return name in SHARED or name in {f"companion.games.{e}" for e in ENGINES}


def test_the_checker_sees_the_engine_packages() -> None:
    shipped = {g.kind for g in GAMES if (PACKAGE / "games" / g.kind / "__init__.py").exists()}
    assert ENGINES and sorted(shipped) == ENGINES
    assert {"companion.games.registry", "companion.games.errors"} <= SHARED
    assert not allowed_games_import("companion.games.jumpy_jack.match")


def test_other_layers_import_only_an_engines_face() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "games":
            continue
        for name in modules_of(path):
            if name.startswith("companion.games."):
                assert allowed_games_import(name), (
                    f"{path.relative_to(PACKAGE.parent)} imports {name}: import the face"
                )


def test_render_imports_only_the_view_and_value_types() -> None:
    allowed = ("companion.render", "companion.session.view", "companion.devices.base")
    for path in sources("render"):
        for name in modules_of(path):
            if not name.startswith("companion"):
                continue
            ok = name.startswith(allowed) or allowed_games_import(name)
            assert ok, f"{path.relative_to(PACKAGE.parent)} imports {name}"


def test_the_session_imports_only_itself_and_the_games() -> None:
    for path in sources("session"):
        for name in modules_of(path):
            top = name.split(".")[0]
            if top != "companion":
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
                continue
            ok = name.startswith("companion.session") or allowed_games_import(name)
            assert ok, f"{path.relative_to(PACKAGE.parent)} imports {name}"


def test_only_a_games_own_part_of_the_pages_imports_its_engine() -> None:
    """The shared pages find a game's part by its kind (``companion/web/games/<kind>.py``)."""
    assert sources("web/games"), "companion/web/games/ has no modules"
    for path in sources("web"):
        if path.parent == PACKAGE / "web" / "games" and path.stem in ENGINES:
            continue
        for name in modules_of(path):
            assert name not in {f"companion.games.{e}" for e in ENGINES}, (
                f"{path.relative_to(PACKAGE.parent)} imports {name}: draw it in web/games/"
            )


def test_each_class_name_means_one_thing() -> None:
    """No two classes of the package share a name (a game's own kind of a shared word carries
    the game's name: ``JumpyPhase``, ``CoursePhase``, ``JockeyPhase``)."""
    seen: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                seen.setdefault(node.name, []).append(str(path.relative_to(PACKAGE)))
    twice = {name: places for name, places in seen.items() if len(places) > 1}
    assert not twice, f"class names defined more than once: {twice}"


#: What each module of companion/club/ may import of the package, beside itself: the session
#: (never an engine), the configuration's sections; the hook alone the loop and the screens;
#: the league's page alone the pages' shared HTML pieces, their door (the host names, the
#: security headers) and the table's languages.
#: The club reads what each game declares (its title, the figure that ranks its players) from
#: the registry and ``GameInfo``, never an engine.
CLUB_ALLOWED = (
    "companion.club", "companion.session", "companion.devices.config.sections",
    "companion.games.registry", "companion.games.info",
)  # fmt: skip
CLUB_ONLY_IN = {
    "hook.py": ("companion.daemon.loop", "companion.render.screen"),
    "page.py": ("companion.web.html", "companion.web.door", "companion.render.language"),
}


def test_the_club_imports_the_session_and_its_own_modules_only() -> None:
    assert sources("club"), "companion/club/ has no modules"
    for path in sources("club"):
        allowed = CLUB_ALLOWED + CLUB_ONLY_IN.get(path.name, ())
        for name in modules_of(path):
            if not name.startswith("companion") or name == "companion":  # (its version)
                continue
            assert name.startswith(allowed), f"{path.relative_to(PACKAGE.parent)} imports {name}"


def test_nothing_but_the_daemon_the_benchmarks_and_the_commands_imports_the_club() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = path.relative_to(PACKAGE).parts[0]
        if layer in ("club", "daemon", "benchmarks", "commands"):
            continue
        for name in modules_of(path):
            assert not name.startswith("companion.club"), (
                f"{path.relative_to(PACKAGE.parent)} imports {name}"
            )


def test_the_pages_shared_types_are_a_leaf_below_the_state_and_each_game() -> None:
    web = PACKAGE / "web"
    assert not {n for n in modules_of(web / "shared.py") if n.startswith("companion.web")}
    assert "companion.web.state" not in modules_of(web / "games" / "__init__.py")
    for name in modules_of(web / "state.py"):
        assert not name.startswith("companion.web.games."), f"web/state.py imports {name}"
