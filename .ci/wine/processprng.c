/*
 * A stand-in for Windows' bcryptprimitives.dll, for running soppo.exe under Wine 8 only.
 *
 * Rust's standard library (1.78 and later) takes its random bytes from `ProcessPrng` in
 * bcryptprimitives.dll, which every Windows from 10 on has and Wine 8 lacks, so the .exe does
 * not even start there. .ci/windows.sh builds this file with MinGW-w64 into a
 * bcryptprimitives.dll beside the .exe it tests: `ProcessPrng` on top of `RtlGenRandom`
 * (exported by advapi32.dll as `SystemFunction036`), which Wine has. It is never shipped: the
 * release archive holds no DLL.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll processprng.c -ladvapi32
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a ULONG length: fill larger requests in pieces. */
    while (length > 0) {
        ULONG piece = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
