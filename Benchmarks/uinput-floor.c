/* The floor of the computer's handling (issue 39): what one uinput write of a cursor frame (REL_X, REL_Y, SYN_REPORT
 * in one write(2), as the computer writes it) takes in this kernel, with nothing else around it, at 100 Hz. Prints
 * the p50, p99 and max of the write's duration (CLOCK_MONOTONIC around it), the part of `hil bench`'s "peripheral"
 * stage that no program can remove. An evdev reader holds the device open, as the verifier does.
 *   gcc -O2 -o /tmp/uinput-floor Benchmarks/uinput-floor.c && hil vm exec -- /tmp/uinput-floor 3000
 * Benchmarks/uinput-floor.sh runs it with the guest's other vCPU idle, busy, and holding a reader that waits.
 */
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/ioctl.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The event node of the device named `name`, opened for reading, or -1. */
static int open_reader(const char *name) {
    char path[64], found[256];
    for (int i = 0; i < 64; i++) {
        snprintf(path, sizeof path, "/dev/input/event%d", i);
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        if (fd < 0) continue;
        if (ioctl(fd, EVIOCGNAME(sizeof found), found) >= 0 && strcmp(found, name) == 0) return fd;
        close(fd);
    }
    return -1;
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 3000;
    if (count < 100) { fprintf(stderr, "usage: uinput-floor [COUNT ≥ 100]\n"); return 64; }
    int fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) { perror("open /dev/uinput"); return 1; }
    ioctl(fd, UI_SET_EVBIT, EV_REL);
    ioctl(fd, UI_SET_RELBIT, REL_X);
    ioctl(fd, UI_SET_RELBIT, REL_Y);
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    ioctl(fd, UI_SET_KEYBIT, BTN_LEFT);
    struct uinput_setup setup = {.id = {.bustype = BUS_VIRTUAL, .vendor = 1, .product = 1}};
    strcpy(setup.name, "uinput floor");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) { perror("uinput setup"); return 1; }
    int reader = -1;
    for (int tries = 0; tries < 100 && reader < 0; tries++) { usleep(20000); reader = open_reader("uinput floor"); }
    if (reader < 0) { fprintf(stderr, "no event node for the device\n"); return 1; }
    double *took = calloc(count, sizeof *took);
    struct input_event frame[3];
    struct input_event drain[64];
    for (int i = 0; i < count; i++) {
        memset(frame, 0, sizeof frame);
        frame[0].type = EV_REL; frame[0].code = REL_X; frame[0].value = 1 + i % 7;
        frame[1].type = EV_REL; frame[1].code = REL_Y; frame[1].value = -1;
        frame[2].type = EV_SYN; frame[2].code = SYN_REPORT;
        double start = now_ms();
        if (write(fd, frame, sizeof frame) != sizeof frame) { perror("write"); return 1; }
        took[i] = now_ms() - start;
        while (read(reader, drain, sizeof drain) > 0) {}
        usleep(10000);
    }
    qsort(took, count, sizeof *took, compare);
    printf("uinput write of one cursor frame, %d at 100 Hz: p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", count,
           took[(count - 1) / 2], took[(int)(0.99 * count + 0.5) - 1], took[count - 1]);
    ioctl(fd, UI_DEV_DESTROY);
    return 0;
}
