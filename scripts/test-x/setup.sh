#!/bin/sh
# Installs what the X integration tests need (Debian/Ubuntu), only what is missing.
#
# The tests (Tests/GestureX11Tests, suite "XServerTests") start their own servers:
#   Xvfb                      xvfb
#   Xorg + dummy + inputtest  xserver-xorg-core (Xorg, inputtest_drv.so), xserver-xorg-video-dummy
#   the inputtest header      xserver-xorg-dev (the struct-layout test compiles against it with cc)
#   XTest / XInput 2 client   libx11-dev libx11-xcb-dev libxcb-xinput-dev libxi-dev libxtst-dev (also the app)
#   the app's text            fonts-dejavu-core
#   keymaps for the servers   x11-xkb-utils xkb-data
#   Xwayland under sway       sway xwayland x11-xserver-utils (xhost)
# Xorg is started as root (CI runs as root); the Xorg tests fail with that reason otherwise.
set -eu

need=""
add() { need="$need $*"; }
have() { command -v "$1" >/dev/null 2>&1; }

have Xvfb || add xvfb
{ have Xorg && [ -e /usr/lib/xorg/modules/input/inputtest_drv.so ]; } || add xserver-xorg-core
[ -e /usr/lib/xorg/modules/drivers/dummy_drv.so ] || add xserver-xorg-video-dummy
[ -e /usr/include/xorg/xf86-input-inputtest-protocol.h ] || add xserver-xorg-dev
{ have pkg-config && pkg-config --exists x11 x11-xcb xcb-xinput xi xtst; } || add pkg-config libx11-dev libx11-xcb-dev libxcb-xinput-dev libxi-dev libxtst-dev
{ have cc || have gcc; } || add gcc libc6-dev
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || add fonts-dejavu-core
{ have xkbcomp && [ -d /usr/share/X11/xkb ]; } || add x11-xkb-utils xkb-data
have sway || add sway
have Xwayland || add xwayland
have xhost || add x11-xserver-utils

if [ -n "$need" ]; then
    echo "scripts/test-x/setup.sh: installing$need" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $need >&2
fi
