"""The serial bridge to the button timer box: protocol, driver, emulator, firmware.

See PROTOCOL.md here and docs/timer.md. Never imports `controller`.
"""
