// The two archive formats of a release, written here with no tool or package: a gzipped POSIX
// ustar (Linux, macOS) and a zip with deflate (Windows). Entries carry a fixed modification time so
// the same inputs always give the same bytes.
import { deflateRawSync } from "node:zlib";

export type ArchiveEntry = { name: string; data: Uint8Array; executable: boolean };

/** 2026-01-01T00:00:00Z: every entry's modification time. */
const FIXED_MTIME_S = 1_767_225_600;

export function tarGz(entries: readonly ArchiveEntry[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const entry of entries) {
    blocks.push(tarHeader(entry));
    blocks.push(entry.data);
    const pad = (512 - (entry.data.length % 512)) % 512;
    if (pad) blocks.push(new Uint8Array(pad));
  }
  blocks.push(new Uint8Array(1024));
  return Bun.gzipSync(concat(blocks), { level: 6 });
}

function tarHeader(entry: ArchiveEntry): Uint8Array {
  const name = new TextEncoder().encode(entry.name);
  if (name.length > 100) throw new Error(`tar entry name ${entry.name} is longer than 100 bytes.`);
  const h = new Uint8Array(512);
  h.set(name, 0);
  const octal = (value: number, at: number, width: number): void => {
    h.set(new TextEncoder().encode(value.toString(8).padStart(width - 1, "0")), at);
  };
  octal(entry.executable ? 0o755 : 0o644, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(entry.data.length, 124, 12);
  octal(FIXED_MTIME_S, 136, 12);
  h[156] = 0x30; // regular file
  h.set(new TextEncoder().encode("ustar\u000000"), 257);
  // The checksum is computed with its own field read as spaces.
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, "0")}\u0000 `), 148);
  return h;
}

export function zip(entries: readonly ArchiveEntry[]): Uint8Array {
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const { time, date } = dosDateTime(new Date(FIXED_MTIME_S * 1000));
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const packed = deflateRawSync(entry.data, { level: 9 });
    const crc = Bun.hash.crc32(entry.data);
    const head = new DataView(new ArrayBuffer(30));
    head.setUint32(0, 0x04034b50, true);
    head.setUint16(4, 20, true); // version needed: 2.0 (deflate)
    head.setUint16(6, 0x0800, true); // names are UTF-8
    head.setUint16(8, 8, true); // deflate
    head.setUint16(10, time, true);
    head.setUint16(12, date, true);
    head.setUint32(14, crc, true);
    head.setUint32(18, packed.length, true);
    head.setUint32(22, entry.data.length, true);
    head.setUint16(26, name.length, true);
    local.push(new Uint8Array(head.buffer), name, packed);

    const dir = new DataView(new ArrayBuffer(46));
    dir.setUint32(0, 0x02014b50, true);
    dir.setUint16(4, (3 << 8) | 20, true); // made by Unix, so the mode bits below are honoured
    dir.setUint16(6, 20, true);
    dir.setUint16(8, 0x0800, true);
    dir.setUint16(10, 8, true);
    dir.setUint16(12, time, true);
    dir.setUint16(14, date, true);
    dir.setUint32(16, crc, true);
    dir.setUint32(20, packed.length, true);
    dir.setUint32(24, entry.data.length, true);
    dir.setUint16(28, name.length, true);
    dir.setUint32(38, ((entry.executable ? 0o100755 : 0o100644) << 16) >>> 0, true);
    dir.setUint32(42, offset, true);
    central.push(new Uint8Array(dir.buffer), name);
    offset += 30 + name.length + packed.length;
  }
  const centralBytes = concat(central);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, centralBytes.length, true);
  end.setUint32(16, offset, true);
  return concat([...local, centralBytes, new Uint8Array(end.buffer)]);
}

function dosDateTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
