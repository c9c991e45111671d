// The headphone jack as the kernel reports it: an input device with the switch
// SW_HEADPHONE_INSERT (a sound card's jack, "HDA Intel PCH Headphone").
#include "CLecternLinux.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <string.h>
#include <unistd.h>

#define BITS_PER_LONG (8 * sizeof(unsigned long))
#define LONGS(bits) (((bits) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static int has_bit(const unsigned long *bits, int bit) {
    return (bits[bit / BITS_PER_LONG] >> (bit % BITS_PER_LONG)) & 1;
}

int CLecternLinux_evdev_open_headphone_jack(const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    unsigned long types[LONGS(EV_MAX + 1)];
    unsigned long switches[LONGS(SW_MAX + 1)];
    memset(types, 0, sizeof types);
    memset(switches, 0, sizeof switches);
    if (ioctl(fd, EVIOCGBIT(0, sizeof types), types) < 0 || !has_bit(types, EV_SW) ||
        ioctl(fd, EVIOCGBIT(EV_SW, sizeof switches), switches) < 0 || !has_bit(switches, SW_HEADPHONE_INSERT)) {
        int saved = errno;
        close(fd);
        errno = saved == 0 ? ENODEV : saved;
        return -1;
    }
    return fd;
}

int CLecternLinux_evdev_headphones_in(int fd) {
    unsigned long state[LONGS(SW_MAX + 1)];
    memset(state, 0, sizeof state);
    if (ioctl(fd, EVIOCGSW(sizeof state), state) < 0) return -1;
    return has_bit(state, SW_HEADPHONE_INSERT);
}

int CLecternLinux_evdev_read_headphones(int fd) {
    int result = 2;
    struct input_event events[32];
    for (;;) {
        ssize_t count = read(fd, events, sizeof events);
        if (count < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? result : -1;
        if (count == 0) return result == 2 ? -1 : result;  // the device went away
        for (size_t i = 0; i < (size_t)count / sizeof events[0]; i++) {
            if (events[i].type == EV_SW && events[i].code == SW_HEADPHONE_INSERT) {
                result = events[i].value != 0;
            } else if (events[i].type == EV_SYN && events[i].code == SYN_DROPPED) {
                result = 3;
            }
        }
    }
}

long CLecternLinux_evdev_headphone_event(void *buffer, long size, int inserted) {
    if (size < (long)(2 * sizeof(struct input_event))) return 0;
    struct input_event *events = buffer;
    memset(events, 0, 2 * sizeof(struct input_event));
    events[0].type = EV_SW;
    events[0].code = SW_HEADPHONE_INSERT;
    events[0].value = inserted;
    events[1].type = EV_SYN;
    events[1].code = SYN_REPORT;
    return 2 * sizeof(struct input_event);
}
