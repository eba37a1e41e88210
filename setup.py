"""Build hook: compile the gettext catalogs (companion/locale/*/LC_MESSAGES/*.po) into .mo files."""

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


class BuildWithCatalogs(build_py):
    """Copy the package as usual, then compile the catalogs into the build."""

    def run(self) -> None:
        super().run()
        compile_catalogs(Path(), Path(self.build_lib))


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildWithCatalogs})
