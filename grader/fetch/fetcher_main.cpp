// cugrade-fetch: one git fetch for the grader, in a process the grader can time out and kill.
#include "grader/fetch/fetcher.h"

int main(int argc, char** argv) {
  return cugrade::fetch::run_fetcher(argc, argv);
}
