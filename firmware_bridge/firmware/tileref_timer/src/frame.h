// Timer wire protocol version 1: frame parser and formatter (see PROTOCOL.md).
// Plain C++ without Arduino headers, so it compiles and is unit-tested on a PC.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace tileref {

const size_t kMaxLine = 160;    // bytes before the newline
const uint8_t kMaxArgs = 12;
const size_t kMaxArgChars = 24; // longer arguments are cut; no valid argument is that long
const size_t kMaxVerbChars = 7;

uint16_t crc16(const char* data, size_t length);

struct Frame {
  char direction;  // '>' command, '<' event
  uint16_t seq;
  char verb[kMaxVerbChars + 1];
  uint8_t argc;
  char args[kMaxArgs][kMaxArgChars + 1];
};

enum ParseResult { PARSE_OK = 0, PARSE_CHECKSUM = 1, PARSE_FRAME = 2 };

// Parses one line (trailing CR/LF allowed). Checks framing, checksum, sequence
// number and argument escapes; which verbs exist and their arity is the caller's job.
ParseResult parseFrame(const char* line, size_t length, Frame& out);

// Builds one frame into its own buffer: begin, args, finish.
class FrameWriter {
 public:
  void begin(char direction, uint16_t seq, const char* verb);
  void arg(const char* text);                    // percent-encoded as needed
  void argNumber(uint32_t value);
  void argKeyValue(const char* key, const char* value);
  void argKeyNumber(const char* key, uint32_t value);
  const char* finish();  // appends " *CRC\n"; the line, NUL-terminated
  size_t length() const { return length_; }
  bool overflowed() const { return overflow_; }

 private:
  void put(char c);
  void putRaw(const char* text);
  void putEncoded(const char* text);
  char buffer_[kMaxLine + 8];
  size_t length_;
  bool overflow_;
};

void formatNumber(uint32_t value, char* out);  // decimal, out holds >= 11 chars

}  // namespace tileref
