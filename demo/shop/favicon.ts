// The shop's favicon: its brand mark (a white "K" on the vermilion disc of the masthead), drawn
// as shapes so no font is needed, and the ICO container browsers ask for at /favicon.ico.

/** Where the favicon is drawn, relative to the images folder; the shop serves it at /favicon.ico. */
export const FAVICON = 'favicon.ico';

/** The brand mark at `size` px: the disc and a "K" made of three strokes. */
export function faviconSvg(size = 32): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">
  <circle cx="16" cy="16" r="16" fill="#b3341f"/>
  <g fill="#ffffff">
    <rect x="9" y="7" width="4" height="18"/>
    <polygon points="12,16.5 20,7 24.5,7 15.5,17.5"/>
    <polygon points="14.5,15 18,13 25,25 20.5,25"/>
  </g>
</svg>`;
}

/**
 * One PNG in an ICO container (PNG inside ICO is read by every browser in use): a 6-byte header
 * and one 16-byte directory entry before the PNG's bytes.
 */
export function icoOf(png: Uint8Array, size: number): Uint8Array {
  const header = new DataView(new ArrayBuffer(22));
  header.setUint16(0, 0, true); // reserved
  header.setUint16(2, 1, true); // 1: an icon
  header.setUint16(4, 1, true); // one image
  header.setUint8(6, size >= 256 ? 0 : size); // width (0 means 256)
  header.setUint8(7, size >= 256 ? 0 : size); // height
  header.setUint8(8, 0); // no palette
  header.setUint8(9, 0); // reserved
  header.setUint16(10, 1, true); // colour planes
  header.setUint16(12, 32, true); // bits per pixel
  header.setUint32(14, png.byteLength, true); // the image's length
  header.setUint32(18, 22, true); // and where it starts
  const ico = new Uint8Array(22 + png.byteLength);
  ico.set(new Uint8Array(header.buffer), 0);
  ico.set(png, 22);
  return ico;
}
