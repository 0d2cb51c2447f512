#!/usr/bin/env python3
# The real stk1160 driver (drivers/media/usb/stk1160, with saa7115) and
# dev-stk1160.c's EasyCAP: the raw dongles' matrix (rawdev.py) with UYVY and
# snd-usb-audio's card of the same USB device.
from rawdev import main

main("stk1160", "stk1160", "UYVY", "STK1160")
