#ifndef HIL_CDBUS_SHIM_H
#define HIL_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
