#include "frame.h"

#include <string.h>

namespace tileref {

uint16_t crc16(const char* data, size_t length) {
  uint16_t crc = 0xFFFF;  // CRC-16/CCITT-FALSE
  for (size_t i = 0; i < length; ++i) {
    crc ^= (uint16_t)((uint8_t)data[i]) << 8;
    for (uint8_t bit = 0; bit < 8; ++bit) {
      crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
  }
  return crc;
}

static bool isPlain(char c) { return c >= 0x21 && c <= 0x7E && c != '%' && c != '*'; }

static int upperHexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static const char kHex[] = "0123456789ABCDEF";

ParseResult parseFrame(const char* line, size_t length, Frame& out) {
  while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) --length;
  if (length == 0 || length > kMaxLine) return PARSE_FRAME;
  for (size_t i = 0; i < length; ++i) {
    if (line[i] < 0x20 || line[i] > 0x7E) return PARSE_FRAME;
  }
  // The checksum follows the last " *".
  size_t star = length;
  for (size_t i = length; i-- > 1;) {
    if (line[i] == '*' && line[i - 1] == ' ') { star = i; break; }
  }
  if (star == length || length - star - 1 != 4) return PARSE_FRAME;
  uint16_t claimed = 0;
  for (size_t i = star + 1; i < length; ++i) {
    int v = upperHexValue(line[i]);
    if (v < 0) return PARSE_FRAME;
    claimed = (uint16_t)((claimed << 4) | v);
  }
  size_t bodyLength = star - 1;
  if (crc16(line, bodyLength) != claimed) return PARSE_CHECKSUM;
  if (line[0] != '<' && line[0] != '>') return PARSE_FRAME;
  out.direction = line[0];
  out.argc = 0;
  // Words separated by single spaces: SEQ VERB ARG...
  size_t pos = 1;
  uint8_t word = 0;
  while (true) {
    size_t end = pos;
    while (end < bodyLength && line[end] != ' ') ++end;
    size_t n = end - pos;
    if (n == 0) return PARSE_FRAME;
    const char* w = line + pos;
    if (word == 0) {
      if (n > 5 || (n > 1 && w[0] == '0')) return PARSE_FRAME;
      uint32_t seq = 0;
      for (size_t i = 0; i < n; ++i) {
        if (w[i] < '0' || w[i] > '9') return PARSE_FRAME;
        seq = seq * 10 + (uint32_t)(w[i] - '0');
      }
      if (seq > 0xFFFF) return PARSE_FRAME;
      out.seq = (uint16_t)seq;
    } else if (word == 1) {
      if (n > kMaxVerbChars) return PARSE_FRAME;  // no verb is that long: unknown
      memcpy(out.verb, w, n);
      out.verb[n] = 0;
    } else {
      if (out.argc >= kMaxArgs) return PARSE_FRAME;
      char* arg = out.args[out.argc++];
      size_t kept = 0;
      for (size_t i = 0; i < n; ++i) {
        char c = w[i];
        if (c == '%') {
          if (i + 2 >= n) return PARSE_FRAME;
          int hi = upperHexValue(w[i + 1]);
          int lo = upperHexValue(w[i + 2]);
          if (hi < 0 || lo < 0) return PARSE_FRAME;
          c = (char)(hi * 16 + lo);
          if (c < 0x20 || c > 0x7E) return PARSE_FRAME;
          i += 2;
        } else if (!isPlain(c)) {
          return PARSE_FRAME;
        }
        if (kept < kMaxArgChars) arg[kept++] = c;
      }
      arg[kept] = 0;
    }
    ++word;
    if (end >= bodyLength) break;
    pos = end + 1;
  }
  return word >= 2 ? PARSE_OK : PARSE_FRAME;
}

void formatNumber(uint32_t value, char* out) {
  char digits[11];
  uint8_t n = 0;
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value);
  for (uint8_t i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  out[n] = 0;
}

void FrameWriter::put(char c) {
  if (length_ < kMaxLine) buffer_[length_++] = c;
  else overflow_ = true;
}

void FrameWriter::putRaw(const char* text) {
  while (*text) put(*text++);
}

void FrameWriter::putEncoded(const char* text) {
  for (; *text; ++text) {
    char c = *text;
    if (isPlain(c)) {
      put(c);
    } else {
      put('%');
      put(kHex[((uint8_t)c) >> 4]);
      put(kHex[((uint8_t)c) & 0xF]);
    }
  }
}

void FrameWriter::begin(char direction, uint16_t seq, const char* verb) {
  length_ = 0;
  overflow_ = false;
  char digits[11];
  formatNumber(seq, digits);
  put(direction);
  putRaw(digits);
  put(' ');
  putRaw(verb);
}

void FrameWriter::arg(const char* text) {
  put(' ');
  putEncoded(text);
}

void FrameWriter::argNumber(uint32_t value) {
  char digits[11];
  formatNumber(value, digits);
  arg(digits);
}

void FrameWriter::argKeyValue(const char* key, const char* value) {
  put(' ');
  putRaw(key);
  put('=');
  putEncoded(value);
}

void FrameWriter::argKeyNumber(const char* key, uint32_t value) {
  char digits[11];
  formatNumber(value, digits);
  argKeyValue(key, digits);
}

const char* FrameWriter::finish() {
  uint16_t crc = crc16(buffer_, length_);
  put(' ');
  put('*');
  for (int shift = 12; shift >= 0; shift -= 4) put(kHex[(crc >> shift) & 0xF]);
  buffer_[length_] = '\n';
  buffer_[length_ + 1] = 0;
  ++length_;
  return buffer_;
}

}  // namespace tileref
