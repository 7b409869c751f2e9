#include "CLinuxEvents.h"

#ifdef __linux__
#include <sys/prctl.h>

void wirekit_set_thread_name(const char *name) {
    // PR_SET_NAME copies at most 16 bytes, the terminator included.
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
#endif
