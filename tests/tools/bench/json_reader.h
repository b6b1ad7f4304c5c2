// Copyright 2026 The bloomgate Authors.
//
// A minimal JSON reader for the tests of bloomgate_bench's --json output:
// objects, arrays, strings (with the escapes the tool writes), numbers, true,
// false and null. Strict enough that malformed output fails the test.

#ifndef BLOOMGATE_TESTS_TOOLS_BENCH_JSON_READER_H_
#define BLOOMGATE_TESTS_TOOLS_BENCH_JSON_READER_H_

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bloomgate::bench::testing {

struct JsonValue {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;

  bool is_null() const { return type == Type::kNull; }
  const JsonValue* Find(const std::string& key) const {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &it->second;
  }
};

class JsonReader {
 public:
  // The value of the whole text, or nullopt (with error()) if it is not
  // exactly one JSON value.
  std::optional<JsonValue> Parse(std::string_view text) {
    text_ = text;
    pos_ = 0;
    JsonValue value;
    if (!ParseValue(&value)) return std::nullopt;
    SkipSpace();
    if (pos_ != text_.size()) {
      Fail("trailing characters");
      return std::nullopt;
    }
    return value;
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(const std::string& why) {
    error_ = why + " at offset " + std::to_string(pos_);
    return false;
  }
  void SkipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool ParseValue(JsonValue* v) {
    SkipSpace();
    if (pos_ >= text_.size()) return Fail("unexpected end");
    char c = text_[pos_];
    if (c == '{') return ParseObject(v);
    if (c == '[') return ParseArray(v);
    if (c == '"') {
      v->type = JsonValue::Type::kString;
      return ParseString(&v->string);
    }
    if (Consume("null")) return true;
    if (Consume("true")) {
      v->type = JsonValue::Type::kBool;
      v->boolean = true;
      return true;
    }
    if (Consume("false")) {
      v->type = JsonValue::Type::kBool;
      return true;
    }
    return ParseNumber(v);
  }
  bool ParseNumber(JsonValue* v) {
    size_t start = pos_;
    while (pos_ < text_.size() &&
           std::string_view("+-0123456789.eE").find(text_[pos_]) !=
               std::string_view::npos) {
      ++pos_;
    }
    if (start == pos_) return Fail("expected a value");
    std::string digits(text_.substr(start, pos_ - start));
    char* end = nullptr;
    v->number = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) {
      return Fail("bad number");
    }
    v->type = JsonValue::Type::kNumber;
    return true;
  }
  bool ParseString(std::string* out) {
    ++pos_;  // the opening quote
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) {
        return Fail("control character in string");
      }
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return Fail("bad \\u escape");
          std::string hex(text_.substr(pos_, 4));
          out->push_back(
              static_cast<char>(std::strtol(hex.c_str(), nullptr, 16)));
          pos_ += 4;
          break;
        }
        default:
          return Fail("bad escape");
      }
    }
    if (pos_ >= text_.size()) return Fail("unterminated string");
    ++pos_;  // the closing quote
    return true;
  }
  bool ParseArray(JsonValue* v) {
    v->type = JsonValue::Type::kArray;
    ++pos_;
    SkipSpace();
    if (Consume("]")) return true;
    for (;;) {
      JsonValue item;
      if (!ParseValue(&item)) return false;
      v->array.push_back(std::move(item));
      SkipSpace();
      if (Consume("]")) return true;
      if (!Consume(",")) return Fail("expected , or ]");
    }
  }
  bool ParseObject(JsonValue* v) {
    v->type = JsonValue::Type::kObject;
    ++pos_;
    SkipSpace();
    if (Consume("}")) return true;
    for (;;) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        return Fail("expected a key");
      }
      std::string key;
      if (!ParseString(&key)) return false;
      SkipSpace();
      if (!Consume(":")) return Fail("expected :");
      JsonValue item;
      if (!ParseValue(&item)) return false;
      if (!v->object.emplace(key, std::move(item)).second) {
        return Fail("duplicate key " + key);
      }
      SkipSpace();
      if (Consume("}")) return true;
      if (!Consume(",")) return Fail("expected , or }");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace bloomgate::bench::testing

#endif  // BLOOMGATE_TESTS_TOOLS_BENCH_JSON_READER_H_
