// Makes the demo shop's sample shopper photo, demo/shop/sample-person.jpg, from a photo the tests
// already use: the man on the left of OpenCV's basketball1.png (Debian's opencv-doc), full length
// and facing the camera: the sandbox's own person finder outlines him, and he is stood on a plain
// ground of his office wall's light grey; enlarged twice. The result is committed (OpenCV's sample data is
// Apache-2.0 AND BSD-3-Clause by Debian's copyright file: docs/widget.md); this script says how it
// was made and makes it again: `npx tsx scripts/sample-photo.ts`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { findPerson } from '../sandbox/drawing/person.js';

const OPENCV_DATA = process.env['OPENCV_DATA_PATH'] ?? '/usr/share/doc/opencv-doc/examples/data';
const out = fileURLToPath(new URL('../demo/shop/sample-person.jpg', import.meta.url));
const ENLARGE = 2;

const { data, info } = await sharp(join(OPENCV_DATA, 'basketball1.png'))
  .removeAlpha()
  .toColourspace('srgb')
  .raw()
  .toBuffer({ resolveWithObject: true });
const person = await findPerson({ data, width: info.width, height: info.height, channels: 3 });
if (!person) throw new Error('no person found in basketball1.png');
const l = person.landmarks;
if (Math.max(l.leftShoulder.x, l.rightShoulder.x) > info.width / 2)
  throw new Error('the person found is not the man on the left');

// Where he is: his outline, on the left half of the photo where he stands.
let top = info.height;
let bottom = 0;
let left = info.width;
let right = 0;
for (let y = 0; y < info.height; y++)
  for (let x = 0; x < info.width / 2; x++)
    if (person.mask[y * info.width + x]! > 127) {
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      left = Math.min(left, x);
      right = Math.max(right, x);
    }
// His outline opened (eroded, then grown back) so the bits of door frame it caught beside his
// hands fall away, then feathered a pixel: he stands on a plain ground of the wall's light grey.
const outline = await sharp(Buffer.from(person.mask.map((v) => (v > 127 ? 255 : 0))), {
  raw: { width: info.width, height: info.height, channels: 1 },
})
  .erode(4)
  .dilate(4)
  .blur(0.8)
  .extractChannel(0)
  .raw()
  .toBuffer();
const ground = [212, 212, 210];
const plain = Buffer.alloc(data.length);
for (let i = 0; i < info.width * info.height; i++) {
  const k = outline[i]! / 255;
  for (let c = 0; c < 3; c++) plain[i * 3 + c] = Math.round(data[i * 3 + c]! * k + ground[c]! * (1 - k));
}
// A 3:5 portrait around him, centred on his torso (the widget's before-and-after slider starts in the
// middle): a tenth of his height above, a twentieth below, the plain ground extended where the
// photo ends, enlarged twice.
const figureHeight = bottom - top + 1;
const cropHeight = Math.round(figureHeight * 1.15);
const cropWidth = Math.round((cropHeight * 3) / 5);
const torsoX = (l.leftShoulder.x + l.rightShoulder.x + l.leftHip.x + l.rightHip.x) / 4;
const cropLeft = Math.round(torsoX - cropWidth / 2);
const cropTop = top - Math.round(figureHeight * 0.1);
const pad = Math.max(0, -cropLeft, -cropTop, cropTop + cropHeight - info.height);
const background = { r: ground[0]!, g: ground[1]!, b: ground[2]! };
// Extended first, in a pipeline of its own: sharp would extract before it extends.
const extended = await sharp(plain, { raw: { width: info.width, height: info.height, channels: 3 } })
  .extend({ top: pad, bottom: pad, left: pad, right: pad, background })
  .raw()
  .toBuffer();
await sharp(extended, { raw: { width: info.width + 2 * pad, height: info.height + 2 * pad, channels: 3 } })
  .extract({ left: cropLeft + pad, top: cropTop + pad, width: cropWidth, height: cropHeight })
  .resize(cropWidth * ENLARGE, cropHeight * ENLARGE, { kernel: 'lanczos3' })
  .jpeg({ quality: 90, mozjpeg: true })
  .toFile(out);
console.log(
  `${out}: ${cropWidth * ENLARGE} × ${cropHeight * ENLARGE}, from basketball1.png (x ${cropLeft}, y ${cropTop}) enlarged ${ENLARGE}×, ground rgb(${ground.join(',')})`,
);
