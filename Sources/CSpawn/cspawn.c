#define _GNU_SOURCE
#include "cspawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/// In the child: reports `err` through the exec-status pipe and exits.
static void fail_child(int status_fd, int err) {
    ssize_t n;
    do { n = write(status_fd, &err, sizeof err); } while (n < 0 && errno == EINTR);
    _exit(127);
}

/// Moves `fd` onto `target` (or /dev/null there when fd is -1).
static int place(int fd, int target) {
    if (fd < 0) {
        int null_fd = open("/dev/null", O_RDWR);
        if (null_fd < 0) return errno;
        if (null_fd != target) {
            if (dup2(null_fd, target) < 0) return errno;
            close(null_fd);
        }
        return 0;
    }
    if (fd == target) {
        int flags = fcntl(fd, F_GETFD);
        if (flags >= 0) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
        return 0;
    }
    return dup2(fd, target) < 0 ? errno : 0;
}

int cspawn(const char *path, char *const argv[], int in_fd, int out_fd, int err_fd, pid_t *pid_out) {
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0) return errno;
    // No signal handler may run in the child before exec: block everything across fork.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        int s = status_pipe[1];
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail_child(s, errno);
        if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
        setpgid(0, 0);
        for (int sig = 1; sig < NSIG; sig++) {
            if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
        }
        // Descriptors 0-2 may be among the ones handed in: move those out of the way first.
        int fds[3] = { in_fd, out_fd, err_fd };
        for (int i = 0; i < 3; i++) {
            if (fds[i] >= 0 && fds[i] <= 2) {
                int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
                if (moved < 0) fail_child(s, errno);
                for (int j = i + 1; j < 3; j++) if (fds[j] == fds[i]) fds[j] = moved;
                fds[i] = moved;
            }
        }
        for (int i = 0; i < 3; i++) {
            int e = place(fds[i], i);
            if (e) fail_child(s, e);
        }
        // Close every other descriptor except the status pipe (close-on-exec).
#ifdef SYS_close_range
        if (s > 3) syscall(SYS_close_range, 3, (unsigned)s - 1, 0);
        if (syscall(SYS_close_range, (unsigned)s + 1, ~0U, 0) != 0)
#endif
        {
            struct rlimit rl;
            int max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
            for (int fd = 3; fd < max; fd++) if (fd != s) close(fd);
        }
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, environ);
        fail_child(s, errno);
    }
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(status_pipe[1]);
    if (pid < 0) {
        close(status_pipe[0]);
        return fork_errno;
    }
    int child_errno = 0;
    ssize_t n;
    do { n = read(status_pipe[0], &child_errno, sizeof child_errno); } while (n < 0 && errno == EINTR);
    close(status_pipe[0]);
    if (n == (ssize_t)sizeof child_errno) {
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
        return child_errno ? child_errno : ECHILD;
    }
    *pid_out = pid;
    return 0;
}

int cspawn_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
}
