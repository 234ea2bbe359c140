#pragma once
/// \file
/// "Did you mean" for mistyped subcommands and options, before CLI11 gives its generic error.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace cugrade::cli {

/// A message like `unknown command "grdae"; did you mean "grade"?`, or nullopt when the command
/// line names a known subcommand and only its known long options.
[[nodiscard]] std::optional<std::string> explain_typo(const CLI::App& app, int argc, char** argv);

} // namespace cugrade::cli
