// Lets valgrind 3.19 (Debian 12's) run a Swift program with an async main, such as hil, for profiling with
// callgrind (docs/developing.md, "Replay at scale"). libdispatch's main thread waits in sigsuspend() with a mask in
// read-only memory, and valgrind 3.19 writes into the mask it is given: "VALGRIND INTERNAL ERROR: Valgrind
// received a signal 11 (SIGSEGV)" at start. This hands sigsuspend a copy on the stack instead.
//
//   gcc -shared -fPIC -O2 -o /tmp/valgrind-sigsuspend.so Benchmarks/valgrind-sigsuspend.c -ldl
//   LD_PRELOAD=/tmp/valgrind-sigsuspend.so valgrind --tool=callgrind .build/debug/hil replay -q FILE.json
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>

int sigsuspend(const sigset_t *mask) {
    static int (*next)(const sigset_t *);
    if (!next) next = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
    sigset_t copy = *mask;
    return next(&copy);
}
