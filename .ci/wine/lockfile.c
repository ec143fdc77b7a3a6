/*
 * Holds a file open with no sharing, as an editor or a virus scanner may on Windows, until its
 * standard input closes: .ci/windows.sh's "locked file" check (tests/clients/wine_check.py).
 * Prints "locked" once the file is held, or "failed <error>" and exits 1.
 *
 * Build: x86_64-w64-mingw32-gcc -municode -O2 -s -o lockfile.exe lockfile.c
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
#include <stdio.h>
#include <windows.h>

int wmain(int argc, wchar_t **argv)
{
    if (argc != 2) {
        fputs("usage: lockfile.exe FILE\n", stderr);
        return 2;
    }
    HANDLE h = CreateFileW(argv[1], GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        printf("failed %lu\n", GetLastError());
        return 1;
    }
    puts("locked");
    fflush(stdout);
    char buf[64];
    while (fgets(buf, sizeof buf, stdin))
        ;
    CloseHandle(h);
    return 0;
}
