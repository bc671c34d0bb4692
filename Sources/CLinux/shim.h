#ifndef HIL_CLINUX_SHIM_H
#define HIL_CLINUX_SHIM_H
/* Five GNU extensions of glibc that Swift's Glibc module, built without _GNU_SOURCE, does not declare. They are
   declared here by hand rather than by defining _GNU_SOURCE, which would give this module's copies of the system
   types (pid_t, fd_set…) other definitions than Glibc's. */
#include <spawn.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

extern int setns(int fd, int nstype);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
extern int pipe2(int fds[2], int flags);
extern int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout, const sigset_t *mask);

/* setns(2) into a network namespace (CLONE_NEWNET, linux/sched.h). */
static inline int hil_enter_network_namespace(int fd) { return setns(fd, 0x40000000); }

/* A spawned child closes every descriptor from `from` on (glibc 2.34+), so it inherits no other thread's pipe. */
static inline int hil_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

/* A pipe whose ends are closed on exec, made atomically (O_CLOEXEC, 02000000), so no child spawned meanwhile by
   another thread inherits it. */
static inline int hil_pipe_close_on_exec(int fds[2]) { return pipe2(fds, 02000000); }

/* A spawned child starts in `path` (glibc 2.29+). */
static inline int hil_spawn_change_directory(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
/* poll(2) with a timeout in nanoseconds (poll's own is in milliseconds, rounded up): the radio bridge releases packets
   at connection events to well under a millisecond. `fds` points to `count` struct pollfd; a negative `nanoseconds`
   waits without a limit. Returns as poll does (-1 with errno EINTR when a signal came). */
static inline int hil_poll_nanoseconds(void *fds, unsigned long count, long long nanoseconds) {
    if (nanoseconds < 0) return ppoll((struct pollfd *)fds, (nfds_t)count, 0, 0);
    struct timespec timeout = { (time_t)(nanoseconds / 1000000000LL), (long)(nanoseconds % 1000000000LL) };
    return ppoll((struct pollfd *)fds, (nfds_t)count, &timeout, 0);
}
#endif
