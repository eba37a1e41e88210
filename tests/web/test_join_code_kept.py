"""The OLED's join QR code is kept beside the journal: a table restarted at the same address
draws it without working it out again, and a new address (or a damaged file) gets its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.web.qr import KEPT_NAME, KeptRows, Rows, qr_rows

URL = "http://192.168.1.20:8080/join"


def drawn(rows: Rows) -> str:
    return "\n".join("".join("#" if dark else "." for dark in row) for row in rows)


def test_a_restarted_table_draws_the_same_code_without_loading_the_qr_library(
    tmp_path: Path,
) -> None:
    kept = tmp_path / KEPT_NAME
    assert KeptRows(kept)(URL) == qr_rows(URL)
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from companion.web.qr import KeptRows\n"
        "rows = KeptRows(Path(sys.argv[1]))(sys.argv[2])\n"
        "print('segno' in sys.modules)\n"
        "print('\\n'.join(''.join('#' if dark else '.' for dark in row) for row in rows))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(kept), URL], capture_output=True, text=True, check=True
    )
    loaded, _, picture = out.stdout.partition("\n")
    assert loaded == "False"
    assert picture.strip() == drawn(qr_rows(URL))


def test_a_table_at_a_new_address_shows_the_new_address(tmp_path: Path) -> None:
    kept = tmp_path / KEPT_NAME
    KeptRows(kept)(URL)
    moved = "http://192.168.1.31:8081/join"
    assert KeptRows(kept)(moved) == qr_rows(moved)
    assert kept.read_text(encoding="utf-8").split("\n")[0] == moved  # kept for the next start
    codes = KeptRows(kept)
    assert codes(URL) == qr_rows(URL)  # and back, in the same run
    assert codes(moved) == qr_rows(moved)


def test_a_damaged_or_unwritable_file_still_gives_the_right_code(tmp_path: Path) -> None:
    kept = tmp_path / KEPT_NAME
    whole = drawn(qr_rows(URL)).split("\n")
    for damaged in (
        f"{URL}\n" + "\n".join(whole[: len(whole) // 2]) + "\n",  # cut short
        f"{URL}\n" + "\n".join(row.replace("#", "x") for row in whole) + "\n",
        "\n".join(whole),  # no address
        "",
    ):
        kept.write_text(damaged, encoding="utf-8")
        assert KeptRows(kept)(URL) == qr_rows(URL), damaged
        assert kept.read_text(encoding="utf-8") == f"{URL}\n{drawn(qr_rows(URL))}\n"  # anew
    kept.write_bytes(b"\xff\xfe")
    assert KeptRows(kept)(URL) == qr_rows(URL)
    assert KeptRows(tmp_path / "gone" / KEPT_NAME)(URL) == qr_rows(URL)
