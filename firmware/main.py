"""What the Pico runs at power-up: the companion firmware (hold BOOTSEL to skip it)."""

import board

board.run()
