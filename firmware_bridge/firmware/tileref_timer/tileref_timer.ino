// tileref button timer: Arduino sketch wiring the firmware core (src/) to the hardware.
//
// Board: any Arduino-class board with >= 2 KB RAM and a USB serial port
// (Leonardo / Micro / Nano Every / Uno R4; an Uno fits but is tight on RAM).
// Hardware: four seat buttons and one arbiter button to GND (internal pull-ups),
// a piezo buzzer, a 16x2 HD44780 display (LiquidCrystal library, 4-bit mode).
// Serial: 115200 8N1, protocol in firmware_bridge/PROTOCOL.md.
#include <LiquidCrystal.h>
#include <stdio.h>

#include "src/device.h"

namespace {

const uint8_t kButtonPins[] = {2, 3, 4, 5, 6};  // seats 1-4, then the arbiter button
const char kButtonNames[] = {'1', '2', '3', '4', 'A'};
const uint8_t kBuzzerPin = 7;
const uint16_t kBuzzerHz = 2200;
const uint32_t kDebounceMs = 25;

LiquidCrystal lcd(8, 9, 10, 11, 12, 13);

void writeLine(const char* line, size_t length, void*) { Serial.write(line, length); }

const tileref::Identity kIdentity = {"tileref-box", "1.0", "TRB-0001"};
tileref::Device device(kIdentity, writeLine, nullptr);

bool lastLevel[5];
uint32_t lastChange[5];
bool buzzing = false;

const char* resetReason() {
#if defined(MCUSR)
  uint8_t flags = MCUSR;
  MCUSR = 0;
  if (flags & _BV(WDRF)) return "watchdog";
  if (flags & _BV(BORF)) return "brownout";
  if (flags & _BV(EXTRF)) return "button";
#endif
  return "power";
}

// A boot id that changes at every power-on: analog noise mixed with the clock.
void makeBootId(char* out) {
  uint32_t seed = micros();
  for (uint8_t i = 0; i < 16; ++i) seed = seed * 31 + analogRead(A0);
  static const char hex[] = "0123456789abcdef";
  for (uint8_t i = 0; i < 8; ++i) out[i] = hex[(seed >> (4 * i)) & 15];
  out[8] = 0;
}

void drawDisplay(uint32_t now) {
  static uint32_t lastDraw = 0;
  if (now - lastDraw < 100) return;
  lastDraw = now;
  uint32_t seconds = (device.msLeft(now) + 999) / 1000;
  char top[17];
  snprintf(top, sizeof top, "S%u %3lu:%02lu %-5s", device.seat(), (unsigned long)(seconds / 60),
           (unsigned long)(seconds % 60), device.phase() == tileref::PHASE_RUNNING ? "RUN" : "");
  lcd.setCursor(0, 0);
  lcd.print(top);
  lcd.setCursor(0, 1);
  char bottom[17];
  snprintf(bottom, sizeof bottom, "%-16s", device.text());
  lcd.print(bottom);
}

}  // namespace

void setup() {
  const char* reason = resetReason();
  for (uint8_t i = 0; i < 5; ++i) {
    pinMode(kButtonPins[i], INPUT_PULLUP);
    lastLevel[i] = HIGH;
  }
  pinMode(kBuzzerPin, OUTPUT);
  lcd.begin(16, 2);
  Serial.begin(115200);
  char bootId[9];
  makeBootId(bootId);
  device.boot(millis(), reason, bootId);
}

void loop() {
  uint32_t now = millis();
  char chunk[32];
  size_t n = 0;
  while (Serial.available() && n < sizeof chunk) chunk[n++] = (char)Serial.read();
  if (n) device.feed(chunk, n, now);
  for (uint8_t i = 0; i < 5; ++i) {
    bool level = digitalRead(kButtonPins[i]);
    if (level != lastLevel[i] && now - lastChange[i] >= kDebounceMs) {
      lastChange[i] = now;
      lastLevel[i] = level;
      if (level == LOW) device.press(kButtonNames[i], now);  // pressed: pulled to GND
    }
  }
  device.poll(now);
  bool beep = device.beeping(now);
  if (beep != buzzing) {
    buzzing = beep;
    if (beep) tone(kBuzzerPin, kBuzzerHz);
    else noTone(kBuzzerPin);
  }
  drawDisplay(now);
}
