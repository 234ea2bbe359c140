#pragma once
/// \file
/// A small JSON Schema validator for the subset of draft 2020-12 that
/// reports/schema/report.schema.json uses.
///
/// Kept deliberately instead of valijson, Debian's header-only C++ validator: in Debian 12
/// libvalijson-dev (1.0) declares hard dependencies on the development packages of every adapter
/// it ships (qtbase5-dev, libpoco-dev, libjsoncpp-dev, libyaml-cpp-dev, rapidjson-dev,
/// picojson-dev), 67 packages on a fresh machine with Qt 5, Poco and the MariaDB client among
/// them, for a check that only the tests and cugrade-validate-report run. Revisit when the
/// package drops those dependencies (the nlohmann adapter needs none of them).
///
/// Keywords checked:
/// type (a name or an array of names, "integer" included), enum, const, required, properties,
/// additionalProperties (false or a schema), items, minItems, maxItems, minimum, maximum,
/// exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern (ECMAScript, std::regex,
/// unanchored as the standard says), $ref to "#" or "#/$defs/..." (any local JSON pointer),
/// allOf, anyOf, oneOf, not, if/then/else; boolean schemas. Annotations ($schema, $id, $comment,
/// $defs, title, description, default, examples, format) are ignored. Any other keyword is
/// reported as an error, so a schema can never rely on a check this validator would skip.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cugrade::reports {

/// Every way `doc` breaks `schema`, each message starting with the JSON pointer of the offending
/// value ("(root)" for the document itself), e.g.
/// `/kernels/0/status: "pass" is not one of ["passed","failed",...]`. Empty when valid.
/// Mistakes in the schema itself are reported as messages starting with "schema error".
[[nodiscard]] std::vector<std::string> validate(const nlohmann::json& schema,
                                                const nlohmann::json& doc);

/// validate() against the schema file at `schema_path`; a file that cannot be read or parsed
/// gives one message naming it.
[[nodiscard]] std::vector<std::string> validate_report(const nlohmann::json& doc,
                                                       const std::filesystem::path& schema_path);

/// validate() against the report schema compiled into this library (the file as of the build).
[[nodiscard]] std::vector<std::string> validate_report(const nlohmann::json& doc);

/// The report schema compiled into this library.
[[nodiscard]] const nlohmann::json& report_schema();

} // namespace cugrade::reports
