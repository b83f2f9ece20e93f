#include "trace_summary/event_line.h"

#include <charconv>

namespace dlbench::trace_summary {
namespace {

// A cursor over the line; every function returns false on malformed input.
struct Cursor {
  const char* p;
  const char* end;

  void skip_blanks() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
  }
  bool eat(char c) {
    skip_blanks();
    if (p < end && *p == c) {
      ++p;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    skip_blanks();
    return p < end && *p == c;
  }

  // The contents of a string (escapes kept as written).
  bool string(std::string_view& out) {
    if (!eat('"')) return false;
    const char* start = p;
    while (p < end && *p != '"') {
      if (*p == '\\') ++p;
      ++p;
    }
    if (p >= end) return false;
    out = std::string_view(start, static_cast<std::size_t>(p - start));
    ++p;
    return true;
  }

  bool number(double& out, std::string_view* text = nullptr) {
    skip_blanks();
    const char* start = p;
    const auto [next, error] = std::from_chars(p, end, out);
    if (error != std::errc() || next == p) return false;
    p = next;
    if (text != nullptr) *text = std::string_view(start, static_cast<std::size_t>(p - start));
    return true;
  }

  bool literal(std::string_view word) {
    skip_blanks();
    if (static_cast<std::size_t>(end - p) < word.size() || std::string_view(p, word.size()) != word)
      return false;
    p += word.size();
    return true;
  }

  bool value(int depth = 0) {  // any JSON value, skipped
    if (depth > 64) return false;
    skip_blanks();
    if (p >= end) return false;
    std::string_view ignored;
    double number_value = 0;
    switch (*p) {
      case '"':
        return string(ignored);
      case '{':
        ++p;
        if (eat('}')) return true;
        do {
          if (!string(ignored) || !eat(':') || !value(depth + 1)) return false;
        } while (eat(','));
        return eat('}');
      case '[':
        ++p;
        if (eat(']')) return true;
        do {
          if (!value(depth + 1)) return false;
        } while (eat(','));
        return eat(']');
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number(number_value);
    }
  }

  // A number, or a string holding one (some DFTracer versions quote ids and values).
  bool number_or_string(double& out, std::string_view& text) {
    if (peek('"')) {
      if (!string(text)) return false;
      const auto [next, error] = std::from_chars(text.data(), text.data() + text.size(), out);
      (void)next;
      if (error != std::errc()) out = 0;
      return true;
    }
    return number(out, &text);
  }
};

bool ParseArgs(Cursor& c, EventLine& event) {
  if (!c.eat('{')) return c.value();  // not an object: accepted, ignored
  if (c.eat('}')) return true;
  do {
    std::string_view key, text;
    if (!c.string(key) || !c.eat(':')) return false;
    if (key == "ret") {
      if (!c.number_or_string(event.ret, text)) return false;
      event.has_ret = true;
    } else if (key == "size") {
      if (!c.number_or_string(event.size, text)) return false;
      event.has_size = true;
    } else if (key == "image_size") {
      if (!c.number_or_string(event.image_size, text)) return false;
      event.has_image_size = true;
    } else if (key == "name" && c.peek('"')) {
      if (!c.string(event.arg_name)) return false;
    } else if (key == "value" && !c.peek('{') && !c.peek('[')) {
      double ignored = 0;
      if (c.peek('"')) {
        if (!c.string(event.arg_value)) return false;
      } else if (!c.number(ignored, &event.arg_value) && !c.value()) {
        return false;
      }
    } else if (!c.value(1)) {
      return false;
    }
  } while (c.eat(','));
  return c.eat('}');
}

}  // namespace

bool ParseEventLine(std::string_view line, EventLine& event) {
  event = EventLine();
  Cursor c{line.data(), line.data() + line.size()};
  if (!c.eat('{')) return false;
  if (!c.eat('}')) {
    do {
      std::string_view key, text;
      if (!c.string(key) || !c.eat(':')) return false;
      bool ok = true;
      if (key == "name") {
        ok = c.string(event.name);
      } else if (key == "cat") {
        ok = c.string(event.cat);
      } else if (key == "ph") {
        ok = c.string(event.ph);
      } else if (key == "ts") {
        ok = c.number_or_string(event.ts, text);
        event.has_ts = true;
      } else if (key == "dur") {
        ok = c.number_or_string(event.dur, text);
        event.has_dur = true;
      } else if (key == "args") {
        ok = ParseArgs(c, event);
      } else {
        ok = c.value(1);
      }
      if (!ok) return false;
    } while (c.eat(','));
    if (!c.eat('}')) return false;
  }
  c.eat(',');
  c.skip_blanks();
  return c.p == c.end;
}

}  // namespace dlbench::trace_summary
