"""Build hook: compile the gettext catalogs (companion/locale/*/LC_MESSAGES/*.po) into .mo files."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """Copy the package as usual, then compile each catalog beside its .po in the build."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path("companion/locale").glob("*/LC_MESSAGES/*.po"):
            mo = Path(self.build_lib) / po.with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source, mo.open("wb") as target:
                write_mo(target, read_po(source))


setup(cmdclass={"build_py": BuildWithCatalogs})
