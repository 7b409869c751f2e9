// The Linux system interfaces WireKit's event loop uses that Swift's Glibc module does not
// bring in: epoll, eventfd and naming a thread. Empty on other platforms (Apple platforms use
// Dispatch sources there).
#ifndef C_LINUX_EVENTS_H
#define C_LINUX_EVENTS_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

/// Names the calling thread (as `ps -L` and debuggers show it); at most 15 bytes are kept.
void wirekit_set_thread_name(const char *name);
#endif

#endif
