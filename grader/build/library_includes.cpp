// CUDA's libraries named at the student's #include (library_includes.h).
#include "grader/build/library_includes.h"

#include <array>
#include <cctype>
#include <utility>

#include <fmt/format.h>

namespace cugrade::build {
namespace {

struct library {
  std::string_view prefix; ///< a header's name starts with it
  std::string_view name;
};

// Folders first (thrust/...), then the libraries' own headers (cublas_v2.h, curand_kernel.h).
constexpr std::array<library, 16> libraries{{
    {"thrust/", "thrust"},
    {"cub/", "CUB"},
    {"cuda/", "libcu++"},
    {"cutlass/", "CUTLASS"},
    {"cute/", "CUTLASS"},
    {"cublas", "cuBLAS"},
    {"cufft", "cuFFT"},
    {"curand", "cuRAND"},
    {"cusparse", "cuSPARSE"},
    {"cusolver", "cuSOLVER"},
    {"cudnn", "cuDNN"},
    {"nccl", "NCCL"},
    {"npp", "NPP"},
    {"nvrtc", "NVRTC"},
    {"nvjpeg", "nvJPEG"},
    {"cutensor", "cuTENSOR"},
}};

// The line with its comments blanked; `in_block` carries an open /* */ across lines.
std::string without_comments(std::string_view line, bool& in_block) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (in_block) {
      if (line.compare(i, 2, "*/") == 0) {
        in_block = false;
        ++i;
      }
      continue;
    }
    if (line.compare(i, 2, "//") == 0) {
      break;
    }
    if (line.compare(i, 2, "/*") == 0) {
      in_block = true;
      ++i;
      out += ' ';
      continue;
    }
    out += line[i];
  }
  return out;
}

std::string_view skip_spaces(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  return text;
}

// The directive's word and the rest ("include", "<thrust/reduce.h>"), or empty when the line is
// not a directive.
std::pair<std::string_view, std::string_view> directive(std::string_view line) {
  line = skip_spaces(line);
  if (line.empty() || line.front() != '#') {
    return {};
  }
  line = skip_spaces(line.substr(1));
  std::size_t word = 0;
  while (word < line.size() && std::isalpha(static_cast<unsigned char>(line[word])) != 0) {
    ++word;
  }
  return {line.substr(0, word), skip_spaces(line.substr(word))};
}

// The header an include names, with its brackets ("<thrust/reduce.h>"), or empty.
std::string_view included(std::string_view rest) {
  if (rest.empty() || (rest.front() != '<' && rest.front() != '"')) {
    return {};
  }
  const char close = rest.front() == '<' ? '>' : '"';
  const std::size_t end = rest.find(close, 1);
  return end == std::string_view::npos ? std::string_view{} : rest.substr(0, end + 1);
}

// Tracks `#if 0` blocks: how deep the conditionals inside a disabled block go.
class disabled_blocks {
public:
  // Whether the directive's line (and the lines after it) are disabled.
  void see(std::string_view word, std::string_view rest) {
    if (m_depth > 0) {
      if (word == "if" || word == "ifdef" || word == "ifndef") {
        ++m_depth;
      } else if (word == "endif" || (m_depth == 1 && (word == "else" || word == "elif"))) {
        --m_depth;
      }
    } else if (word == "if" && skip_spaces(rest).substr(0, 1) == "0" &&
               skip_spaces(rest).find_first_not_of("0 \t") == std::string_view::npos) {
      m_depth = 1;
    }
  }
  [[nodiscard]] bool disabled() const { return m_depth > 0; }

private:
  int m_depth = 0;
};

} // namespace

std::string library_of_header(std::string_view header) {
  for (const library& l : libraries) {
    if (header.substr(0, l.prefix.size()) == l.prefix) {
      return std::string(l.name);
    }
  }
  return {};
}

std::vector<std::string> library_includes(std::string_view source, std::string_view file_name) {
  std::vector<std::string> found;
  bool in_comment = false;
  disabled_blocks blocks;
  int number = 0;
  while (!source.empty()) {
    const std::size_t end = source.find('\n');
    const std::string line = without_comments(source.substr(0, end), in_comment);
    source.remove_prefix(end == std::string_view::npos ? source.size() : end + 1);
    ++number;
    const auto [word, rest] = directive(line);
    blocks.see(word, rest);
    if (word != "include" || blocks.disabled()) {
      continue;
    }
    const std::string_view header = included(rest);
    const std::string name =
        header.empty() ? std::string() : library_of_header(header.substr(1, header.size() - 2));
    if (!name.empty()) {
      found.push_back(fmt::format("`#include {}` at {}:{} ({} is a library: the contract asks "
                                  "for your own kernels)",
                                  header, file_name, number, name));
    }
  }
  return found;
}

} // namespace cugrade::build
