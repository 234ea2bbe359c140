#include "grader/core/warp_steps.h"

#include "grader/core/source_code.h"
#include "grader/core/source_tokens.h"
#include "harness/core/cxx_lexer.h"
#include "harness/core/words.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace cugrade::grader {

namespace {

using namespace source_tokens;

// What orders a warp's lanes: a barrier, __syncwarp(), a cooperative group's sync.
bool synchronises(const token& t) {
  return t.is("__syncthreads") || t.is("__syncthreads_count") || t.is("__syncthreads_and") ||
         t.is("__syncthreads_or") || t.is("__syncwarp") || t.is("sync") ||
         t.is("__threadfence_block");
}

// `A[index]` at token `p`: the index as written (squeezed) and the token after the `]`.
struct subscript {
  std::string_view array;
  std::string index;
  std::size_t next = 0;
};

std::optional<subscript> subscript_at(const std::string& code, const tokens& t, std::size_t p,
                                      std::size_t end) {
  if (p + 2 >= end || t[p].kind != token_kind::identifier || !t[p + 1].is("[")) {
    return std::nullopt;
  }
  const std::size_t close = closing(t, p + 1, k_reach);
  if (close == npos || close >= end || close == p + 2) {
    return std::nullopt;
  }
  return subscript{t[p].text,
                   squeezed(std::string_view(code).substr(t[p + 2].begin,
                                                          t[close].begin - t[p + 2].begin)),
                   close + 1};
}

bool names_something(std::string_view index) {
  return std::any_of(index.begin(), index.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

// A step at token `p`: `A[i] += A[j];`, `A[i] = A[i] + A[j];` or `A[i] = A[j] + A[i];` with
// i and j written differently. Its last token (the `;`), or npos.
std::size_t step_end(const std::string& code, const tokens& t, std::size_t p, std::size_t end) {
  if (p > 0 && (t[p - 1].is(".") || t[p - 1].is("->") || t[p - 1].is("::"))) {
    return npos;
  }
  const auto target = subscript_at(code, t, p, end);
  if (!target || target->next + 1 >= end || !names_something(target->index)) {
    return npos; // `s[1] += s[0]`: one thread's serial work, not a lane's step
  }
  const auto same_array = [&](const std::optional<subscript>& s) {
    return s && s->array == target->array && s->next < end;
  };
  std::size_t n = target->next;
  if (t[n].is("+") && t[n + 1].is("=") && t[n].end == t[n + 1].begin) {
    const auto other = subscript_at(code, t, n + 2, end);
    return same_array(other) && other->index != target->index && t[other->next].is(";")
               ? other->next
               : npos;
  }
  if (!t[n].is("=") || t[n + 1].is("=")) {
    return npos;
  }
  const auto a = subscript_at(code, t, n + 1, end);
  if (!same_array(a) || !t[a->next].is("+")) {
    return npos;
  }
  const auto b = subscript_at(code, t, a->next + 1, end);
  if (!same_array(b) || !t[b->next].is(";")) {
    return npos;
  }
  const bool one_is_target = a->index == target->index || b->index == target->index;
  return one_is_target && a->index != b->index ? b->next : npos;
}

bool ends_declarator(const token& t) {
  return t.is(";") || t.is(",") || t.is("=") || t.is("{") || t.is("}") || t.is("(") ||
         t.is(")") || t.is("[");
}

// The arrays declared `__shared__` that no declaration makes `volatile`: the identifiers from the
// start of the declaration to the end of its first declarator. Declarations are short: a few
// dozen tokens.
std::set<std::string, std::less<>> plain_shared_arrays(const tokens& t) {
  constexpr std::size_t reach = 64;
  std::set<std::string, std::less<>> plain;
  std::set<std::string, std::less<>> qualified;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t[i].is("__shared__")) {
      continue;
    }
    bool is_volatile = false;
    for (std::size_t k = i; k-- > 0 && i - k <= reach && !ends_declarator(t[k]);) {
      is_volatile = is_volatile || t[k].is("volatile");
    }
    std::string name;
    for (std::size_t k = i + 1; k < t.size() && k <= i + reach && !ends_declarator(t[k]); ++k) {
      is_volatile = is_volatile || t[k].is("volatile");
      name = t[k].kind == token_kind::identifier ? std::string(t[k].text) : name;
    }
    (is_volatile ? qualified : plain).insert(name);
  }
  std::erase_if(plain, [&](const std::string& n) { return qualified.contains(n); });
  return plain;
}

// Whether `name`, a parameter of `f`, is declared without `volatile` (`float* sdata`); nullopt
// when it is no parameter.
std::optional<bool> plain_parameter(const tokens& t, std::size_t params_open,
                                    std::size_t params_close, std::string_view name) {
  for (std::size_t k = params_open + 1; k < params_close; ++k) {
    if (!t[k].is(name)) {
      continue;
    }
    for (std::size_t j = k; j-- > params_open + 1 && !t[j].is(",");) {
      if (t[j].is("volatile")) {
        return false;
      }
    }
    return true;
  }
  return std::nullopt;
}

class function_reader {
public:
  function_reader(const std::string& code, const tokens& t, const function_tokens& f,
                  const std::set<std::string, std::less<>>& shared_arrays, const source_code::line_index& lines)
      : m_code(code), m_t(t), m_f(f), m_shared_arrays(shared_arrays), m_lines(lines) {}

  void read(std::vector<warp_step_run>& out) {
    for (std::size_t i = m_f.open + 1; i < m_f.close; ++i) {
      if (synchronises(m_t[i])) {
        flush(out);
        continue;
      }
      const std::size_t last = step_end(m_code, m_t, i, m_f.close);
      if (last == npos || !eligible(m_t[i].text)) {
        continue;
      }
      add_step(i, last);
      i = last;
    }
    flush(out);
  }

private:
  // A pointer parameter of this function not declared volatile, or else a shared array that no
  // declaration makes volatile.
  bool eligible(std::string_view array) const {
    return plain_parameter(m_t, m_f.params, m_f.open - 1, array)
        .value_or(m_shared_arrays.contains(array));
  }

  void add_step(std::size_t first, std::size_t last) {
    const std::string array(m_t[first].text);
    auto [it, fresh] = m_runs.try_emplace(array);
    warp_step_run& run = it->second;
    if (fresh) {
      run = {m_f.name, array, line_at(first), line_at(first), 0,
             squeezed(std::string_view(m_code).substr(m_t[first].begin,
                                                      m_t[last].begin - m_t[first].begin))};
    }
    run.last_line = line_at(first);
    ++run.count;
  }

  void flush(std::vector<warp_step_run>& out) {
    for (auto& [array, run] : m_runs) {
      const bool reported = m_reported.contains(array);
      if (run.count >= 2 && !reported) {
        out.push_back(run);
        m_reported.insert(array);
      }
    }
    m_runs.clear();
  }

  int line_at(std::size_t token_index) const {
    return m_lines.line_of(m_t[token_index].begin);
  }

  const std::string& m_code;
  const tokens& m_t;
  const function_tokens& m_f;
  const std::set<std::string, std::less<>>& m_shared_arrays;
  const source_code::line_index& m_lines;
  std::map<std::string, warp_step_run> m_runs;
  std::set<std::string> m_reported;
};

} // namespace

std::vector<warp_step_run> unsynced_warp_steps(std::string_view source) {
  const source_code::launcher_code whole{source_code::code_only(source), std::nullopt};
  return unsynced_warp_steps_of(tokens_of(whole));
}

std::vector<warp_step_run> unsynced_warp_steps_of_launcher(std::string_view source,
                                                           std::string_view launcher) {
  return unsynced_warp_steps_of(tokens_of(source_code::launcher_code_of(source, launcher)));
}

std::vector<warp_step_run> unsynced_warp_steps_of(const launcher_tokens& read) {
  const auto shared_arrays = plain_shared_arrays(read.t);
  std::vector<warp_step_run> out;
  for (const auto& f : read.functions) {
    function_reader(read.code, read.t, f, shared_arrays, read.lines).read(out);
  }
  return out;
}

} // namespace cugrade::grader
