#include "device.h"

#include <string.h>

namespace tileref {

static const uint32_t kMaxSeconds = 86400;
static const uint32_t kMaxBankMs = kMaxSeconds * 1000;
static const uint32_t kMaxBeepMs = 5000;
static const uint32_t kDefaultHeartbeatMs = 1000;
static const uint32_t kMinHeartbeatMs = 50;
static const uint32_t kMaxHeartbeatMs = 60000;
static const size_t kMaxShowChars = 16;

static const char* const kModeWords[] = {"NONE", "TURN", "DUEL", "SESSION"};
static const char* const kPhaseWords[] = {"IDLE", "READY", "RUN", "PAUSE", "HELD", "EXP"};

struct Arity {
  const char* verb;
  uint8_t least;
  uint8_t most;
};
// Commands the box accepts and their argument counts (PROTOCOL.md, "Commands").
static const Arity kCommands[] = {
    {"HELLO", 1, 2}, {"ID", 0, 0},     {"CONF", 2, 2}, {"START", 1, 1},
    {"PAUSE", 0, 0}, {"RESUME", 0, 0}, {"STOP", 0, 0}, {"WARN", 1, 1},
    {"BEEP", 1, 1},  {"SHOW", 0, 1},   {"STATE", 0, 0}, {"BANK", 2, 2},
};
// Event verbs: a well-formed frame carrying one of these is read, then rejected
// as travelling the wrong way.
static const char* const kEvents[] = {"ACK", "NAK", "BTN", "TICK", "LOW", "EXP", "ERR", "HB", "RESET"};

static bool equals(const char* a, const char* b) { return strcmp(a, b) == 0; }

// Decimal digits only, value in [low, high]; saturates so long inputs stay out of range.
static bool parseNumber(const char* text, uint32_t low, uint32_t high, uint32_t& out) {
  if (!*text) return false;
  uint32_t value = 0;
  for (; *text; ++text) {
    if (*text < '0' || *text > '9') return false;
    if (value < 1000000000UL) value = value * 10 + (uint32_t)(*text - '0');
  }
  if (value < low || value > high) return false;
  out = value;
  return true;
}

Device::Device(const Identity& identity, LineSink sink, void* context)
    : identity_(identity), sink_(sink), context_(context) {}

void Device::boot(uint32_t now, const char* reason, const char* bootId) {
  seq_ = 0;
  strncpy(bootId_, bootId, 8);
  bootId_[8] = 0;
  inputLength_ = 0;
  overflow_ = false;
  session_ = false;
  heartbeatMs_ = kDefaultHeartbeatMs;
  nextHeartbeat_ = now + heartbeatMs_;
  mode_ = MODE_NONE;
  seconds_ = 0;
  phase_ = PHASE_IDLE;
  seat_ = 0;
  leftMs_ = 0;
  runSince_ = 0;
  banks_[0] = banks_[1] = 0;
  warnAt_ = 0;
  warnedSeats_ = 0;
  shownSecond_ = -1;
  lastCommandLength_ = 0;
  lastReplyLength_ = 0;
  text_[0] = 0;
  beepUntil_ = now;
  presses_ = 0;
  pressIds_ = false;
  emitBegin("RESET");
  writer_.arg(reason);
  writer_.arg(bootId_);
  emitEnd();
}

// -- output -----------------------------------------------------------------
void Device::emitBegin(const char* verb) { writer_.begin('<', seq_, verb); }

void Device::emitEnd() {
  const char* line = writer_.finish();
  seq_ = (uint16_t)(seq_ + 1);
  sink_(line, writer_.length(), context_);
}

void Device::emit1(const char* verb, const char* arg) {
  emitBegin(verb);
  writer_.arg(arg);
  emitEnd();
}

// -- clock ------------------------------------------------------------------
uint32_t Device::msLeft(uint32_t now) const {
  if (phase_ != PHASE_RUNNING) return leftMs_;
  uint32_t elapsed = now - runSince_;
  return elapsed >= leftMs_ ? 0 : leftMs_ - elapsed;
}

uint32_t Device::freeze(uint32_t now) {
  uint32_t left = msLeft(now);
  leftMs_ = left;
  if (mode_ == MODE_DUEL && seat_) banks_[seat_ - 1] = left;
  return left;
}

void Device::run(uint8_t seat, uint32_t leftMs, uint32_t now) {
  seat_ = seat;
  leftMs_ = leftMs;
  runSince_ = now;
  phase_ = PHASE_RUNNING;
  shownSecond_ = -1;
}

void Device::resetClock() {
  phase_ = PHASE_READY;
  seat_ = 0;
  leftMs_ = seconds_ * 1000;
  banks_[0] = banks_[1] = (mode_ == MODE_DUEL) ? seconds_ * 1000 : 0;
  warnedSeats_ = 0;
  shownSecond_ = -1;
}

void Device::poll(uint32_t now) {
  char number[11];
  char seatWord[2] = {(char)('0' + seat_), 0};
  if (phase_ == PHASE_RUNNING) {
    uint32_t left = msLeft(now);
    if (left == 0) {
      freeze(now);
      phase_ = PHASE_EXPIRED;
      beepUntil_ = now + 1000;
      emit1("EXP", seatWord);
    } else {
      int32_t second = (int32_t)((left + 999) / 1000);
      if (second != shownSecond_) {
        shownSecond_ = second;
        formatNumber((uint32_t)second, number);
        emitBegin("TICK");
        writer_.arg(seatWord);
        writer_.arg(number);
        emitEnd();
        if (warnAt_ && (uint32_t)second <= warnAt_ && !(warnedSeats_ & (1u << seat_))) {
          warnedSeats_ |= (uint8_t)(1u << seat_);
          beepUntil_ = now + 200;
          emitBegin("LOW");
          writer_.arg(seatWord);
          writer_.arg(number);
          emitEnd();
        }
      }
    }
  }
  if ((int32_t)(now - nextHeartbeat_) >= 0) {
    nextHeartbeat_ = now + heartbeatMs_;
    emit1("HB", kPhaseWords[phase_]);
  }
}

// -- buttons ----------------------------------------------------------------
void Device::press(char button, uint32_t now) {
  if (!((button >= '1' && button <= '4') || button == 'A')) return;
  bool running = phase_ == PHASE_RUNNING;
  char buttonWord[2] = {button, 0};
  char seatWord[2] = {(char)('0' + (running ? seat_ : 0)), 0};
  emitBegin("BTN");
  writer_.arg(buttonWord);
  writer_.arg(seatWord);
  writer_.argNumber(msLeft(now));
  ++presses_;
  if (pressIds_) {
    writer_.argKeyValue("boot", bootId_);
    writer_.argKeyNumber("press", presses_);
  }
  emitEnd();
  if (running && button != 'A' && (uint8_t)(button - '0') == seat_) {
    if (mode_ == MODE_TURN) {
      freeze(now);
      phase_ = PHASE_HELD;
    } else if (mode_ == MODE_DUEL) {
      freeze(now);
      uint8_t other = (uint8_t)(3 - seat_);
      run(other, banks_[other - 1], now);
    }
  }
  poll(now);
}

// -- serial input -----------------------------------------------------------
void Device::feed(const char* data, size_t length, uint32_t now) {
  for (size_t i = 0; i < length; ++i) {
    char c = data[i];
    if (c == '\n') {
      if (overflow_) {
        emit1("ERR", "toolong");
      } else if (inputLength_) {
        receive(input_, inputLength_, now);
      }
      inputLength_ = 0;
      overflow_ = false;
    } else if (inputLength_ >= kMaxLine) {
      overflow_ = true;
    } else {
      input_[inputLength_++] = c;
    }
  }
}

void Device::receive(const char* line, size_t length, uint32_t now) {
  while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) --length;
  if (lastReplyLength_ && length == lastCommandLength_ && memcmp(line, lastCommand_, length) == 0) {
    sink_(lastReply_, lastReplyLength_, context_);  // a retry: same answer, not done twice
    return;
  }
  static Frame frame;  // static: too big for a small board's stack
  ParseResult parsed = parseFrame(line, length, frame);
  if (parsed == PARSE_CHECKSUM) return emit1("ERR", "checksum");
  if (parsed != PARSE_OK) return emit1("ERR", "frame");
  const Arity* arity = 0;
  for (size_t i = 0; i < sizeof(kCommands) / sizeof(kCommands[0]); ++i) {
    if (equals(frame.verb, kCommands[i].verb)) arity = &kCommands[i];
  }
  bool isEvent = false;
  for (size_t i = 0; i < sizeof(kEvents) / sizeof(kEvents[0]); ++i) {
    if (equals(frame.verb, kEvents[i])) isEvent = true;
  }
  if ((!arity && !isEvent) || (arity && frame.direction != '>') || (isEvent && frame.direction != '<') ||
      (arity && (frame.argc < arity->least || frame.argc > arity->most))) {
    return emit1("ERR", "frame");
  }
  if (isEvent) return emit1("ERR", "frame");  // a box never takes events
  // The handler fills writer_ with the ACK; a refusal reason replaces it with NAK.
  char seqWord[6];
  formatNumber(frame.seq, seqWord);
  emitBegin("ACK");
  writer_.arg(seqWord);
  const char* refusal = handle(frame, now);
  if (refusal) {
    emitBegin("NAK");
    writer_.arg(seqWord);
    writer_.arg(refusal);
  }
  memcpy(lastCommand_, line, length);
  lastCommandLength_ = length;
  const char* reply = writer_.finish();
  memcpy(lastReply_, reply, writer_.length());
  lastReplyLength_ = writer_.length();
  seq_ = (uint16_t)(seq_ + 1);
  sink_(reply, writer_.length(), context_);
  poll(now);
}

// -- commands ---------------------------------------------------------------
void Device::stateArgs(uint32_t now) {
  uint32_t left = msLeft(now);
  writer_.argKeyValue("mode", kModeWords[mode_]);
  writer_.argKeyNumber("secs", seconds_);
  writer_.argKeyValue("phase", kPhaseWords[phase_]);
  writer_.argKeyNumber("seat", seat_);
  writer_.argKeyNumber("left", left);
  writer_.argKeyNumber("warn", warnAt_);
  writer_.argKeyValue("boot", bootId_);
  if (mode_ == MODE_DUEL) {
    for (uint8_t i = 0; i < 2; ++i) {
      bool live = phase_ == PHASE_RUNNING && seat_ == i + 1;
      char key[6] = {'b', 'a', 'n', 'k', (char)('1' + i), 0};
      writer_.argKeyNumber(key, live ? left : banks_[i]);
    }
  }
  writer_.argKeyNumber("press", presses_);
}

const char* Device::hello(const Frame& frame, uint32_t now) {
  if (!equals(frame.args[0], "1")) return "version";
  // One option per HELLO, so a host can probe ids=1 on a box that predates it: an old box
  // refuses it with bad-args and keeps the session its hb= HELLO opened.
  bool pressIds = false;  // any other HELLO turns ids off: a version 1.0 host cannot read them
  bool bankAsked = false;
  if (frame.argc > 1) {
    const char* arg = frame.args[1];
    if (strncmp(arg, "hb=", 3) == 0) {
      if (!parseNumber(arg + 3, kMinHeartbeatMs, kMaxHeartbeatMs, heartbeatMs_)) return "bad-args";
    } else if (strncmp(arg, "ids=", 4) == 0) {
      uint32_t ids;
      if (!parseNumber(arg + 4, 0, 1, ids)) return "bad-args";
      pressIds = ids == 1;
    } else if (strncmp(arg, "bank=", 5) == 0) {
      // A question, not a switch: the answer names BANK, which the box takes in any session.
      uint32_t bank;
      if (!parseNumber(arg + 5, 1, 1, bank)) return "bad-args";
      bankAsked = true;
    } else {
      return "bad-args";
    }
  }
  pressIds_ = pressIds;
  session_ = true;
  nextHeartbeat_ = now + heartbeatMs_;
  writer_.arg("proto=1");
  writer_.argKeyNumber("hb", heartbeatMs_);
  writer_.argKeyNumber("ids", pressIds ? 1 : 0);
  if (bankAsked) writer_.arg("bank=1");
  return 0;
}

const char* Device::configure(const Frame& frame) {
  Mode mode = MODE_NONE;
  for (uint8_t m = MODE_TURN; m <= MODE_SESSION; ++m) {
    if (equals(frame.args[0], kModeWords[m])) mode = (Mode)m;
  }
  uint32_t seconds;
  if (mode == MODE_NONE || !parseNumber(frame.args[1], 1, kMaxSeconds, seconds)) return "bad-args";
  if (phase_ == PHASE_RUNNING || phase_ == PHASE_PAUSED) return "busy";
  mode_ = mode;
  seconds_ = seconds;
  resetClock();
  return 0;
}

const char* Device::start(const Frame& frame, uint32_t now) {
  if (mode_ == MODE_NONE) return "not-configured";
  uint32_t seat;
  uint32_t lowest = mode_ == MODE_SESSION ? 0 : 1;
  uint32_t highest = mode_ == MODE_DUEL ? 2 : 4;
  if (!parseNumber(frame.args[0], lowest, highest, seat)) return "bad-seat";
  if (mode_ == MODE_TURN) {
    warnedSeats_ = 0;
    run((uint8_t)seat, seconds_ * 1000, now);
    return 0;
  }
  if (phase_ == PHASE_EXPIRED) return "expired";
  uint32_t left = phase_ == PHASE_RUNNING ? freeze(now) : leftMs_;
  run((uint8_t)seat, mode_ == MODE_DUEL ? banks_[seat - 1] : left, now);
  return 0;
}

// Sets one clock's time left without running it: how a host gives a rebooted box back two
// different DUEL banks (CONF sets both to the same seconds) or a session's exact time.
const char* Device::setBank(const Frame& frame) {
  if (mode_ == MODE_NONE) return "not-configured";
  uint32_t seat;
  if (mode_ == MODE_TURN) return "bad-seat";  // a TURN has no bank: each START is a fresh turn
  bool seatOk = mode_ == MODE_DUEL ? parseNumber(frame.args[0], 1, 2, seat) : parseNumber(frame.args[0], 0, 0, seat);
  if (!seatOk) return "bad-seat";
  uint32_t ms;
  if (!parseNumber(frame.args[1], 1, kMaxBankMs, ms)) return "bad-args";
  if (phase_ == PHASE_RUNNING) return "busy";
  if (phase_ == PHASE_EXPIRED) return "expired";
  if (mode_ == MODE_DUEL) {
    banks_[seat - 1] = ms;
    if (seat_ == seat) leftMs_ = ms;  // the paused side: RESUME counts on from here
  } else {
    leftMs_ = ms;
  }
  return 0;
}

const char* Device::handle(const Frame& frame, uint32_t now) {
  const char* verb = frame.verb;
  bool sessionless = equals(verb, "HELLO") || equals(verb, "ID") || equals(verb, "STATE");
  if (!session_ && !sessionless) return "no-session";
  const char* refusal = 0;
  bool withState = true;
  if (equals(verb, "HELLO")) {
    return hello(frame, now);
  } else if (equals(verb, "ID")) {
    writer_.argKeyValue("model", identity_.model);
    writer_.argKeyValue("fw", identity_.firmware);
    writer_.argKeyValue("serial", identity_.serial);
    writer_.argKeyValue("boot", bootId_);
    writer_.arg("buttons=1,2,3,4,A");
    return 0;
  } else if (equals(verb, "STATE")) {
  } else if (equals(verb, "CONF")) {
    refusal = configure(frame);
  } else if (equals(verb, "START")) {
    refusal = start(frame, now);
  } else if (equals(verb, "BANK")) {
    refusal = setBank(frame);
  } else if (equals(verb, "PAUSE")) {
    if (phase_ != PHASE_RUNNING) return "not-running";
    freeze(now);
    phase_ = PHASE_PAUSED;
  } else if (equals(verb, "RESUME")) {
    if (phase_ != PHASE_PAUSED) return "not-paused";
    phase_ = PHASE_RUNNING;
    runSince_ = now;
  } else if (equals(verb, "STOP")) {
    if (mode_ == MODE_NONE) return "not-configured";
    resetClock();
  } else if (equals(verb, "WARN")) {
    if (!parseNumber(frame.args[0], 0, kMaxSeconds, warnAt_)) return "bad-args";
    warnedSeats_ = 0;
  } else if (equals(verb, "BEEP")) {
    uint32_t ms;
    if (!parseNumber(frame.args[0], 1, kMaxBeepMs, ms)) return "bad-args";
    beepUntil_ = now + ms;
    withState = false;
  } else if (equals(verb, "SHOW")) {
    const char* text = frame.argc ? frame.args[0] : "";
    if (strlen(text) > kMaxShowChars) return "too-long";
    strcpy(text_, text);
    withState = false;
  }
  if (refusal) return refusal;
  if (withState) stateArgs(now);
  return 0;
}

}  // namespace tileref
