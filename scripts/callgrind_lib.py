"""Helpers of scripts/callgrind-create and scripts/callgrind-chain: a Swift release build made
ready for Debian's valgrind 3.19. Standard library only.

Two workarounds: valgrind cannot read the DWARF 5 of a Swift release build, so it runs a copy with
the debug info stripped (the symbol table stays: costs are by function); and it writes into the
signal mask a thread passes to rt_sigsuspend, which crashes it when libdispatch's main thread (an
async `main` parks there) passes a constant one, so a preloaded shim passes a copy on the stack.
"""

import os
import subprocess

SIGSUSPEND_SHIM = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
"""


def prepare_for_valgrind(binary, folder):
    """Copies `binary` into `folder` without its debug info and builds the shim there; returns
    the copy's path and the shim's (for LD_PRELOAD)."""
    stripped = os.path.join(folder, os.path.basename(binary))
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    shim = os.path.join(folder, "sigsuspend-shim.so")
    with open(shim + ".c", "w") as source:
        source.write(SIGSUSPEND_SHIM)
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", shim, shim + ".c"], check=True)
    return stripped, shim
