// The extension a saved file gets comes from its first bytes, never from the URL or the upstream's content type:
// neither can then put a name, an extension or a path of its choosing into the vault.

const SIGNATURES: Array<[string, string, (b: Buffer) => boolean]> = [
  ['png', 'image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['jpg', 'image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['gif', 'image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'webp',
    'image/webp',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
  ['mp4', 'video/mp4', (b) => b.subarray(4, 8).toString('latin1') === 'ftyp'],
];

export interface Sniffed {
  ext: string;
  type: string;
}

/** Kind of file by its magic bytes; unknown bytes are `bin`, served as application/octet-stream. */
export function sniff(head: Buffer): Sniffed {
  for (const [ext, type, test] of SIGNATURES) if (test(head)) return { ext, type };
  return { ext: 'bin', type: 'application/octet-stream' };
}
