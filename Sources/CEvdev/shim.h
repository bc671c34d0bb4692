#ifndef HIL_CEVDEV_SHIM_H
#define HIL_CEVDEV_SHIM_H
#include <linux/input.h>
#include <linux/uinput.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#endif
