#include "grader/fetch/detail/remote_callbacks.h"

#include <cstdlib>

namespace cugrade::fetch::detail {
namespace {

enum tried_bits : unsigned { tried_key_file = 1, tried_agent = 2, tried_token = 4, tried_user = 8 };

const char* env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return (value != nullptr && *value != '\0') ? value : fallback;
}

/// Marks `bit` tried and reports whether it had been tried before.
bool already_tried(remote_context& context, unsigned bit) {
  const bool before = (context.tried & bit) != 0;
  context.tried |= bit;
  return before;
}

int ssh_credential(git_credential** out, const char* user, remote_context& context) {
  const char* key_file = env_or("CUGRADE_SSH_KEY", nullptr);
  if (key_file != nullptr && !already_tried(context, tried_key_file))
    return git_credential_ssh_key_new(out, user, nullptr, key_file,
                                      env_or("CUGRADE_SSH_PASSPHRASE", nullptr));
  if (!already_tried(context, tried_agent))
    return git_credential_ssh_key_from_agent(out, user);
  context.credential_error = "the ssh server refused every key offered (ssh-agent" +
                             std::string(key_file ? " and CUGRADE_SSH_KEY" : "") +
                             "); add the grader's key to the repository or to ssh-agent";
  return GIT_EUSER;
}

int token_credential(git_credential** out, const char* user, remote_context& context) {
  const char* token = env_or("CUGRADE_GIT_TOKEN", nullptr);
  if (token == nullptr) {
    context.credential_error = "the server asks for a user name and password; set "
                               "CUGRADE_GIT_TOKEN (and CUGRADE_GIT_USERNAME) to an access token";
    return GIT_EUSER;
  }
  if (already_tried(context, tried_token)) {
    context.credential_error = "the server rejected CUGRADE_GIT_TOKEN; check that the token "
                               "is valid and may read this repository";
    return GIT_EUSER;
  }
  return git_credential_userpass_plaintext_new(out, env_or("CUGRADE_GIT_USERNAME", user), token);
}

int acquire_credential(git_credential** out, const char* /*url*/, const char* username_from_url,
                       unsigned int allowed_types, void* payload) {
  auto& context = *static_cast<remote_context*>(payload);
  const char* user = (username_from_url != nullptr && *username_from_url != '\0')
                         ? username_from_url
                         : env_or("CUGRADE_GIT_USERNAME", "git");
  // ssh asks for a user name first when the URL carries none.
  if ((allowed_types & GIT_CREDENTIAL_USERNAME) != 0 && !already_tried(context, tried_user))
    return git_credential_username_new(out, user);
  if ((allowed_types & GIT_CREDENTIAL_SSH_KEY) != 0)
    return ssh_credential(out, user, context);
  if ((allowed_types & GIT_CREDENTIAL_USERPASS_PLAINTEXT) != 0)
    return token_credential(out, user, context);
  context.credential_error = "the server asks for a kind of credential cugrade does not support "
                             "(it supports ssh keys and https tokens)";
  return GIT_EUSER;
}

/// Reports `phase done/total` when the whole percentage changes, so a big clone prints ~100 lines.
void report(remote_context& context, int& last, const char* phase, unsigned done, unsigned total) {
  if (context.progress == nullptr || !*context.progress || total == 0)
    return;
  const int percent = static_cast<int>(100ull * done / total);
  if (percent == last)
    return;
  last = percent;
  (*context.progress)(std::string(phase) + " " + std::to_string(percent) + "% (" +
                      std::to_string(done) + "/" + std::to_string(total) + ")");
}

int transfer_progress(const git_indexer_progress* stats, void* payload) {
  auto& context = *static_cast<remote_context*>(payload);
  context.received_bytes = stats->received_bytes;
  if (context.max_bytes != 0 && stats->received_bytes > context.max_bytes) {
    context.over_limit = true;
    return -1; // libgit2 stops the download and reports a user error
  }
  report(context, context.last_objects_percent, "receiving objects", stats->received_objects,
         stats->total_objects);
  if (stats->received_objects == stats->total_objects)
    report(context, context.last_deltas_percent, "resolving deltas", stats->indexed_deltas,
           stats->total_deltas);
  return 0;
}

} // namespace

git_remote_callbacks make_remote_callbacks(remote_context& context) {
  git_remote_callbacks callbacks = GIT_REMOTE_CALLBACKS_INIT;
  callbacks.credentials = acquire_credential;
  callbacks.transfer_progress = transfer_progress;
  callbacks.payload = &context;
  return callbacks;
}

} // namespace cugrade::fetch::detail
