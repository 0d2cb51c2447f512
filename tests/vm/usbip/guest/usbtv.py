#!/usr/bin/env python3
# The real usbtv driver (drivers/media/usb/usbtv) and dev-usbtv.c's USBTV007:
# the raw dongles' matrix (rawdev.py) with YUYV and usbtv-audio.c's card,
# and the archival captures through that card (usbtv_archive.py), before
# the unplug.
import rawdev
import usbtv_archive
from rawdev import main

_at = [n for n, _ in rawdev.CHECKS].index("unplug")
rawdev.CHECKS[_at:_at] = usbtv_archive.CHECKS

main("usbtv", "usbtv", "YUY2", "usbtv")
