// Real photos of people for the photo check, from Debian's opencv-doc (OPENCV_DATA_PATH, default
// /usr/share/doc/opencv-doc/examples/data; scripts/prerequisites.ts), and versions of the good one
// derived here with sharp: too dark, blurred, too small, cut at the waist. Never committed.
//
//   full     messi5.jpg: one player, head to boots (548 × 342, shown 2× as a phone photo would be)
//   half     the same, cut at the waist: a half-length person
//   several  basketball1.png: several players
//   none     fruits.jpg: no person
//   dark, blurred, small   the full photo at a tenth of its light, with a 6 px blur, at 480 × 300
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

export const OPENCV_DATA = process.env['OPENCV_DATA_PATH'] ?? '/usr/share/doc/opencv-doc/examples/data';

export type PeoplePhoto = 'full' | 'half' | 'several' | 'none' | 'dark' | 'blurred' | 'small';
export const PEOPLE_PHOTOS: readonly PeoplePhoto[] = ['full', 'half', 'several', 'none', 'dark', 'blurred', 'small'];

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
    case 'several':
      return sharp(file('basketball1.png')).resize({ width: 1280 }).jpeg({ quality: 92 }).toBuffer();
    case 'none':
      return sharp(file('fruits.jpg')).resize({ width: 1024 }).jpeg({ quality: 92 }).toBuffer();
    case 'dark':
      return full().linear(0.1, 0).jpeg({ quality: 92 }).toBuffer();
    case 'blurred':
      return full().blur(6).jpeg({ quality: 92 }).toBuffer();
    case 'small':
      return sharp(file('messi5.jpg')).resize({ width: 480 }).jpeg({ quality: 92 }).toBuffer();
  }
}
