// libFuzzer's driver, which clang's fuzzer runtime exports (linked by -sanitize=fuzzer). The
// fuzz executable calls it from the main function SwiftPM gives executables.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
