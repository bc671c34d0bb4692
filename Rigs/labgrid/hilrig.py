"""The client-side class of the HILRig resource (Rigs/labgrid/exporter.yaml) for labgrid 26.

labgrid's exporter publishes a resource class it does not know as plain parameters, so boxes need no code of ours;
a client that builds a labgrid Target from a place (`labgrid-client -c env.yaml`, or Python tests using
labgrid's pytest plugin) needs the class registered. Load it from an environment file:

    imports:
      - Rigs/labgrid/hilrig.py

hil lab run does not need it: it reads the parameters with `labgrid-client -p PLACE env`.
"""

import attr

from labgrid.factory import target_factory
from labgrid.resource.common import Resource


@target_factory.reg_resource
@attr.s(eq=False)
class HILRig(Resource):
    """A box that runs RemoteTouch HIL's rig.

    Args:
        kind (str): the rig hil picks there: hardware, virtual or vm
        adapters (str): the peripheral's and the central's adapters, "hci0,hci1"
        bluez (str): BlueZ's version on the box
        kernel (str): the kernel's release
        transports (str): the transports it can run, "ble,hid,tcp,udp"
        checkout (str): the project's folder on the box
        hil (str): the hil executable, relative to checkout unless absolute
    """

    kind = attr.ib(default="vm", validator=attr.validators.in_(["hardware", "virtual", "vm"]))
    adapters = attr.ib(default="hci0,hci1", validator=attr.validators.instance_of(str))
    bluez = attr.ib(default="", validator=attr.validators.instance_of(str))
    kernel = attr.ib(default="", validator=attr.validators.instance_of(str))
    transports = attr.ib(default="ble", validator=attr.validators.instance_of(str))
    checkout = attr.ib(default=".", validator=attr.validators.instance_of(str))
    hil = attr.ib(default=".build/debug/hil", validator=attr.validators.instance_of(str))

    def __attrs_post_init__(self):
        super().__attrs_post_init__()
        self.avail = True
