// Unit tests of the firmware core, built and run by tests/bridge/test_firmware.py:
//   g++ -std=c++11 tests/test_firmware.cpp tileref_timer/src/*.cpp && ./a.out
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "../tileref_timer/src/device.h"
#include "../tileref_timer/src/frame.h"

using namespace tileref;

static int failures = 0;
static int checks = 0;
#define CHECK(condition)                                                      \
  do {                                                                        \
    ++checks;                                                                 \
    if (!(condition)) {                                                       \
      ++failures;                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
    }                                                                         \
  } while (0)

static std::vector<std::string> output;
static void collect(const char* line, size_t length, void*) { output.push_back(std::string(line, length)); }

static std::string command(uint16_t seq, const char* verb, const char* a = 0, const char* b = 0) {
  FrameWriter writer;
  writer.begin('>', seq, verb);
  if (a) writer.arg(a);
  if (b) writer.arg(b);
  return writer.finish();
}

static bool starts(const std::string& line, const char* prefix) { return line.compare(0, strlen(prefix), prefix) == 0; }

static bool contains(const std::string& line, const char* part) { return line.find(part) != std::string::npos; }

struct Box {
  Identity identity;
  Device device;
  uint32_t now;
  Box() : identity{"test-box", "1.0", "T-1"}, device(identity, collect, 0), now(0) {
    output.clear();
    device.boot(now, "power", "c0ffee01");
  }
  std::vector<std::string> send(const std::string& line) {
    output.clear();
    device.feed(line.data(), line.size(), now);
    return output;
  }
  std::vector<std::string> at(uint32_t t) {
    output.clear();
    now = t;
    device.poll(now);
    return output;
  }
};

static void testCrcCheckValue() { CHECK(crc16("123456789", 9) == 0x29B1); }

static void testFormatAndParseRoundTrip() {
  FrameWriter writer;
  writer.begin('>', 17, "SHOW");
  writer.arg("Hi *there 100%");
  std::string line = writer.finish();
  CHECK(line == ">17 SHOW Hi%20%2Athere%20100%25 *31DE\n");
  Frame frame;
  CHECK(parseFrame(line.data(), line.size(), frame) == PARSE_OK);
  CHECK(frame.direction == '>' && frame.seq == 17 && strcmp(frame.verb, "SHOW") == 0);
  CHECK(frame.argc == 1 && strcmp(frame.args[0], "Hi *there 100%") == 0);
}

static void testParseRejects() {
  Frame frame;
  std::string good = command(3, "STATE");
  std::string flipped = good;
  flipped[1] = '4';
  CHECK(parseFrame(flipped.data(), flipped.size(), frame) == PARSE_CHECKSUM);
  const char* bad[] = {"", ">3 STATE", ">3 STATE *12", ">3 STATE *zzzz", "\x01\x02", ">03 STATE *0000"};
  for (const char* line : bad) CHECK(parseFrame(line, strlen(line), frame) != PARSE_OK);
  std::string cut = good.substr(0, good.size() / 2);
  CHECK(parseFrame(cut.data(), cut.size(), frame) != PARSE_OK);
}

static void testCommandsNeedHandshake() {
  Box box;
  std::vector<std::string> out = box.send(command(1, "CONF", "TURN", "60"));
  CHECK(out.size() == 1 && starts(out[0], "<1 NAK 1 no-session "));
  out = box.send(command(2, "HELLO", "2"));
  CHECK(out.size() == 1 && contains(out[0], "NAK 2 version"));
  out = box.send(command(3, "HELLO", "1", "hb=500"));
  CHECK(out.size() == 1 && contains(out[0], "ACK 3 proto=1 hb=500 ids=0 "));
}

static void testPressIdsOnlyForAHostThatAsks() {
  Box box;
  box.send(command(1, "HELLO", "1", "hb=60000"));
  output.clear();
  box.device.press('A', 0);
  CHECK(output.size() == 1 && contains(output[0], "BTN A 0 0 *"));  // a version 1.0 host reads this
  std::vector<std::string> out = box.send(command(2, "HELLO", "1", "ids=1"));
  CHECK(out.size() == 1 && contains(out[0], "ACK 2 proto=1 hb=60000 ids=1 "));  // hb kept
  output.clear();
  box.device.press('2', 0);
  CHECK(output.size() == 1 && contains(output[0], "BTN 2 0 0 boot=c0ffee01 press=2 "));
  out = box.send(command(3, "STATE"));
  CHECK(contains(out[0], " press=2 "));
  out = box.send(command(4, "HELLO", "1", "ids=2"));
  CHECK(out.size() == 1 && contains(out[0], "NAK 4 bad-args"));
  box.send(command(5, "HELLO", "1", "hb=60000"));  // a plain HELLO turns ids off again
  output.clear();
  box.device.press('A', 0);
  CHECK(output.size() == 1 && contains(output[0], "BTN A 0 0 *"));
}

static void testTurnTicksWarnsAndExpires() {
  Box box;
  box.send(command(1, "HELLO", "1", "hb=60000"));
  box.send(command(2, "CONF", "TURN", "3"));
  box.send(command(3, "WARN", "1"));
  std::vector<std::string> out = box.send(command(4, "START", "2"));
  CHECK(out.size() == 2 && contains(out[0], "ACK 4 mode=TURN secs=3 phase=RUN seat=2 left=3000"));
  CHECK(contains(out[1], "TICK 2 3 "));
  CHECK(box.at(999).empty());
  out = box.at(1000);
  CHECK(out.size() == 1 && contains(out[0], "TICK 2 2 "));
  out = box.at(2000);
  CHECK(out.size() == 2 && contains(out[0], "TICK 2 1 ") && contains(out[1], "LOW 2 1 "));
  out = box.at(3000);
  CHECK(out.size() == 1 && contains(out[0], "EXP 2 "));
  CHECK(box.device.phase() == PHASE_EXPIRED);
}

static void testButtonHoldsTurnAndPauseHoldsClock() {
  Box box;
  box.send(command(1, "HELLO", "1", "hb=60000"));
  box.send(command(2, "CONF", "TURN", "60"));
  box.send(command(3, "START", "1"));
  box.at(1500);
  std::vector<std::string> out = box.send(command(4, "PAUSE"));
  CHECK(contains(out[0], "phase=PAUSE seat=1 left=58500"));
  box.at(9000);
  CHECK(box.device.msLeft(9000) == 58500);
  box.send(command(5, "RESUME"));
  box.now = 9500;
  output.clear();
  box.device.press('1', box.now);
  CHECK(output.size() == 1 && contains(output[0], "BTN 1 1 58000 "));
  CHECK(box.device.phase() == PHASE_HELD);
}

static void testDuelButtonHandsOver() {
  Box box;
  box.send(command(1, "HELLO", "1", "hb=60000"));
  box.send(command(2, "CONF", "DUEL", "1800"));
  box.send(command(3, "START", "1"));
  box.at(10000);
  output.clear();
  box.device.press('1', 10000);
  CHECK(output.size() == 2 && contains(output[0], "BTN 1 1 1790000 ") && contains(output[1], "TICK 2 1800 "));
  box.at(15000);
  std::vector<std::string> out = box.send(command(4, "STATE"));
  CHECK(contains(out[0], "bank1=1790000 bank2=1795000"));
}

static void testBankGivesARebootedBoxItsTimesBack() {
  Box box;
  box.send(command(1, "HELLO", "1", "hb=60000"));
  std::vector<std::string> out = box.send(command(2, "HELLO", "1", "bank=1"));
  CHECK(out.size() == 1 && contains(out[0], "ACK 2 proto=1 hb=60000 ids=0 bank=1 "));
  out = box.send(command(3, "BANK", "1", "5000"));
  CHECK(out.size() == 1 && contains(out[0], "NAK 3 not-configured"));
  box.send(command(4, "CONF", "DUEL", "1800"));
  out = box.send(command(5, "BANK", "1", "1234567"));
  CHECK(contains(out[0], "ACK 5 mode=DUEL secs=1800 phase=READY") && contains(out[0], "bank1=1234567 bank2=1800000"));
  box.send(command(6, "BANK", "2", "987654"));
  out = box.send(command(7, "START", "2"));
  CHECK(contains(out[0], "phase=RUN seat=2 left=987654") && contains(out[1], "TICK 2 988 "));
  out = box.send(command(8, "BANK", "1", "5000"));
  CHECK(contains(out[0], "NAK 8 busy"));  // the running clock is not changed under it
  box.at(1000);
  box.send(command(9, "PAUSE"));
  out = box.send(command(10, "BANK", "2", "500000"));  // the paused side: RESUME counts on from it
  CHECK(contains(out[0], "left=500000 ") && contains(out[0], "bank2=500000"));
  const char* refused[][3] = {{"3", "1000", "bad-seat"}, {"0", "1000", "bad-seat"}, {"1", "0", "bad-args"},
                              {"1", "86400001", "bad-args"}, {"x", "1", "bad-seat"}};
  uint16_t seq = 11;
  for (auto& r : refused) {
    out = box.send(command(seq, "BANK", r[0], r[1]));
    CHECK(out.size() == 1 && contains(out[0], "NAK") && contains(out[0], r[2]));
    ++seq;
  }
  box.send(command(seq++, "STOP"));  // CONF is refused while a clock is paused
  box.send(command(seq++, "CONF", "SESSION", "3600"));
  out = box.send(command(seq++, "BANK", "0", "42000"));
  CHECK(contains(out[0], "mode=SESSION secs=3600 phase=READY seat=0 left=42000 "));
  box.send(command(seq++, "CONF", "TURN", "60"));
  out = box.send(command(seq++, "BANK", "1", "42000"));
  CHECK(contains(out[0], "bad-seat"));  // a turn has no bank: each START gives a fresh turn
}

static void testRetryIsAnsweredNotRepeated() {
  Box box;
  box.send(command(1, "HELLO", "1", "hb=60000"));
  box.send(command(2, "CONF", "TURN", "60"));
  std::string start = command(3, "START", "1");
  std::vector<std::string> first = box.send(start);
  box.at(5000);
  std::vector<std::string> again = box.send(start);
  CHECK(again.size() == 1 && again[0] == first[0]);
  CHECK(box.device.msLeft(5000) == 55000);  // not restarted
}

static void testNoiseAnsweredWithErrors() {
  Box box;
  std::vector<std::string> out = box.send(">1 HELLO 1 *0000\n");
  CHECK(out.size() == 1 && contains(out[0], "ERR checksum"));
  out = box.send("garbage\n");
  CHECK(out.size() == 1 && contains(out[0], "ERR frame"));
  out = box.send(std::string(400, 'x') + "\n");
  CHECK(out.size() == 1 && contains(out[0], "ERR toolong"));
  out = box.send(command(9, "HELLO", "1"));
  CHECK(out.size() == 1 && contains(out[0], "ACK 9 proto=1"));
}

int main() {
  testCrcCheckValue();
  testFormatAndParseRoundTrip();
  testParseRejects();
  testCommandsNeedHandshake();
  testPressIdsOnlyForAHostThatAsks();
  testTurnTicksWarnsAndExpires();
  testButtonHoldsTurnAndPauseHoldsClock();
  testDuelButtonHandsOver();
  testBankGivesARebootedBoxItsTimesBack();
  testRetryIsAnsweredNotRepeated();
  testNoiseAnsweredWithErrors();
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
