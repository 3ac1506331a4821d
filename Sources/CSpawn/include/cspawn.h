// Starting a child process that dies with its parent.
//
// Why C: the child must ask the kernel for PR_SET_PDEATHSIG between fork and exec, so an
// ffmpeg or ffprobe started by chartreel is killed even when chartreel itself is
// SIGKILLed (a stuck encoder would otherwise run on, holding the output's temporary
// file). Neither Foundation's Process nor posix_spawn can do that, and prctl is variadic,
// which Swift does not call. Between fork and exec the child makes only
// async-signal-safe calls, as a child of a multithreaded process must.
#ifndef CSPAWN_H
#define CSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` (NULL-terminated, argv[0] first) and the parent's
/// environment. The child's stdin, stdout and stderr are `in_fd`, `out_fd` and `err_fd`
/// (-1: /dev/null); every other descriptor is closed. The child gets its own process
/// group (so a terminal's Ctrl-C reaches only the parent, which decides how the child
/// ends), default signal dispositions and an empty signal mask, and SIGKILL when the
/// thread that started it exits. Returns 0 and stores the child's pid in `pid_out`, or
/// the errno that stopped fork or exec (the child has then been reaped).
int cspawn(const char *path, char *const argv[], int in_fd, int out_fd, int err_fd, pid_t *pid_out);

/// A pipe whose two ends are close-on-exec (pipe2 with O_CLOEXEC, which Glibc's Swift
/// module does not declare): 0, or the errno.
int cspawn_pipe(int fds[2]);

// Signals read by one thread. A signal handled where it lands interrupts whatever that
// thread was doing, and libdispatch's signal sources install their handler late, on their
// own thread, so a signal in between is lost (the default action having been turned off
// first). Instead the signals are blocked in the main thread before any other thread
// exists, so every thread inherits the block, and one thread reads them from a signalfd.
// Children started by cspawn get an empty mask back before exec.

/// Blocks `sigs` in the calling thread (and so in every thread it starts afterwards) and
/// returns a close-on-exec signalfd that reads them, or -1.
int cspawn_signals_route(const int *sigs, int n);

/// Waits up to `timeout_ms` (-1: without limit) for a signal on `fd`: its number, 0 when
/// the time ran out, -1 on an error.
int cspawn_signals_next(int fd, int timeout_ms);

/// Ends the process by `sig`'s default action (as if it had never been blocked), which
/// for the routed signals is to terminate; 128 + sig if that somehow returns.
void cspawn_signals_die(int sig);

#endif
