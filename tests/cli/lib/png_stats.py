#!/usr/bin/env python3
"""Prints what a PNG shows, for tests: `WIDTH HEIGHT COLOURS INK` where
COLOURS is the number of distinct pixel values and INK the fraction of
pixels that differ from the most common one (the background). Decodes the
file itself (zlib, the five row filters; 8-bit greyscale, RGB, RGBA, no
interlacing), so that a blank or corrupt screenshot cannot pass.
Usage: png_stats.py FILE"""
import collections
import struct
import sys
import zlib


def decode(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            raise ValueError("bad CRC in " + kind.decode())
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    if depth != 8 or interlace:
        raise ValueError("unsupported PNG (depth %d, interlace %d)" % (depth, interlace))
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, [r[x:x + bpp] for r in rows for x in range(0, stride, bpp)]


def main():
    w, h, px = decode(open(sys.argv[1], "rb").read())
    counts = collections.Counter(px)
    ink = 1 - counts.most_common(1)[0][1] / len(px)
    print(w, h, len(counts), "%.4f" % ink)


if __name__ == "__main__":
    main()
