"""An SD card's flush, as the glass bench waits for it after each accepted input's commit.

The journal commits an accepted input with ``synchronous=FULL``: SQLite's write-ahead log is
flushed (one ``fsync``) before the input is acknowledged. This machine's disk does that far
faster than a Raspberry Pi's microSD card, so the bench adds the card's time to every such
commit, drawn from the distribution below (a refusal's note is not flushed: nothing is added).

The distribution is fitted to published figures, not measured here:

- fio on a Raspberry Pi's SD card, 2,300-byte writes each followed by ``fdatasync`` (as an
  append-only log flushes): the flush took 0.758 ms at least, 0.783-0.807 ms from the 1st to
  the 20th percentile, 1.298 ms on average, and 411 ms at worst (nmnx.org, "Performance/Cost
  Ratio for Silicon Storage Media", May 2022);
- the SD Association's A1 class promises at least 500 random 4 KiB writes a second, 2 ms
  each sustained (SD 5.1; blog.rustprooflabs.com, "Postgres and Pi: Use the right SD card",
  July 2019).

So: 97 % of flushes between 0.76 and 1.0 ms (the measured floor and lower percentiles),
2.5 % between 2 and 20 ms, 0.5 % between 20 and 60 ms, which gives the measured mean of
about 1.3 ms; the shape of the tail (how often the card's own housekeeping holds a flush up)
is the model's assumption, and the worst case seen (411 ms) is left out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

#: (share of flushes, shortest ms, longest ms), in order.
BANDS: tuple[tuple[float, float, float], ...] = (
    (0.97, 0.76, 1.0),
    (0.025, 2.0, 20.0),
    (0.005, 20.0, 60.0),
)


@dataclass
class SdCard:
    """Draws flush times (seconds) from ``BANDS`` with its own seeded generator."""

    seed: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def flush_s(self) -> float:
        """One flush's time, in seconds."""
        draw = self._rng.random()
        for share, low, high in BANDS:
            if draw < share:
                return self._rng.uniform(low, high) / 1000
            draw -= share
        low, high = BANDS[-1][1:]
        return self._rng.uniform(low, high) / 1000


def mean_ms() -> float:
    """The mean flush time the bands give, in milliseconds."""
    return sum(share * (low + high) / 2 for share, low, high in BANDS)
