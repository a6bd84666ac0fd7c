// Media bytes the simulator serves for X's media hosts, built in code so the repository ships no binaries: real
// PNG images (a few pixels in a colour taken from the file's key, so every key has its own bytes and content hash)
// and a short MP4 (an ISO base media file: ftyp, moov with one video track of one second, mdat).
import { crc32, deflateSync } from 'node:zlib';
import { hash32 } from './prng.ts';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** An 8x8 truecolour PNG in one colour derived from `key`. */
export function pngFor(key: string): Buffer {
  const size = 8;
  const h = hash32(key);
  const rgb = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter, no interlace
  const row = [0, ...Array.from({ length: size }, () => rgb).flat()];
  const raw = Buffer.from(Array.from({ length: size }, () => row).flat());
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

const u32 = (...ns: number[]) => {
  const b = Buffer.alloc(ns.length * 4);
  ns.forEach((n, i) => b.writeUInt32BE(n >>> 0, i * 4));
  return b;
};
const u16 = (...ns: number[]) => {
  const b = Buffer.alloc(ns.length * 2);
  ns.forEach((n, i) => b.writeUInt16BE(n, i * 2));
  return b;
};
/** Version and flags of a full box. */
const full = (flags = 0) => u32(flags);
const MATRIX = u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);

/** A one-second MP4 of 16x16 pixels; `key` fills its sample so every key has its own bytes. */
export function mp4For(key: string): Buffer {
  const sample = Buffer.alloc(1536);
  for (let i = 0; i < sample.length; i += 4) sample.writeUInt32BE(hash32(`${key}:${i}`), i);
  const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), u32(0x200), Buffer.from('isomiso2avc1mp41', 'latin1'));
  const mvhd = box(
    'mvhd',
    full(),
    u32(0, 0, 1000, 1000, 0x10000),
    u16(0x100, 0),
    u32(0, 0),
    MATRIX,
    u32(0, 0, 0, 0, 0, 0, 2),
  );
  const tkhd = box('tkhd', full(3), u32(0, 0, 1, 0, 1000, 0, 0), u16(0, 0, 0, 0), MATRIX, u32(16 << 16, 16 << 16));
  const mdhd = box('mdhd', full(), u32(0, 0, 1000, 1000), u16(0x55c4, 0));
  const hdlr = box(
    'hdlr',
    full(),
    u32(0),
    Buffer.from('vide', 'latin1'),
    u32(0, 0, 0),
    Buffer.from('Video\0', 'latin1'),
  );
  const dinf = box('dinf', box('dref', full(), u32(1), box('url ', full(1))));
  const avc1 = box(
    'avc1',
    Buffer.alloc(6),
    u16(1),
    Buffer.alloc(16),
    u16(16, 16),
    u32(0x480000, 0x480000, 0),
    u16(1),
    Buffer.alloc(32),
    u16(0x18, 0xffff),
  );
  const build = (offset: number) => {
    const stbl = box(
      'stbl',
      box('stsd', full(), u32(1), avc1),
      box('stts', full(), u32(1, 1, 1000)),
      box('stsc', full(), u32(1, 1, 1, 1)),
      box('stsz', full(), u32(0, 1, sample.length)),
      box('stco', full(), u32(1, offset)),
    );
    const minf = box('minf', box('vmhd', full(1), u16(0, 0, 0, 0)), dinf, stbl);
    return box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
  };
  const moovLength = build(0).length;
  const moov = build(ftyp.length + moovLength + 8);
  return Buffer.concat([ftyp, moov, box('mdat', sample)]);
}
