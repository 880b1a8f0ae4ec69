// Stub of the Arduino LiquidCrystal library's interface (see Arduino.h here).
#pragma once
#include "Arduino.h"

class LiquidCrystal {
 public:
  LiquidCrystal(uint8_t, uint8_t, uint8_t, uint8_t, uint8_t, uint8_t) {}
  void begin(uint8_t, uint8_t) {}
  void setCursor(uint8_t, uint8_t) {}
  size_t print(const char*) { return 0; }
};
