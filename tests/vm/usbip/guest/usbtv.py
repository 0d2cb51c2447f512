#!/usr/bin/env python3
# The real usbtv driver (drivers/media/usb/usbtv) and dev-usbtv.c's USBTV007:
# the raw dongles' matrix (rawdev.py) with YUYV and usbtv-audio.c's card,
# and the archival capture through that card (usbtv_archive.py), last: the
# slowest check (minutes under TCG) cannot crowd out the others.
import rawdev
import usbtv_archive
from rawdev import main

rawdev.CHECKS.extend(usbtv_archive.CHECKS)

main("usbtv", "usbtv", "YUY2", "usbtv")
