#!/usr/bin/env python3
# The real usbtv driver (drivers/media/usb/usbtv) and dev-usbtv.c's USBTV007:
# the raw dongles' matrix (rawdev.py) with YUYV and usbtv-audio.c's card.
from rawdev import main

main("usbtv", "usbtv", "YUY2", "usbtv")
