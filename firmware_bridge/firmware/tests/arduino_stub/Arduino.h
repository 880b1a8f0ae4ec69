// Just enough of the Arduino API to compile tileref_timer.ino on a PC, so a test
// catches the sketch drifting away from the firmware core. Nothing here runs.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HIGH 1
#define LOW 0
#define OUTPUT 1
#define INPUT_PULLUP 2
#define A0 14

struct SerialPort {
  void begin(unsigned long) {}
  int available() { return 0; }
  int read() { return -1; }
  size_t write(const char*, size_t n) { return n; }
};
extern SerialPort Serial;

void pinMode(uint8_t, uint8_t);
int digitalRead(uint8_t);
int analogRead(uint8_t);
unsigned long millis();
unsigned long micros();
void tone(uint8_t, unsigned int);
void noTone(uint8_t);
