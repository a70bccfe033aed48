// Real photos of people for the photo check, from Debian's opencv-doc (OPENCV_DATA_PATH, default
// /usr/share/doc/opencv-doc/examples/data; scripts/prerequisites.ts), and versions of the good one
// derived here with sharp: too dark, blurred, too small, cut at the waist, padded. Never committed.
//
//   full     messi5.jpg: one player, head to boots (548 × 342, shown 2× as a phone photo would be)
//   half     the same, cut at the waist: a half-length person
//   padded   the half-length player (600 × 290 around him, down to the same waist cut) padded to
//            portrait (600 × 900) with white below, as an app "fits" a photo: plenty of photo
//            under the face (12 face heights), no feet in it
//   several  basketball1.png: several players
//   none     fruits.jpg: no person
//   books    right.jpg: two books on a floor; the segmentation outlines one, and the face detector
//            scores its cover weakly (0.505)
//   graffiti graf1.jpg: a painted wall; the segmentation outlines most of it, and the face detector
//            scores a painted head weakly (0.512)
//   dark, blurred, small   the full photo at a tenth of its light, with a 6 px blur, at 480 × 300
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

export const OPENCV_DATA = process.env['OPENCV_DATA_PATH'] ?? '/usr/share/doc/opencv-doc/examples/data';

export type PeoplePhoto =
  'full' | 'half' | 'padded' | 'several' | 'none' | 'books' | 'graffiti' | 'dark' | 'blurred' | 'small';
export const PEOPLE_PHOTOS: readonly PeoplePhoto[] = [
  'full',
  'half',
  'padded',
  'several',
  'none',
  'books',
  'graffiti',
  'dark',
  'blurred',
  'small',
];

export function opencvDataPresent(): boolean {
  return existsSync(join(OPENCV_DATA, 'messi5.jpg'));
}

const made = new Map<PeoplePhoto, Promise<Buffer>>();

/** The photo as a JPEG, made once per process. */
export function peoplePhoto(name: PeoplePhoto): Promise<Buffer> {
  let photo = made.get(name);
  if (!photo) {
    photo = make(name);
    made.set(name, photo);
  }
  return photo;
}

async function make(name: PeoplePhoto): Promise<Buffer> {
  const file = (f: string) => join(OPENCV_DATA, f);
  const full = () => sharp(file('messi5.jpg')).resize({ width: 1096 });
  switch (name) {
    case 'full':
      return full().jpeg({ quality: 92 }).toBuffer();
    // Cut at the waist, just under half the frame (his knees are at about two thirds): a cut just
    // above the knees was too close to the whole-body rule's edge, and Firefox's decode once let it pass.
    case 'half':
      return sharp(await full().toBuffer())
        .extract({ left: 0, top: 0, width: 1096, height: 330 })
        .jpeg({ quality: 92 })
        .toBuffer();
    // A portrait "fitted" from a half-length photo: blank space, not legs, below the waist.
    case 'padded':
      return sharp(await full().toBuffer())
        .extract({ left: 240, top: 40, width: 600, height: 290 })
        .extend({ bottom: 900 - 290, background: '#ffffff' })
        .jpeg({ quality: 92 })
        .toBuffer();
    case 'several':
      return sharp(file('basketball1.png')).resize({ width: 1280 }).jpeg({ quality: 92 }).toBuffer();
    case 'none':
      return sharp(file('fruits.jpg')).resize({ width: 1024 }).jpeg({ quality: 92 }).toBuffer();
    case 'books':
      return sharp(file('right.jpg')).resize({ width: 1024 }).jpeg({ quality: 92 }).toBuffer();
    case 'graffiti':
      return sharp(file('graf1.png')).resize({ width: 1024 }).jpeg({ quality: 92 }).toBuffer();
    case 'dark':
      return full().linear(0.1, 0).jpeg({ quality: 92 }).toBuffer();
    case 'blurred':
      return full().blur(6).jpeg({ quality: 92 }).toBuffer();
    case 'small':
      return sharp(file('messi5.jpg')).resize({ width: 480 }).jpeg({ quality: 92 }).toBuffer();
  }
}
