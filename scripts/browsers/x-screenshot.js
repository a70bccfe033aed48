// A picture of a region of an X display, read straight from the X server over its local socket
// (the core protocol's GetImage), for WebKit's screenshots: WebKitWebDriver's own Take Screenshot
// never answers in the tests' WebKitGTK (non-composited, on Xvfb), and the machines have no X
// screenshot program. Xvfb, started by webkit.js without -auth, takes local clients as they come.
import { createConnection } from 'node:net';

/**
 * Reads `width` × `height` pixels at `x`, `y` of `display`'s root window (e.g. ':99'), and resolves
 * with them as RGB bytes, row by row. Only the common TrueColor layout (24 bits in 32, least
 * significant byte first: what Xvfb serves on a little-endian machine) is read; any other is said.
 * @param {string} display @param {{ x: number, y: number, width: number, height: number }} region
 * @returns {Promise<Buffer>}
 */
export function grabX(display, { x, y, width, height }) {
  const number = /^:(\d+)/.exec(display)?.[1];
  if (number === undefined) return Promise.reject(new Error(`x-screenshot: not a local display: ${display}`));
  return new Promise((resolve, reject) => {
    const socket = createConnection(`/tmp/.X11-unix/X${number}`);
    let data = Buffer.alloc(0);
    let root;
    const fail = (error) => {
      socket.destroy();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('connect', () => {
      // Connection setup: little-endian, protocol 11.0, no authorization.
      const setup = Buffer.alloc(12);
      setup.write('l', 0);
      setup.writeUInt16LE(11, 2);
      socket.write(setup);
    });
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (root === undefined) {
        if (data.length < 8) return;
        const total = 8 + data.readUInt16LE(6) * 4;
        if (data.length < total) return;
        if (data[0] !== 1) return fail(new Error(`x-screenshot: ${display} refused the connection`));
        const vendorLength = data.readUInt16LE(24);
        const formats = data[29];
        if (data[30] !== 0)
          return fail(new Error('x-screenshot: the server sends its images most significant byte first'));
        const formatsAt = 40 + Math.ceil(vendorLength / 4) * 4;
        const depth24 = [...Array(formats).keys()]
          .map((i) => ({ depth: data[formatsAt + i * 8], bpp: data[formatsAt + i * 8 + 1] }))
          .find((f) => f.depth === 24);
        if (depth24?.bpp !== 32) return fail(new Error(`x-screenshot: depth 24 is stored in ${depth24?.bpp} bits`));
        root = data.readUInt32LE(formatsAt + formats * 8);
        data = data.subarray(total);
        // GetImage (73), ZPixmap (2), every plane.
        const request = Buffer.alloc(20);
        request.writeUInt8(73, 0);
        request.writeUInt8(2, 1);
        request.writeUInt16LE(5, 2);
        request.writeUInt32LE(root, 4);
        request.writeInt16LE(x, 8);
        request.writeInt16LE(y, 10);
        request.writeUInt16LE(width, 12);
        request.writeUInt16LE(height, 14);
        request.writeUInt32LE(0xffffffff, 16);
        socket.write(request);
      }
      if (data.length < 32) return;
      if (data[0] === 0) return fail(new Error(`x-screenshot: GetImage failed with X error ${data[1]}`));
      const length = 32 + data.readUInt32LE(4) * 4;
      if (data.length < length) return;
      socket.end();
      // BGRX pixels, each row padded to 32 bits (already, at 32 bits a pixel): to RGB.
      const pixels = data.subarray(32, 32 + width * height * 4);
      const rgb = Buffer.alloc(width * height * 3);
      for (let i = 0, o = 0; i < pixels.length; i += 4, o += 3) {
        rgb[o] = pixels[i + 2];
        rgb[o + 1] = pixels[i + 1];
        rgb[o + 2] = pixels[i];
      }
      resolve(rgb);
    });
  });
}
