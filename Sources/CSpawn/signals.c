// Signals read by one thread instead of handled where they land. See signals in cspawn.h.
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "cspawn.h"

static sigset_t routed_set(const int *sigs, int n) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < n; i++) sigaddset(&set, sigs[i]);
    return set;
}

int cspawn_signals_route(const int *sigs, int n) {
    sigset_t set = routed_set(sigs, n);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC);
}

int cspawn_signals_next(int fd, int timeout_ms) {
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int r = poll(&p, 1, timeout_ms);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) return 0;
        struct signalfd_siginfo info;
        ssize_t got = read(fd, &info, sizeof info);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got != (ssize_t)sizeof info) return -1;
        return (int)info.ssi_signo;
    }
}

void cspawn_signals_die(int sig) {
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}
