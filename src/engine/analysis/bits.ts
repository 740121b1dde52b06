// Fixed-size bit sets over small index ranges (the atoms of one input, or the rows of a table). The analysis works
// on these instead of value sets: every condition cell becomes the set of atoms it accepts.

export type Bits = Uint32Array;

export function emptyBits(size: number): Bits {
  return new Uint32Array((size + 31) >>> 5);
}

export function fullBits(size: number): Bits {
  const bits = emptyBits(size);
  for (let i = 0; i < size; i++) bits[i >>> 5]! |= 1 << (i & 31);
  return bits;
}

export function setBit(bits: Bits, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}

export function hasBit(bits: Bits, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}

export function andBits(a: Bits, b: Bits): Bits {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! & b[i]!;
  return out;
}

export function orInto(target: Bits, source: Bits): void {
  for (let i = 0; i < target.length; i++) target[i]! |= source[i]!;
}

export function andInto(target: Bits, source: Bits): void {
  for (let i = 0; i < target.length; i++) target[i]! &= source[i]!;
}

export function isEmpty(bits: Bits): boolean {
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) return false;
  return true;
}

export function intersects(a: Bits, b: Bits): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i]! & b[i]!) !== 0) return true;
  return false;
}

/** a ⊆ b */
export function isSubset(a: Bits, b: Bits): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i]! & ~b[i]!) !== 0) return false;
  return true;
}

export function sameBits(a: Bits, b: Bits): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function countBits(bits: Bits): number {
  let count = 0;
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i]!;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    count += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return count;
}

/** The indexes of the set bits, ascending. */
export function bitIndexes(bits: Bits, limit = bits.length * 32): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let v = bits[w]!;
    while (v !== 0) {
      const low = v & -v;
      const i = (w << 5) + (31 - Math.clz32(low));
      if (i >= limit) return out;
      out.push(i);
      v ^= low;
    }
  }
  return out;
}

export function firstBit(bits: Bits): number {
  for (let w = 0; w < bits.length; w++) {
    const v = bits[w]!;
    if (v !== 0) return (w << 5) + (31 - Math.clz32(v & -v));
  }
  return -1;
}

/** A string equal for equal sets, to group or intern them. */
export function bitsKey(bits: Bits): string {
  let key = '';
  for (let i = 0; i < bits.length; i++) key += String.fromCharCode(bits[i]! & 0xffff, bits[i]! >>> 16);
  return key;
}
