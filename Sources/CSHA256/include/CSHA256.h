// The SHA-256 compression function on the CPU's own instructions (x86-64 SHA-NI, ARMv8 SHA2),
// chosen at run time. FileSystemKit uses it on Linux only; Apple platforms hash with CryptoKit.
// Nothing here is a cryptographic library: one function, the FIPS 180-4 compression over whole
// 64-byte blocks, and a question to the CPU.
#ifndef SHIPYARD_CSHA256_H
#define SHIPYARD_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Which hardware path `shipyard_sha256_compress` takes: 0 none (the caller uses its portable
/// code), 1 x86-64 SHA-NI, 2 ARMv8 SHA2. Asked of the CPU once (cpuid / the kernel's hwcaps).
int shipyard_sha256_hardware(void);

/// Runs the SHA-256 compression function over `blocks` whole 64-byte blocks at `data`, updating
/// `state` (H0…H7). Only call it when `shipyard_sha256_hardware()` is not 0.
void shipyard_sha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
