// Drives the firmware core from a text script on stdin, for the Python cross-check
// (tests/bridge/test_firmware.py feeds the same script to device_model.py).
// Every byte string travels as hex so newlines and noise survive. One reply line
// per script line:
//   boot NOW REASON BOOTID | feed NOW HEX | press NOW BUTTON | poll NOW
//       -> "OUT <hex of each frame the box wrote>"... then "END"
//   crc HEX      -> four hex digits
//   parse HEX    -> "OK DIR SEQ VERB HEXARG..." | "CHECKSUM" | "FRAME"
//   format DIR SEQ VERB HEXARG...  -> "LINE <hex of the frame>"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "../tileref_timer/src/device.h"
#include "../tileref_timer/src/frame.h"

using namespace tileref;

static std::string toHex(const char* data, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += digits[((unsigned char)data[i]) >> 4];
    out += digits[((unsigned char)data[i]) & 15];
  }
  return out;
}

static std::string fromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += (char)strtol(hex.substr(i, 2).c_str(), 0, 16);
  return out;
}

static void printLine(const char* line, size_t length, void*) {
  printf("OUT %s\n", toHex(line, length).c_str());
}

int main() {
  Identity identity = {"tileref-emu", "1.0", "EMU-0001"};
  Device device(identity, printLine, 0);
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, stdin)) {
    std::vector<std::string> words;
    for (char* w = strtok(buffer, " \n"); w; w = strtok(0, " \n")) words.push_back(w);
    if (words.empty()) continue;
    const std::string& op = words[0];
    if (op == "boot" && words.size() == 4) {
      device.boot((uint32_t)strtoul(words[1].c_str(), 0, 10), words[2].c_str(), words[3].c_str());
    } else if (op == "feed" && words.size() == 3) {
      std::string data = fromHex(words[2]);
      device.feed(data.data(), data.size(), (uint32_t)strtoul(words[1].c_str(), 0, 10));
    } else if (op == "feed" && words.size() == 2) {
      // empty data
    } else if (op == "press" && words.size() == 3) {
      device.press(words[2][0], (uint32_t)strtoul(words[1].c_str(), 0, 10));
    } else if (op == "poll" && words.size() == 2) {
      device.poll((uint32_t)strtoul(words[1].c_str(), 0, 10));
    } else if (op == "crc" && words.size() <= 2) {
      std::string data = words.size() == 2 ? fromHex(words[1]) : "";
      printf("%04X\n", crc16(data.data(), data.size()));
      fflush(stdout);
      continue;
    } else if (op == "parse" && words.size() <= 2) {
      std::string data = words.size() == 2 ? fromHex(words[1]) : "";
      static Frame frame;
      ParseResult result = parseFrame(data.data(), data.size(), frame);
      if (result == PARSE_CHECKSUM) printf("CHECKSUM\n");
      else if (result == PARSE_FRAME) printf("FRAME\n");
      else {
        printf("OK %c %u %s", frame.direction, (unsigned)frame.seq, frame.verb);
        for (uint8_t i = 0; i < frame.argc; ++i) printf(" %s", toHex(frame.args[i], strlen(frame.args[i])).c_str());
        printf("\n");
      }
      fflush(stdout);
      continue;
    } else if (op == "format" && words.size() >= 4) {
      FrameWriter writer;
      writer.begin(words[1][0], (uint16_t)strtoul(words[2].c_str(), 0, 10), words[3].c_str());
      for (size_t i = 4; i < words.size(); ++i) writer.arg(fromHex(words[i]).c_str());
      const char* line = writer.finish();
      printf("LINE %s\n", toHex(line, writer.length()).c_str());
      fflush(stdout);
      continue;
    } else {
      fprintf(stderr, "script_runner: bad script line starting %s\n", op.c_str());
      return 2;
    }
    printf("END\n");
    fflush(stdout);
  }
  return 0;
}
