"""Turn what the table should see into LCD rows, OLED content, LED colours and tones."""
