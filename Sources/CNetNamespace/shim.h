#ifndef HIL_CNETNAMESPACE_SHIM_H
#define HIL_CNETNAMESPACE_SHIM_H
/* setns(2) and CLONE_NEWNET are GNU extensions glibc declares only with _GNU_SOURCE, which Swift's Glibc
   module is not built with. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>

static inline int hil_enter_network_namespace(int fd) { return setns(fd, CLONE_NEWNET); }
#endif
