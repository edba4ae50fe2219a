#!/bin/sh
(sleep 1.5; xdotool keydown Control_L) &
exec $BIN run --size 3840x2160 --replay enlarge.jsonl
