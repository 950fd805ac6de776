#!/usr/bin/env python3
"""Writes the binary seed inputs of the fuzz targets command_packets and mmio (their formats are
described at the top of command_packets.cpp and mmio.cpp) into tests/fuzz/<target>/seeds/.
The text targets' seeds (ptx_loader, config_loader, mem_trace) are plain files, edited by hand.

Addresses assume the harness's platform (soc_harness.h): configs/small.json, host DRAM from
4 GiB, the input's scratch 16 MiB into it, VRAM from 0x2'0000'0000 (the resident module's PTX
in its first bytes)."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SCRATCH = 0x1_0000_0000 + (16 << 20)
VRAM = 0x2_0000_0000
RESIDENT_STORE_IDS = 0xFFFF_FFF0 << 32  # handles the harness maps to the resident module's copy
RESIDENT_SPIN = RESIDENT_STORE_IDS | 1
INTR = 1  # kFlagInterrupt

NOP, LAUNCH, COPY, MEMSET, SEM_ACQUIRE, SEM_RELEASE, FENCE, MODULE_LOAD, MODULE_UNLOAD = range(9)


def packet(opcode, *args, flags=0):
    args = list(args) + [0] * (7 - len(args))
    return struct.pack("<II7Q", opcode, flags, *args)


def descriptor(kernel, grid, block, param_bytes, param_address, stats_address=0, shared=0):
    return struct.pack("<Q3I3IIIQQ", kernel, *grid, *block, shared, param_bytes, param_address,
                       stats_address)


class Body:
    """The ring and the data after it, as the input's body (host address SCRATCH + offset)."""

    def __init__(self):
        self.data = bytearray()

    def at(self, offset, blob):
        if len(self.data) < offset + len(blob):
            self.data.extend(bytes(offset + len(blob) - len(self.data)))
        self.data[offset:offset + len(blob)] = blob
        return SCRATCH + offset


def packets_input(packets, ring_size=4096, channel=0, log_bytes=4096, put=None, put_again=None,
                  data=()):
    body = Body()
    for i, p in enumerate(packets):
        body.at(64 * i, p)
    for offset, blob in data:
        body.at(offset, blob)
    put = 64 * len(packets) if put is None else put
    put_again = put if put_again is None else put_again
    return struct.pack("<5I", ring_size, put, channel, log_bytes, put_again) + bytes(body.data)


def read_file(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def command_packets():
    seeds = {}
    fence = SCRATCH + 0x3000
    seeds["fence_nop.bin"] = packets_input(
        [packet(NOP, flags=INTR), packet(FENCE, fence, 0x1234, flags=INTR)])
    seeds["copy_memset.bin"] = packets_input(
        [packet(MEMSET, VRAM + (1 << 20), 4096, 0xAB, 1),
         packet(MEMSET, VRAM + (1 << 20) + 4096, 64, 0xBEEF, 2, flags=INTR),
         packet(COPY, SCRATCH + 0x1000, VRAM + (2 << 20), 256, 0),
         packet(COPY, VRAM + (1 << 20), SCRATCH + 0x2000, 256, 1, flags=INTR),
         packet(COPY, VRAM + (1 << 20), VRAM + (3 << 20), 512, 2),
         packet(FENCE, fence, 1)],
        data=[(0x1000, bytes(range(256)))], channel=1)
    seeds["semaphores.bin"] = packets_input(
        [packet(SEM_RELEASE, fence, 5),
         packet(SEM_ACQUIRE, fence, 5, 100),
         packet(SEM_ACQUIRE, fence, 4, 0),
         packet(FENCE, fence + 16, 7, flags=INTR)], channel=2)
    seeds["launch_store_ids.bin"] = packets_input(
        [packet(LAUNCH, SCRATCH + 0x400), packet(FENCE, fence, 1, flags=INTR)],
        data=[(0x400, descriptor(RESIDENT_STORE_IDS, (4, 1, 1), (64, 1, 1), 12, SCRATCH + 0x480,
                                 SCRATCH + 0x500)),
              (0x480, struct.pack("<QI", VRAM + (1 << 20), 200))])
    seeds["launch_spin.bin"] = packets_input(
        [packet(LAUNCH, SCRATCH + 0x400),
         packet(LAUNCH, SCRATCH + 0x440),
         packet(FENCE, fence, 1)],
        data=[(0x400, descriptor(RESIDENT_SPIN, (2, 1, 1), (32, 1, 1), 4, SCRATCH + 0x480)),
              (0x440, descriptor(RESIDENT_SPIN, (1, 1, 1), (32, 1, 1), 4, SCRATCH + 0x488,
                                 SCRATCH + 0x500)),
              (0x480, struct.pack("<I", 100)),
              (0x488, struct.pack("<I", 1 << 30))], channel=3)  # the second hits the watchdog
    ptx = read_file("sw/kernels/saxpy.ptx")
    report = read_file("sw/kernels/saxpy.sm_80.ptxas")
    seeds["module_load.bin"] = packets_input(
        [packet(COPY, SCRATCH + 0x800, VRAM + (4 << 20), len(ptx), 0),
         packet(COPY, SCRATCH + 0x1000, VRAM + (5 << 20), len(report), 0),
         packet(MODULE_LOAD, VRAM + (4 << 20), len(ptx), SCRATCH + 0x8000, 16384,
                VRAM + (5 << 20), len(report)),
         packet(MODULE_LOAD, VRAM + (4 << 20), len(ptx), SCRATCH + 0xC000, 40),
         packet(MODULE_UNLOAD, 0xFFFF),
         packet(FENCE, fence, 1)],
        data=[(0x800, ptx), (0x1000, report)])
    # Four slots: three packets, then PUT wraps to 64 (slot 3, then slot 0 again).
    seeds["ring_wrap.bin"] = packets_input(
        [packet(NOP), packet(FENCE, fence, 1), packet(NOP, flags=INTR), packet(FENCE, fence, 2)],
        ring_size=256, put=192, put_again=64)
    seeds["errors.bin"] = packets_input(
        [packet(99),
         packet(NOP, flags=0x80),
         packet(FENCE, fence + 4, 1),
         packet(COPY, SCRATCH, VRAM, 64, 7),
         packet(MEMSET, VRAM, 9, 1, 3),
         packet(COPY, 0x10, VRAM, 64, 0),
         packet(LAUNCH, SCRATCH + 0x400),
         packet(MODULE_UNLOAD, 1 << 40),
         packet(FENCE, fence, 1)],
        data=[(0x400, descriptor(0x77 << 32, (1, 1, 1), (1, 1, 1), 0, 0))], log_bytes=16)
    seeds["bad_ring.bin"] = packets_input([packet(NOP)], ring_size=100)
    return seeds


# mmio ----------------------------------------------------------------------------------------
W, R, PAUSE, BAR1, CFG = 0, 3, 5, 6, 7
ID, VERSION, NUM_CHANNELS, BAR1_WINDOW_LO = 0x0, 0x4, 0x18, 0x20
INTR_STATUS, INTR_MASK, INTR_CLEAR, ERROR_STATUS, ERROR_CLEAR, ERROR_OFFSET = (
    0x100, 0x104, 0x108, 0x110, 0x114, 0x118)


MC = 0x2000  # the memory checker: CONTROL, ADDRESS_LO/HI, BYTES_LO/HI, COMMAND, STATUS, LIVE_REGIONS
VRAM = 0x200000000


def ch(n, reg):
    return 0x10000 + 0x100 * n + reg


def w(offset, value, width=0):
    return struct.pack("<BBIQ", W, width, offset, value)


def r(offset, width=0):
    return struct.pack("<BBI", R, width, offset)


def pause(units):
    return struct.pack("<BH", PAUSE, units)


def bar1(offset, value, width=0, write=False):
    return struct.pack("<BBIQ", BAR1 | (8 if write else 0), width, offset, value)


def cfg(offset, value=0, width=0, write=False):
    return struct.pack("<BBHQ", CFG | (8 if write else 0), width, offset, value)


def mmio():
    seeds = {}
    seeds["identity.bin"] = b"".join(
        r(o) for o in (ID, VERSION, 0x8, 0xC, 0x10, 0x14, NUM_CHANNELS, 0x1C, BAR1_WINDOW_LO, 0x24,
                       INTR_STATUS, INTR_MASK, ERROR_STATUS, ERROR_OFFSET, 0x1000, 0x1004, 0x1100,
                       0x1114, ch(0, 0x18), ch(7, 0x34)))
    seeds["errors.bin"] = b"".join([
        w(INTR_MASK, 7), w(ID, 1), r(2, width=4), w(0x1001, 5, width=5), r(0x2000), r(0xFFFFC),
        w(ch(0, 0x10), 3), r(ERROR_STATUS), r(ERROR_OFFSET), r(INTR_STATUS), w(ERROR_CLEAR, 0x1F),
        w(INTR_CLEAR, 7), r(ch(9, 0x00)), r(0x1300), r(ERROR_STATUS)])
    scratch_lo, scratch_hi = SCRATCH & 0xFFFFFFFF, SCRATCH >> 32
    seeds["channel.bin"] = b"".join([
        w(INTR_MASK, 3), w(ch(1, 0x00), scratch_lo), w(ch(1, 0x04), scratch_hi),
        w(ch(1, 0x08), 4096), w(ch(1, 0x0C), 0), w(ch(1, 0x28), scratch_lo + 0x8000),
        w(ch(1, 0x2C), scratch_hi), w(ch(1, 0x30), 256), w(ch(1, 0x34), 1),
        w(ch(1, 0x0C), 128), w(ch(1, 0x14), 1), pause(200), r(ch(1, 0x10)), r(ch(1, 0x18)),
        r(ch(1, 0x1C)), w(ch(1, 0x0C), 100), w(ch(1, 0x14), 1), pause(100), r(ch(1, 0x1C)),
        r(ch(1, 0x20)), w(ch(1, 0x24), 1), w(ch(1, 0x34), 0), w(ch(2, 0x14), 1), pause(10),
        r(ERROR_STATUS)])
    seeds["bar1.bin"] = b"".join([
        bar1(0x100000, 0x0123456789ABCDEF, width=2, write=True), bar1(0x100000, 0, width=2),
        bar1(0x100008, 0, width=7), w(BAR1_WINDOW_LO, 0x10000000), r(BAR1_WINDOW_LO),
        bar1(0x40, 0x55, width=1, write=True), bar1(0xFFFFFFC, 0, width=1),
        w(BAR1_WINDOW_LO, 0x12345), r(BAR1_WINDOW_LO)])
    seeds["config_space.bin"] = b"".join([
        cfg(0x00), cfg(0x04), cfg(0x08), cfg(0x10), cfg(0x34), cfg(0x60), cfg(0x70), cfg(0x82,
                                                                                         width=5),
        cfg(0x10, 0xFFFFFFFF, write=True), cfg(0x10), cfg(0x04, 0, write=True), r(ID),
        cfg(0x04, 6, write=True), r(ID), cfg(0x62, 0, width=5, write=True)])
    seeds["memcheck.bin"] = b"".join([
        w(MC, 3), w(MC + 0x4, VRAM & 0xFFFFFFFF), w(MC + 0x8, VRAM >> 32), w(MC + 0xC, 4096),
        w(MC + 0x10, 0), w(MC + 0x14, 1), r(MC + 0x18), r(MC + 0x1C), w(MC + 0x14, 1),
        r(MC + 0x18), w(MC + 0x14, 2), w(MC + 0x14, 2), r(MC + 0x18), w(MC + 0xC, 0),
        w(MC + 0x14, 1), w(MC + 0x14, 9), w(MC + 0x8, 0xFFFFFFFF), w(MC + 0x14, 1),
        w(MC + 0x14, 3), r(MC + 0x1C), r(MC + 0x20), w(MC + 0x18, 1), r(ERROR_STATUS)])
    return seeds


def write(target, seeds):
    folder = os.path.join(HERE, target, "seeds")
    os.makedirs(folder, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    write("command_packets", command_packets())
    write("mmio", mmio())
