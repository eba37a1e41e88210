"""The configuration file: which devices exist, on which pins, buses and addresses.

``load_config()`` reads /etc/companion/companion.toml (or $COMPANION_CONFIG, or a named
file) into a :class:`Config` of frozen sections, one per device (None = absent);
``wiring(config)`` lists the connections it implies. Problems raise :class:`ConfigError`.
"""

from companion.devices.config.checker import (
    DEFAULT_PATH,
    ENV_VAR,
    config_path,
    load_config,
    parse_config,
)
from companion.devices.config.sections import (
    BUILT_IN,
    DEFAULT_PICO_PORT,
    HEADER_PIN,
    LCD_EXPANDERS,
    OLED_DRIVERS,
    PI_UARTS,
    PIN_FACTORIES,
    READER_KINDS,
    STRIP_BACKENDS,
    BuzzerSection,
    CompanionSection,
    Config,
    ConfigError,
    ConfigProblem,
    DieSection,
    EncoderSection,
    GpioSection,
    HorseButtonsSection,
    LcdSection,
    OledSection,
    PicoSection,
    ReaderSection,
    StripSection,
    UndoSection,
    default_config,
)
from companion.devices.config.wiring import Connection, gpio_name, wiring

__all__ = [
    "BUILT_IN",
    "DEFAULT_PATH",
    "DEFAULT_PICO_PORT",
    "ENV_VAR",
    "HEADER_PIN",
    "LCD_EXPANDERS",
    "OLED_DRIVERS",
    "PIN_FACTORIES",
    "PI_UARTS",
    "READER_KINDS",
    "STRIP_BACKENDS",
    "BuzzerSection",
    "CompanionSection",
    "Config",
    "ConfigError",
    "ConfigProblem",
    "Connection",
    "DieSection",
    "EncoderSection",
    "GpioSection",
    "HorseButtonsSection",
    "LcdSection",
    "OledSection",
    "PicoSection",
    "ReaderSection",
    "StripSection",
    "UndoSection",
    "config_path",
    "default_config",
    "gpio_name",
    "load_config",
    "parse_config",
    "wiring",
]
