"""The bit layout of each opcode, read from the ISA reference text
(Isa.doc): which bits are fixed (opcode/optype/stype...), which must be 0,
and the free fields. Used by the tests to make random words of a chosen
opcode."""

import re

_RANGE = re.compile(r"^\s+(\d+)(?:\.\.(\d+))?\s+(\S+)\s*(.*)$")


class Layout:
    def __init__(self, opcode, fixed_mask, fixed_bits, fields):
        self.opcode = opcode
        self.fixed_mask = fixed_mask  # bits whose value is given (fixed fields, must-be-0 bits)
        self.fixed_bits = fixed_bits
        self.fields = fields          # [(name, lo, width)] free fields
        self.defaults = [d for (_, _, _, d) in fields]  # the value each takes when the text leaves it out
        self.fields = [(n, lo, w) for (n, lo, w, _) in fields]

    def word(self, values):
        """The word with the fixed bits and values[i] in free field i."""
        w = self.fixed_bits
        for (name, lo, width), v in zip(self.fields, values):
            w |= (v & ((1 << width) - 1)) << lo
        return w


def layout(isa, opcode):
    text = isa.doc(opcode)
    enc = text.split("Encoding (bit ranges high..low):", 1)[1]
    mask = bits = 0
    fields = []
    for line in enc.splitlines():
        m = _RANGE.match(line)
        if not m:
            continue
        hi = int(m.group(1))
        lo = int(m.group(2)) if m.group(2) is not None else hi
        name, rest = m.group(3), m.group(4)
        width = hi - lo + 1
        fm = ((1 << width) - 1) << lo
        if name == "-":
            mask |= fm
        elif "==" in rest:
            val = rest.split("==", 1)[1].strip()
            p = re.search(r"\((\d+)\)", val)
            v = int(p.group(1)) if p else int(val.split()[0], 0)
            mask |= fm
            bits |= (v << lo) & fm
        else:
            d = 0
            if "=" in rest:
                val = rest.split("=", 1)[1].strip()
                p = re.search(r"\((\d+)\)", val)
                if p:
                    d = int(p.group(1))
                elif val in ("PT", "UPT"):
                    d = (1 << width) - 1
                elif re.match(r"^\d+$", val):
                    d = int(val)
            fields.append((name, lo, width, d))
    return Layout(opcode, mask, bits, fields)
