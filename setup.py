"""Build hook: compile the gettext catalogs into .mo files, and copy the fake Pico's firmware."""

import ast
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


def compile_catalogs(source: Path, build_lib: Path) -> list[Path]:
    """Compile each catalog under ``source`` beside its place under ``build_lib``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    made = []
    for po in sorted(source.glob("companion/locale/*/LC_MESSAGES/*.po")):
        mo = build_lib / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as text, mo.open("wb") as compiled:
            write_mo(compiled, read_po(text))
        made.append(mo)
    return made


def copy_firmware(source: Path, build_lib: Path) -> list[Path]:
    """Copy the firmware's modules that the simulator's fake Pico runs (FIRMWARE_MODULES of
    companion/devices/fake_pico.py) into the package under ``build_lib``."""
    fake = source / "companion" / "devices" / "fake_pico.py"
    names = next(
        ast.literal_eval(node.value)
        for node in ast.parse(fake.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign)
        and [getattr(target, "id", None) for target in node.targets] == ["FIRMWARE_MODULES"]
    )
    folder = build_lib / "companion" / "devices" / "pico_firmware"
    folder.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy(source / "firmware" / f"{name}.py", folder)) for name in names]


class BuildWithCatalogs(build_py):
    """Copy the package as usual, then compile the catalogs and copy the fake Pico's
    firmware into the build."""

    def run(self) -> None:
        super().run()
        compile_catalogs(Path(), Path(self.build_lib))
        copy_firmware(Path(), Path(self.build_lib))


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildWithCatalogs})
