// CUDA's libraries named at the student's #include (library_includes.h).
#include "grader/build/library_includes.h"

#include <array>
#include <vector>

#include "harness/core/cxx_lexer.h"

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

// One preprocessor line as the shared lexer reads it (comments, literals and line splices
// already told apart): its word ("include", "if") and the significant tokens after it.
struct directive {
  std::size_t begin = 0; ///< the offset of its `#`
  std::string_view word;
  std::vector<const token*> rest;
};

std::vector<directive> directives_of(const std::vector<token>& tokens) {
  std::vector<directive> out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].in_directive || !tokens[i].is("#")) {
      continue;
    }
    directive d{tokens[i].begin, {}, {}};
    for (++i; i < tokens.size() && tokens[i].kind != token_kind::newline; ++i) {
      if (!tokens[i].significant()) {
        continue;
      }
      if (d.word.empty()) {
        d.word = tokens[i].text;
      } else {
        d.rest.push_back(&tokens[i]);
      }
    }
    out.push_back(d);
  }
  return out;
}

// The header an include names, with its brackets ("<thrust/reduce.h>"), or empty. The lexer's
// header name runs to the end of the line, a trailing comment included.
std::string_view included(const directive& d) {
  if (d.rest.empty() || d.rest.front()->kind != token_kind::header_name) {
    return {};
  }
  const std::string_view text = d.rest.front()->text;
  const char close = text.front() == '<' ? '>' : '"';
  const std::size_t end = text.find(close, 1);
  return end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
}

// `#if 0`, `#if 00`: a block the preprocessor always skips.
bool if_zero(const directive& d) {
  return d.word == "if" && d.rest.size() == 1 && d.rest.front()->kind == token_kind::number &&
         d.rest.front()->text.find_first_not_of('0') == std::string_view::npos;
}

// Tracks `#if 0` blocks: how deep the conditionals inside a disabled block go.
class disabled_blocks {
public:
  // Takes the next directive; disabled() then says whether the lines after it are skipped.
  void see(const directive& d) {
    if (m_depth > 0) {
      if (d.word == "if" || d.word == "ifdef" || d.word == "ifndef") {
        ++m_depth;
      } else if (d.word == "endif" || (m_depth == 1 && (d.word == "else" || d.word == "elif"))) {
        --m_depth;
      }
    } else if (if_zero(d)) {
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
  disabled_blocks blocks;
  const std::vector<token> tokens = lex(source); // the directives point into it
  for (const directive& d : directives_of(tokens)) {
    blocks.see(d);
    if (d.word != "include" || blocks.disabled()) {
      continue;
    }
    const std::string_view header = included(d);
    const std::string name =
        header.empty() ? std::string() : library_of_header(header.substr(1, header.size() - 2));
    if (!name.empty()) {
      found.push_back(fmt::format("`#include {}` at {}:{} ({} is a library: the contract asks "
                                  "for your own kernels)",
                                  header, file_name, line_of(source, d.begin), name));
    }
  }
  return found;
}

} // namespace cugrade::build
