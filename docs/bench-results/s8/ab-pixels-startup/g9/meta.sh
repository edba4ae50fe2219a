M_CMD=/tmp/g9/bin/gestures\ run\ --size\ 1024x768
M_TITLE=Gestures
M_PID_SOURCE=wm_pid=launched
M_SCREEN=1280x800x24
M_EVENTS=2000
M_PACED_RATE=500
M_IDLE=5
