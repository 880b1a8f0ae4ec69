// The timer box as a state machine: serial bytes and buttons in, frames out.
// The same machine as firmware_bridge/device_model.py (a test compares them byte
// for byte). Time comes from the caller (millis() on the board), output goes to a
// sink (Serial.write on the board), so this file needs no Arduino header.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "frame.h"

namespace tileref {

enum Mode { MODE_NONE, MODE_TURN, MODE_DUEL, MODE_SESSION };
enum Phase { PHASE_IDLE, PHASE_READY, PHASE_RUNNING, PHASE_PAUSED, PHASE_HELD, PHASE_EXPIRED };

typedef void (*LineSink)(const char* line, size_t length, void* context);

struct Identity {
  const char* model;
  const char* firmware;
  const char* serial;
};

class Device {
 public:
  Device(const Identity& identity, LineSink sink, void* context);

  // Power-on: sends RESET with sequence number 0. `bootId` is 1..8 hex digits
  // that differ from one boot to the next.
  void boot(uint32_t now, const char* reason, const char* bootId);
  void feed(const char* data, size_t length, uint32_t now);
  void press(char button, uint32_t now);  // '1'..'4' seats, 'A' arbiter
  void poll(uint32_t now);                // call often: ticks, expiry, heartbeat

  // What the hardware shows.
  Mode mode() const { return mode_; }
  Phase phase() const { return phase_; }
  uint8_t seat() const { return seat_; }
  uint32_t msLeft(uint32_t now) const;
  const char* text() const { return text_; }
  bool beeping(uint32_t now) const { return (int32_t)(beepUntil_ - now) > 0; }

 private:
  void receive(const char* line, size_t length, uint32_t now);
  // Command handlers write the ACK arguments or return a refusal reason.
  const char* handle(const Frame& frame, uint32_t now);
  const char* hello(const Frame& frame, uint32_t now);
  const char* configure(const Frame& frame);
  const char* start(const Frame& frame, uint32_t now);
  const char* setBank(const Frame& frame);
  void stateArgs(uint32_t now);
  void emitBegin(const char* verb);
  void emitEnd();
  void emit1(const char* verb, const char* arg);
  uint32_t freeze(uint32_t now);
  void run(uint8_t seat, uint32_t leftMs, uint32_t now);
  void resetClock();

  Identity identity_;
  LineSink sink_;
  void* context_;
  FrameWriter writer_;
  uint16_t seq_;
  char bootId_[9];
  char input_[kMaxLine + 1];
  size_t inputLength_;
  bool overflow_;
  bool session_;
  uint32_t heartbeatMs_;
  uint32_t nextHeartbeat_;
  Mode mode_;
  uint32_t seconds_;
  Phase phase_;
  uint8_t seat_;
  uint32_t leftMs_;
  uint32_t runSince_;
  uint32_t banks_[2];
  uint32_t warnAt_;
  uint8_t warnedSeats_;  // bit per seat
  int32_t shownSecond_;  // -1: none shown yet
  char lastCommand_[kMaxLine + 1];
  size_t lastCommandLength_;
  char lastReply_[kMaxLine + 8];
  size_t lastReplyLength_;
  char text_[17];
  uint32_t beepUntil_;
  uint32_t presses_;  // every press since power-on: press= in state, and in BTN with pressIds_
  bool pressIds_;     // BTN carries boot= and press=; only for a host that asked (HELLO 1 ids=1)
};

}  // namespace tileref
