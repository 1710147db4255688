/** The explorer's accent colour (web/shared/styles.css --accent), as [r, g, b]. */
const ACCENT = [0x0b, 0x5c, 0xad] as const;
const SIZE = 16;

/**
 * Pure: a 16×16 ICO (one 32-bit BMP image): a filled disc in the accent colour on transparency.
 * Served at /favicon.ico, which browsers (GraphiQL, /docs, any page without its own icon) ask for.
 */
export function faviconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  // BMP rows go bottom-up, pixels as B, G, R, A.
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const d = Math.hypot(x + 0.5 - SIZE / 2, y + 0.5 - SIZE / 2);
      const alpha = Math.round(255 * Math.min(1, Math.max(0, SIZE / 2 - d)));
      const i = ((SIZE - 1 - y) * SIZE + x) * 4;
      pixels.set([ACCENT[2], ACCENT[1], ACCENT[0], alpha], i);
    }
  }
  const mask = Buffer.alloc(SIZE * 4); // AND mask: 1 bit per pixel, rows padded to 4 bytes; all 0 (alpha decides)
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(SIZE, 4);
  header.writeInt32LE(SIZE * 2, 8); // height counts the XOR image and the AND mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(1, 4); // one image
  dir.writeUInt8(SIZE, 6);
  dir.writeUInt8(SIZE, 7);
  dir.writeUInt16LE(1, 10); // planes
  dir.writeUInt16LE(32, 12); // bits per pixel
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(dir.length, 18);
  return Buffer.concat([dir, image]);
}
