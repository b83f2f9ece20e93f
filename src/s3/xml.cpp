#include "s3/xml.h"

#include <expat.h>

#include <vector>

namespace dlbench::s3 {
namespace {

struct XmlState {
  const std::function<void(std::string_view, std::string_view)>* on_element = nullptr;
  std::string path;
  std::vector<std::size_t> starts;  // where each open element's name begins in `path`
  std::vector<std::string> texts;   // each open element's character data
};

void OnStart(void* data, const XML_Char* name, const XML_Char** /*attributes*/) {
  auto& state = *static_cast<XmlState*>(data);
  state.starts.push_back(state.path.size());
  if (!state.path.empty()) state.path += '/';
  state.path += name;
  state.texts.emplace_back();
}

void OnEnd(void* data, const XML_Char* /*name*/) {
  auto& state = *static_cast<XmlState*>(data);
  (*state.on_element)(state.path, state.texts.back());
  state.path.resize(state.starts.back());
  state.starts.pop_back();
  state.texts.pop_back();
}

void OnText(void* data, const XML_Char* text, int length) {
  auto& state = *static_cast<XmlState*>(data);
  if (!state.texts.empty()) state.texts.back().append(text, static_cast<std::size_t>(length));
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether XML 1.0 allows the character `c` (its production Char).
bool XmlChar(unsigned long c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

}  // namespace

bool ParseXml(std::string_view xml,
              const std::function<void(std::string_view path, std::string_view text)>& on_element) {
  // Whitespace before the XML declaration is no XML, but what a server that sends whitespace
  // while it works (CompleteMultipartUpload) may send before it: skipped.
  while (!xml.empty() && (xml.front() == ' ' || xml.front() == '\n' || xml.front() == '\r' ||
                          xml.front() == '\t')) {
    xml.remove_prefix(1);
  }
  XML_Parser parser = XML_ParserCreate(nullptr);
  if (parser == nullptr) return false;
  XmlState state;
  state.on_element = &on_element;
  XML_SetUserData(parser, &state);
  XML_SetElementHandler(parser, OnStart, OnEnd);
  XML_SetCharacterDataHandler(parser, OnText);
  const bool ok =
      XML_Parse(parser, xml.data(), static_cast<int>(xml.size()), XML_TRUE) == XML_STATUS_OK;
  XML_ParserFree(parser);
  return ok;
}

std::string ReplaceForbiddenCharacterReferences(std::string_view xml) {
  std::string out;
  out.reserve(xml.size());
  std::size_t at = 0;
  for (std::size_t ref = xml.find("&#"); ref != std::string_view::npos;
       ref = xml.find("&#", ref + 2)) {
    // "&#" digits ";" or "&#x" hex digits ";"
    const bool hex = ref + 2 < xml.size() && xml[ref + 2] == 'x';
    std::size_t end = ref + (hex ? 3 : 2);
    unsigned long value = 0;
    bool too_large = false;
    const std::size_t first_digit = end;
    for (; end < xml.size(); ++end) {
      const int digit =
          hex ? HexDigit(xml[end]) : (xml[end] >= '0' && xml[end] <= '9' ? xml[end] - '0' : -1);
      if (digit < 0) break;
      value = value * (hex ? 16 : 10) + static_cast<unsigned long>(digit);
      if (value > 0x10FFFF) {
        too_large = true;
        value = 0x110000;  // no overflow, however many digits
      }
    }
    if (end == first_digit || end >= xml.size() || xml[end] != ';') continue;
    if (!too_large && XmlChar(value)) continue;
    out.append(xml.substr(at, ref - at));
    out += "\xEF\xBF\xBD";  // U+FFFD
    at = end + 1;
  }
  out.append(xml.substr(at));
  return out;
}

std::string RootElement(std::string_view xml) {
  std::string root;
  const bool well_formed = ParseXml(ReplaceForbiddenCharacterReferences(xml),
                                    [&](std::string_view path, std::string_view /*text*/) {
                                      if (path.find('/') == std::string_view::npos) root = path;
                                    });
  return well_formed ? root : std::string();
}

ErrorBody ParseErrorBody(std::string_view xml) {
  ErrorBody error;
  ParseXml(ReplaceForbiddenCharacterReferences(xml),
           [&](std::string_view path, std::string_view text) {
             if (path == "Error/Code") error.code = text;
             if (path == "Error/Message") error.message = text;
             if (path == "Error/Region") error.region = text;
           });
  return error;
}

std::string UrlDecodeListingValue(std::string_view encoded) {
  std::string out;
  out.reserve(encoded.size());
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    const char c = encoded[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < encoded.size() && HexDigit(encoded[i + 1]) >= 0 &&
               HexDigit(encoded[i + 2]) >= 0) {
      out += static_cast<char>(HexDigit(encoded[i + 1]) * 16 + HexDigit(encoded[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace dlbench::s3
