// Host launchers with the histogram contract, for the fake runner: FAKE_SPIN_US is how long a
// call "works" (it spins), FAKE_BEHAVIOUR what it does wrong: 0 nothing, 1 stops writing its
// output after five calls, 2 answers from a cache keyed by the input pointer, 3 modifies its
// input, 4 spins for a random 100 to 150% of FAKE_SPIN_US (a noisy machine), 5 crashes in
// histogram_interleaved (histogram_privatized works).

#include <array>
#include <csignal>
#include <chrono>
#include <cstring>
#include <map>

#ifndef FAKE_SPIN_US
#define FAKE_SPIN_US 1000
#endif
#ifndef FAKE_BEHAVIOUR
#define FAKE_BEHAVIOUR 0
#endif

namespace {

unsigned noise_state = 12345;

// 0 or, for the noisy fake, a pseudo-random 0 to 50% of FAKE_SPIN_US.
long extra_us() {
  if (FAKE_BEHAVIOUR != 4) {
    return 0;
  }
  noise_state = noise_state * 1103515245u + 12345u;
  return static_cast<long>((noise_state >> 16) % 1000u) * FAKE_SPIN_US / 2000;
}

void spin() {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::microseconds(FAKE_SPIN_US + extra_us());
  while (std::chrono::steady_clock::now() < until) {
  }
}

void count(const unsigned char* input, long n, unsigned int* bins) {
  std::memset(bins, 0, 256 * sizeof(unsigned int));
  for (long i = 0; i < n; ++i) {
    ++bins[input[i]];
  }
}

int calls = 0;
std::map<const unsigned char*, std::array<unsigned int, 256>> cache;

} // namespace

extern "C" void histogram_privatized(const unsigned char* input, long n, unsigned int* bins) {
  spin();
  ++calls;
  if (FAKE_BEHAVIOUR == 1 && calls > 5) {
    return;
  }
  if (FAKE_BEHAVIOUR == 2) {
    if (auto it = cache.find(input); it != cache.end()) {
      std::memcpy(bins, it->second.data(), sizeof it->second);
      return;
    }
    count(input, n, bins);
    std::memcpy(cache[input].data(), bins, 256 * sizeof(unsigned int));
    return;
  }
  count(input, n, bins);
  if (FAKE_BEHAVIOUR == 3) {
    const_cast<unsigned char*>(input)[0] ^= 0x5a;
  }
}

// A second launcher (the same work), so a grading can time two kernels (time_all).
extern "C" void histogram_interleaved(const unsigned char* input, long n, unsigned int* bins) {
  if (FAKE_BEHAVIOUR == 5) {
    std::raise(SIGSEGV);
  }
  histogram_privatized(input, n, bins);
}
