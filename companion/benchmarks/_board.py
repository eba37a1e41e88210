"""The boards the bench can model: what a fixed Python workload takes on each, and the CPU
share of this machine that stands for it (see docs/performance.md for the sources)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

#: Published: the Benchmarks-Game n-body program in Python, 5,000,000 steps, took 158.26 s on
#: a Raspberry Pi 4 Model B (1.5 GHz, performance governor).
PI_4_NBODY_S = 158.26
PI_4_NBODY_STEPS = 5_000_000
#: Published: sysbench cpu, one thread, events per second.
SYSBENCH_PI_3B_PLUS = 687.45
SYSBENCH_PI_4 = 1477.83
SYSBENCH_PI_5 = 2737.49
#: Derived: the Zero 2 W has the Pi 3's Cortex-A53 cores clocked at 1.0 GHz, not 1.4 GHz.
SYSBENCH_PI_ZERO_2W = SYSBENCH_PI_3B_PLUS * 1.0 / 1.4

#: The kernel's smallest CFS quota and period (microseconds).
MIN_US = 1000
MAX_PERIOD_US = 1_000_000


class ModelError(Exception):
    """A CPU model that cannot be set up: ``reason`` is a short code, the message a sentence."""

    def __init__(self, reason: str, sentence: str) -> None:
        super().__init__(sentence)
        self.reason = reason


@dataclass(frozen=True)
class PiBoard:
    """A board and the seconds one n-body step takes on it."""

    name: str
    step_s: float
    basis: str


def _pi_4_step_s() -> float:
    return PI_4_NBODY_S / PI_4_NBODY_STEPS


BOARDS: dict[str, PiBoard] = {
    board.name: board
    for board in (
        PiBoard("pi-4", _pi_4_step_s(), "measured on a Pi 4"),
        PiBoard(
            "pi-zero-2w",
            _pi_4_step_s() * SYSBENCH_PI_4 / SYSBENCH_PI_ZERO_2W,
            "Pi 4 figure x sysbench Pi 4 / (Pi 3B+ x 1.0/1.4 GHz)",
        ),
        PiBoard("pi-5", _pi_4_step_s() * SYSBENCH_PI_4 / SYSBENCH_PI_5, "Pi 4 figure x sysbench"),
    )
}


@dataclass(frozen=True)
class Quota:
    """The CPU time a cgroup may use: ``quota_us`` in every ``period_us``."""

    share: float
    quota_us: int
    period_us: int


def quota_for(share: float) -> Quota:
    """The shortest period that gives ``share`` of one core with the kernel's smallest quota
    (throttling comes in steps of at most one period); a whole core if ``share`` ≥ 1."""
    if not share > 0 or math.isinf(share):
        raise ModelError("bad-share", f"no CPU share can model this board (share {share})")
    if share >= 1:
        return Quota(1.0, MIN_US, MIN_US)
    period = min(MAX_PERIOD_US, round(MIN_US / share))
    quota = max(MIN_US, round(share * period))
    return Quota(quota / period, quota, period)


@dataclass(frozen=True)
class Calibration:
    """One n-body step here (median CPU seconds), on the board, and the share they give."""

    board: PiBoard
    here_step_s: float

    @property
    def share(self) -> float:
        """This machine's time over the board's for the same work."""
        return self.here_step_s / self.board.step_s


def calibrate(board: PiBoard, steps: int = 20_000, runs: int = 5) -> Calibration:
    """Time the workload here ``runs`` times (odd: the median is the middle one) in CPU time
    of this process, so waiting for a shared core does not count; compare with the board."""
    times = []
    for _ in range(runs):
        bodies = nbody_system()
        began = time.process_time()
        advance(bodies, 0.01, steps)
        times.append((time.process_time() - began) / steps)
    return Calibration(board, sorted(times)[len(times) // 2])


Body = tuple[list[float], list[float], float]

_SOLAR_MASS = 4 * math.pi * math.pi
_DAYS_PER_YEAR = 365.24


def nbody_system() -> list[Body]:
    """The Sun and the four giant planets (positions in AU, velocities in AU/year, masses in
    solar masses x 4 pi^2), the Sun's momentum offset so the system stands still."""
    planets = (
        ((4.84143144246472090e00, -1.16032004402742839e00, -1.03622044471123109e-01),
         (1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05),
         9.54791938424326609e-04),
        ((8.34336671824457987e00, 4.12479856412430479e00, -4.03523417114321381e-01),
         (-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05),
         2.85885980666130812e-04),
        ((1.28943695621391310e01, -1.51111514016986312e01, -2.23307578892655734e-01),
         (2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05),
         4.36624404335156298e-05),
        ((1.53796971148509165e01, -2.59193146099879641e01, 1.79258772950371181e-01),
         (2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05),
         5.15138902046611451e-05),
    )  # fmt: skip
    bodies: list[Body] = [([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], _SOLAR_MASS)]
    for position, velocity, mass in planets:
        bodies.append((list(position), [v * _DAYS_PER_YEAR for v in velocity], mass * _SOLAR_MASS))
    sun_velocity = bodies[0][1]
    for axis in range(3):
        sun_velocity[axis] = -sum(v[axis] * m for _, v, m in bodies) / _SOLAR_MASS
    return bodies


def advance(bodies: list[Body], dt: float, steps: int) -> None:
    """Move the bodies ``steps`` times by ``dt`` years under their mutual gravity."""
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]
    for _ in range(steps):
        for (r1, v1, m1), (r2, v2, m2) in pairs:
            dx, dy, dz = r1[0] - r2[0], r1[1] - r2[1], r1[2] - r2[2]
            mag = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            pull1, pull2 = m1 * mag, m2 * mag
            v1[0] -= dx * pull2
            v1[1] -= dy * pull2
            v1[2] -= dz * pull2
            v2[0] += dx * pull1
            v2[1] += dy * pull1
            v2[2] += dz * pull1
        for r, v, _ in bodies:
            r[0] += dt * v[0]
            r[1] += dt * v[1]
            r[2] += dt * v[2]


def energy(bodies: list[Body]) -> float:
    """The system's total energy (kinetic plus potential): what the workload must conserve."""
    total = 0.0
    for i, (r1, v1, m1) in enumerate(bodies):
        total += 0.5 * m1 * (v1[0] ** 2 + v1[1] ** 2 + v1[2] ** 2)
        for r2, _, m2 in bodies[i + 1 :]:
            distance = math.dist(r1, r2)
            total -= m1 * m2 / distance
    return total
