#include "grader/cli/typo.h"

#include "grader/spec/suggest.h"

namespace cugrade::cli {

namespace {

std::vector<std::string> long_options(const CLI::App& app) {
  std::vector<std::string> names{"--help"};
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& name : opt->get_lnames()) {
      names.push_back("--" + name);
    }
  }
  return names;
}

std::string with_suggestion(std::string message, const std::string& word,
                            const std::vector<std::string>& candidates) {
  if (auto best = spec::closest_match(word, candidates)) {
    message += "; did you mean \"" + *best + "\"?";
  }
  return message + " (see cugrade --help)";
}

} // namespace

std::optional<std::string> explain_typo(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') {
    return std::nullopt;
  }
  const std::string word = argv[1];
  std::vector<std::string> names;
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : app.get_subcommands({})) {
    names.push_back(s->get_name());
    if (s->get_name() == word) {
      sub = s;
    }
  }
  if (sub == nullptr) {
    return with_suggestion("unknown command \"" + word + "\"", word, names);
  }
  const auto options = long_options(*sub);
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      break;
    }
    if (!arg.starts_with("--")) {
      continue;
    }
    arg = arg.substr(0, arg.find('='));
    if (std::find(options.begin(), options.end(), arg) == options.end()) {
      return with_suggestion("cugrade " + word + ": unknown option \"" + arg + "\"", arg, options);
    }
  }
  return std::nullopt;
}

} // namespace cugrade::cli
