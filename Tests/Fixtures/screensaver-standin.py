#!/usr/bin/python3
"""A stand-in org.freedesktop.ScreenSaver for the kiosk's idle-inhibit test.

Owns org.freedesktop.ScreenSaver on the session bus ($DBUS_SESSION_BUS_ADDRESS) and serves
Inhibit(app, reason) -> cookie and UnInhibit(cookie) at /org/freedesktop/ScreenSaver. After every
call it rewrites STATE_FILE (argv[1]) with one line:
    inhibits=N uninhibits=M active=K last_inhibit=T unknown=U
where T is time.monotonic() (CLOCK_MONOTONIC) of the last Inhibit and U counts UnInhibit calls
with a cookie it never gave. Writes "ready" to the file once the name is owned.
"""
import os
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

state_path = sys.argv[1]


class ScreenSaver(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/ScreenSaver")
        self.next = 1
        self.active = set()
        self.inhibits = 0
        self.uninhibits = 0
        self.unknown = 0
        self.last = 0.0

    def save(self):
        tmp = state_path + ".tmp"
        with open(tmp, "w") as f:
            f.write("inhibits=%d uninhibits=%d active=%d last_inhibit=%.6f unknown=%d\n"
                    % (self.inhibits, self.uninhibits, len(self.active), self.last, self.unknown))
        os.rename(tmp, state_path)

    @dbus.service.method("org.freedesktop.ScreenSaver", in_signature="ss", out_signature="u")
    def Inhibit(self, app, reason):
        cookie = self.next
        self.next += 1
        self.active.add(cookie)
        self.inhibits += 1
        self.last = time.monotonic()
        self.save()
        return dbus.UInt32(cookie)

    @dbus.service.method("org.freedesktop.ScreenSaver", in_signature="u", out_signature="")
    def UnInhibit(self, cookie):
        self.uninhibits += 1
        if cookie in self.active:
            self.active.remove(cookie)
        else:
            self.unknown += 1
        self.save()


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.ScreenSaver", bus)
service = ScreenSaver(bus)
service.save()
with open(state_path + ".ready", "w") as f:
    f.write("ready\n")
GLib.MainLoop().run()
