// The shop's pictures, drawn as SVG so the demo ships no downloaded or licensed images.
// Garments are drawn in one 600×800 body frame (shoulders at y≈200, waist at y≈340, feet at
// y≈780), so the same drawing can be laid on a figure for the model and shopper photos.
// Over 300 lines because it is drawing data, not logic: one short function of SVG paths per
// garment, the figure and the photo around it, all tied to that one frame's numbers, which a
// split would scatter across files.
import type { GarmentDrawing, Palette } from './products.js';

const SKIN = '#c68863';
const SKIN_SHADE = '#a96d4c';
const HAIR = '#2b1d16';

function svg(width: number, height: number, body: string, defs = ''): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs}</defs>${body}</svg>`;
}

/** A repeating motif in the trim colour: zari buttis on silk, dots on bandhani, blocks on cotton. */
function motif(id: string, colour: string, kind: 'butti' | 'dots' | 'block' | 'brocade'): string {
  switch (kind) {
    case 'butti':
      return `<pattern id="${id}" width="34" height="40" patternUnits="userSpaceOnUse">
        <path d="M17 8 q7 8 0 16 q-7 -8 0 -16z" fill="${colour}" opacity="0.8"/>
        <circle cx="0" cy="32" r="2.2" fill="${colour}" opacity="0.7"/><circle cx="34" cy="32" r="2.2" fill="${colour}" opacity="0.7"/></pattern>`;
    case 'dots':
      return `<pattern id="${id}" width="18" height="18" patternUnits="userSpaceOnUse">
        <circle cx="5" cy="5" r="2.4" fill="${colour}"/><circle cx="14" cy="14" r="2.4" fill="#fff8e1"/></pattern>`;
    case 'block':
      return `<pattern id="${id}" width="40" height="40" patternUnits="userSpaceOnUse">
        <circle cx="20" cy="20" r="5" fill="${colour}"/>
        <g fill="${colour}" opacity="0.85"><ellipse cx="20" cy="8" rx="3" ry="5"/><ellipse cx="20" cy="32" rx="3" ry="5"/>
        <ellipse cx="8" cy="20" rx="5" ry="3"/><ellipse cx="32" cy="20" rx="5" ry="3"/></g></pattern>`;
    case 'brocade':
      return `<pattern id="${id}" width="26" height="26" patternUnits="userSpaceOnUse">
        <path d="M13 3 L23 13 L13 23 L3 13 Z" fill="none" stroke="${colour}" stroke-width="1.6" opacity="0.55"/>
        <circle cx="13" cy="13" r="2" fill="${colour}" opacity="0.7"/></pattern>`;
  }
}

const shade = `<linearGradient id="fold" x1="0" x2="1" y1="0" y2="0">
  <stop offset="0" stop-color="#000" stop-opacity="0.22"/><stop offset="0.35" stop-color="#000" stop-opacity="0"/>
  <stop offset="0.7" stop-color="#fff" stop-opacity="0.08"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></linearGradient>`;

function blouse(colour: string, trim: string): string {
  return `<path d="M210 205 L185 216 L180 266 L213 262 Z" fill="${colour}"/>
    <path d="M390 205 L415 216 L420 266 L387 262 Z" fill="${colour}"/>
    <path d="M210 203 Q300 188 390 203 L394 300 Q300 314 206 300 Z" fill="${colour}"/>
    <path d="M268 196 Q300 232 332 196" fill="none" stroke="${trim}" stroke-width="5"/>
    <path d="M180 262 L213 258" stroke="${trim}" stroke-width="5"/><path d="M420 262 L387 258" stroke="${trim}" stroke-width="5"/>`;
}

function pleats(x: number, top: number, bottom: number, colour: string): string {
  let lines = '';
  for (let i = -3; i <= 3; i++) {
    lines += `<path d="M${x + i * 5} ${top} L${x + i * 16} ${bottom}" stroke="${colour}" stroke-width="3" opacity="0.45"/>`;
  }
  return lines;
}

function saree(drape: 'nivi' | 'bengali' | 'gujarati' | 'maharashtrian', p: Palette): { body: string; defs: string } {
  const defs = motif('m', p.trim, drape === 'gujarati' ? 'dots' : 'butti') + shade;
  const border = (d: string, width = 16) =>
    `<path d="${d}" fill="none" stroke="${p.trim}" stroke-width="${width}" stroke-linejoin="round"/>`;
  const cloth = (d: string) =>
    `<path d="${d}" fill="${p.base}"/><path d="${d}" fill="url(#m)"/><path d="${d}" fill="url(#fold)"/>`;
  let back = '';
  let lower = '';
  let pallu = '';
  switch (drape) {
    case 'nivi': {
      back = cloth('M388 198 L428 200 L470 610 L408 622 Z') + border('M470 610 L408 622', 18);
      lower =
        cloth('M235 335 L365 335 L412 780 L188 780 Z') +
        border('M194 768 L406 768', 22) +
        pleats(300, 380, 780, p.second);
      pallu =
        cloth('M214 418 L268 444 L412 240 L398 198 L350 196 Z') +
        border('M214 418 L350 196') +
        border('M268 444 L412 240', 10);
      break;
    }
    case 'bengali': {
      // Two broad pleats and the pallu brought over the shoulder to the front, with a key bunch.
      lower =
        cloth('M235 335 L365 335 L414 780 L186 780 Z') +
        border('M192 766 L408 766', 30) +
        `<path d="M262 360 L236 780" stroke="${p.trim}" stroke-width="9"/><path d="M300 350 L300 780" stroke="${p.trim}" stroke-width="9"/>`;
      pallu =
        cloth('M212 420 L262 446 L404 236 L392 198 L344 196 Z') +
        border('M212 420 L344 196', 22) +
        cloth('M338 198 L404 202 L428 570 L346 552 Z') +
        border('M346 552 L428 570', 26) +
        `<circle cx="414" cy="590" r="13" fill="none" stroke="#c9a227" stroke-width="5"/><path d="M414 603 l-8 22 M414 603 l8 22" stroke="#c9a227" stroke-width="4"/>`;
      break;
    }
    case 'gujarati': {
      // Seedha pallu: over the right shoulder and spread open across the front.
      back = cloth('M175 200 L212 198 L190 560 L140 548 Z');
      lower =
        cloth('M235 335 L365 335 L412 780 L188 780 Z') +
        border('M194 768 L406 768', 20) +
        pleats(286, 380, 780, p.second);
      pallu =
        cloth('M206 198 L258 196 L380 344 L412 612 L298 646 L184 612 Z') +
        border('M184 612 L298 646 L412 612', 20) +
        border('M258 196 L380 344', 8);
      break;
    }
    case 'maharashtrian': {
      // Nauvari: nine yards tucked at the back (kashta), so the drape parts like trousers.
      lower =
        cloth('M235 335 L365 335 L408 712 L316 712 L300 520 L284 712 L192 712 Z') +
        border('M196 702 L286 702', 20) +
        border('M314 702 L404 702', 20) +
        `<path d="M300 350 L300 520" stroke="${p.second}" stroke-width="4" opacity="0.5"/>`;
      pallu =
        cloth('M220 400 L266 420 L410 236 L396 198 L352 196 Z') +
        border('M220 400 L352 196', 14) +
        cloth('M390 198 L426 202 L452 420 L404 430 Z') +
        border('M452 420 L404 430', 16);
      break;
    }
  }
  return { defs, body: back + lower + blouse(p.second, p.trim) + pallu };
}

function lehenga(p: Palette): { body: string; defs: string } {
  const defs = motif('m', p.trim, 'butti') + shade;
  const skirt = 'M240 330 L360 330 Q468 560 500 780 L100 780 Q132 560 240 330 Z';
  const band = (y: number, spread: number) =>
    `<path d="M${300 - spread} ${y} Q300 ${y + 26} ${300 + spread} ${y}" fill="none" stroke="${p.trim}" stroke-width="12"/>`;
  const body = `<path d="${skirt}" fill="${p.base}"/><path d="${skirt}" fill="url(#m)"/><path d="${skirt}" fill="url(#fold)"/>
    ${band(520, 160)}${band(640, 182)}${band(756, 196)}
    <path d="M238 332 L362 332" stroke="${p.trim}" stroke-width="10"/>
    ${blouse(p.base, p.trim)}
    <path d="M392 200 L430 206 L300 470 L206 700 L168 680 L262 440 Z" fill="${p.second}" opacity="0.55"/>
    <path d="M206 700 L168 680" stroke="${p.trim}" stroke-width="8"/>`;
  return { defs, body };
}

function dress(p: Palette): { body: string; defs: string } {
  const defs = motif('m', p.trim, 'block') + shade;
  const shape = 'M214 204 L262 196 Q300 236 338 196 L386 204 L372 340 L456 640 Q300 668 144 640 L228 340 Z';
  const body = `<path d="${shape}" fill="${p.base}"/><path d="${shape}" fill="url(#m)"/><path d="${shape}" fill="url(#fold)"/>
    <path d="M214 204 L190 214 L186 250 L218 246 Z" fill="${p.base}"/><path d="M386 204 L410 214 L414 250 L382 246 Z" fill="${p.base}"/>
    <path d="M228 336 L372 336" stroke="${p.second}" stroke-width="14"/>
    <path d="M146 634 Q300 662 454 634" fill="none" stroke="${p.trim}" stroke-width="6"/>`;
  return { defs, body };
}

function sleeves(colour: string, cuff: string): string {
  return `<path d="M204 206 L172 218 L148 470 L186 476 L218 262 Z" fill="${colour}"/>
    <path d="M396 206 L428 218 L452 470 L414 476 L382 262 Z" fill="${colour}"/>
    <path d="M148 466 L186 472" stroke="${cuff}" stroke-width="8"/><path d="M452 466 L414 472" stroke="${cuff}" stroke-width="8"/>`;
}

function buttons(from: number, to: number, colour: string): string {
  let dots = '';
  for (let y = from; y <= to; y += 34)
    dots += `<circle cx="300" cy="${y}" r="6" fill="${colour}" stroke="#0003" stroke-width="1.5"/>`;
  return dots;
}

function sherwani(p: Palette): { body: string; defs: string } {
  const defs = motif('m', p.trim, 'brocade') + shade;
  const coat = 'M202 204 L398 204 L408 420 L432 652 L168 652 L192 420 Z';
  const body = `<path d="M244 650 L292 650 L290 780 L250 780 Z" fill="${p.second}"/><path d="M308 650 L356 650 L350 780 L310 780 Z" fill="${p.second}"/>
    ${[700, 720, 740, 760].map((y) => `<path d="M248 ${y} L292 ${y + 3} M308 ${y + 3} L352 ${y}" stroke="#0002" stroke-width="3"/>`).join('')}
    ${sleeves(p.base, p.trim)}
    <path d="${coat}" fill="${p.base}"/><path d="${coat}" fill="url(#m)"/><path d="${coat}" fill="url(#fold)"/>
    <path d="M300 204 L300 652" stroke="#0003" stroke-width="3"/>
    <path d="M170 640 L430 640" stroke="${p.trim}" stroke-width="10"/>
    <rect x="272" y="176" width="56" height="30" rx="6" fill="${p.base}" stroke="${p.trim}" stroke-width="4"/>
    ${buttons(224, 460, p.trim)}`;
  return { defs, body };
}

function bandhgala(p: Palette): { body: string; defs: string } {
  const defs = shade;
  const jacket = 'M202 204 L398 204 L404 420 L412 486 L188 486 L196 420 Z';
  const body = `<path d="M222 484 L298 484 L294 780 L236 780 Z" fill="${p.second}"/><path d="M302 484 L378 484 L364 780 L306 780 Z" fill="${p.second}"/>
    ${sleeves(p.base, p.base)}
    <path d="${jacket}" fill="${p.base}"/><path d="${jacket}" fill="url(#fold)"/>
    <path d="M300 204 L300 486" stroke="#0005" stroke-width="3"/>
    <path d="M226 300 L262 300 M338 400 L374 400" stroke="#fff3" stroke-width="4"/>
    <rect x="274" y="178" width="52" height="28" rx="5" fill="${p.base}" stroke="#fff2" stroke-width="3"/>
    ${buttons(222, 460, p.trim)}`;
  return { defs, body };
}

function suit(p: Palette): { body: string; defs: string } {
  const defs = shade;
  const jacket = 'M200 204 L400 204 L406 420 L414 490 L186 490 L194 420 Z';
  const body = `<path d="M220 486 L298 486 L294 780 L234 780 Z" fill="${p.base}"/><path d="M302 486 L380 486 L366 780 L306 780 Z" fill="${p.base}"/>
    <path d="M296 490 L300 780" stroke="#0004" stroke-width="2"/>
    ${sleeves(p.base, p.base)}
    <path d="${jacket}" fill="${p.base}"/><path d="${jacket}" fill="url(#fold)"/>
    <path d="M262 200 L338 200 L300 350 Z" fill="${p.second}"/>
    <path d="M292 212 L308 212 L314 330 L300 350 L286 330 Z" fill="${p.trim}"/>
    <path d="M262 200 L300 352 L246 300 L236 246 L256 238 Z" fill="${p.base}" stroke="#0004" stroke-width="2"/>
    <path d="M338 200 L300 352 L354 300 L364 246 L344 238 Z" fill="${p.base}" stroke="#0004" stroke-width="2"/>
    <path d="M300 352 L300 490" stroke="#0005" stroke-width="3"/>
    <circle cx="300" cy="392" r="6" fill="#1c1c1c"/><circle cx="300" cy="440" r="6" fill="#1c1c1c"/>
    <path d="M222 440 L268 440 M332 440 L378 440 M340 270 L372 266" stroke="#0005" stroke-width="3"/>`;
  return { defs, body };
}

// The pieces that complete a look: drawn flat, as a shop photographs a dupatta or a stole laid out.
function dupatta(p: Palette): { body: string; defs: string } {
  const defs = motif('m', p.trim, 'butti') + shade;
  const cloth = 'M170 90 L430 90 L450 720 L150 720 Z';
  const body = `<path d="${cloth}" fill="${p.base}"/><path d="${cloth}" fill="url(#m)"/><path d="${cloth}" fill="url(#fold)"/>
    <path d="M170 90 L150 720 M430 90 L450 720" stroke="${p.trim}" stroke-width="16"/>
    <path d="M150 690 L450 690" stroke="${p.trim}" stroke-width="22"/>
    ${[170, 210, 250, 290, 330, 370, 410, 450].map((x) => `<path d="M${x - 8} 720 L${x - 14} 760" stroke="${p.second}" stroke-width="5"/>`).join('')}`;
  return { defs, body };
}

function stole(p: Palette): { body: string; defs: string } {
  const defs = motif('m', p.trim, 'brocade') + shade;
  const cloth = 'M240 60 L360 60 L372 740 L228 740 Z';
  const body = `<path d="${cloth}" fill="${p.base}"/><path d="${cloth}" fill="url(#m)"/><path d="${cloth}" fill="url(#fold)"/>
    <path d="M240 60 L228 740 M360 60 L372 740" stroke="${p.trim}" stroke-width="10"/>
    <path d="M232 700 L368 700 M236 100 L364 100" stroke="${p.trim}" stroke-width="14"/>
    ${[240, 264, 288, 312, 336, 360].map((x) => `<path d="M${x} 740 L${x} 772" stroke="${p.second}" stroke-width="4"/>`).join('')}`;
  return { defs, body };
}

function jacket(p: Palette): { body: string; defs: string } {
  const defs = shade;
  const left = 'M204 204 L290 204 L290 420 L196 420 Z';
  const right = 'M310 204 L396 204 L404 420 L310 420 Z';
  const body = `${sleeves(p.base, p.trim)}
    <path d="${left}" fill="${p.base}"/><path d="${right}" fill="${p.base}"/>
    <path d="${left}" fill="url(#fold)"/><path d="${right}" fill="url(#fold)"/>
    <path d="M290 204 L260 290 L290 330 M310 204 L340 290 L310 330" fill="none" stroke="${p.second}" stroke-width="10"/>
    <path d="M196 414 L290 414 M310 414 L404 414" stroke="${p.trim}" stroke-width="10"/>
    <path d="M226 350 L270 350 M330 350 L374 350" stroke="#0004" stroke-width="3"/>`;
  return { defs, body };
}

function garmentParts(drawing: GarmentDrawing, palette: Palette): { body: string; defs: string } {
  switch (drawing.kind) {
    case 'saree':
      return saree(drawing.drape, palette);
    case 'lehenga':
      return lehenga(palette);
    case 'dress':
      return dress(palette);
    case 'sherwani':
      return sherwani(palette);
    case 'bandhgala':
      return bandhgala(palette);
    case 'suit':
      return suit(palette);
    case 'dupatta':
      return dupatta(palette);
    case 'stole':
      return stole(palette);
    case 'jacket':
      return jacket(palette);
  }
}

/** The garment alone on a transparent ground, 600×800: the shop's product image and the proxy's garment file. */
export function garmentSvg(drawing: GarmentDrawing, palette: Palette): string {
  const { body, defs } = garmentParts(drawing, palette);
  return svg(600, 800, body, defs);
}

/** A standing figure in the 600×800 body frame; `clothes` is drawn over it. */
/** A person's colouring: skin, its shade, hair. */
export interface Look {
  skin: string;
  shade: string;
  hair: string;
}

const DEFAULT_LOOK: Look = { skin: SKIN, shade: SKIN_SHADE, hair: HAIR };

function figure(clothes: string, hairStyle: 'long' | 'short', look: Look = DEFAULT_LOOK): string {
  const { skin: SKIN, shade: SKIN_SHADE, hair: HAIR } = look;
  const longHair =
    hairStyle === 'long'
      ? `<path d="M246 118 Q236 40 300 46 Q364 40 354 118 L362 250 Q330 236 318 200 L282 200 Q270 236 238 250 Z" fill="${HAIR}"/>`
      : '';
  return `${longHair}
    <path d="M190 210 L160 470 L186 478 L214 270 Z" fill="${SKIN}"/><path d="M410 210 L440 470 L414 478 L386 270 Z" fill="${SKIN}"/>
    <circle cx="172" cy="486" r="15" fill="${SKIN}"/><circle cx="428" cy="486" r="15" fill="${SKIN}"/>
    <rect x="282" y="150" width="36" height="52" fill="${SKIN_SHADE}"/>
    <path d="M196 204 Q300 186 404 204 L390 340 L398 440 L392 780 L208 780 L202 440 L210 340 Z" fill="${SKIN}"/>
    <ellipse cx="300" cy="112" rx="50" ry="60" fill="${SKIN}"/>
    <path d="M250 96 Q252 46 300 48 Q348 46 350 96 Q330 70 300 72 Q270 70 250 96 Z" fill="${HAIR}"/>
    <ellipse cx="282" cy="114" rx="5" ry="6" fill="#2a1a12"/><ellipse cx="318" cy="114" rx="5" ry="6" fill="#2a1a12"/>
    <path d="M274 100 Q282 95 290 100 M310 100 Q318 95 326 100" stroke="${HAIR}" stroke-width="3" fill="none"/>
    <path d="M298 118 Q296 132 302 134" stroke="${SKIN_SHADE}" stroke-width="3" fill="none"/>
    <path d="M284 146 Q300 156 316 146" stroke="#8a3b2e" stroke-width="4" fill="none" stroke-linecap="round"/>
    <path d="M210 780 L290 780 L290 792 L204 792 Z M310 780 L390 780 L396 792 L310 792 Z" fill="#3b2a20"/>
    ${clothes}`;
}

function photoGround(warm: boolean): string {
  const [top, bottom, floor] = warm ? ['#f6e2c8', '#e9c9a1', '#b98b5e'] : ['#e9edf2', '#d5dce5', '#aab4c0'];
  return `<linearGradient id="wall" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>
    <radialGradient id="light" cx="0.5" cy="0.35" r="0.6"><stop offset="0" stop-color="#fff" stop-opacity="0.55"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
    <linearGradient id="floor" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="${floor}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;
}

function photo(
  width: number,
  height: number,
  clothes: { body: string; defs: string },
  hair: 'long' | 'short',
  warm: boolean,
  look?: Look,
  build = 1,
): string {
  const scale = (height * 0.9) / 800;
  const y = height * 0.06;
  const body = `<rect width="${width}" height="${height}" fill="url(#wall)"/>
    <rect y="${height * 0.82}" width="${width}" height="${height * 0.18}" fill="url(#floor)"/>
    <rect width="${width}" height="${height}" fill="url(#light)"/>
    <ellipse cx="${width / 2}" cy="${y + 792 * scale}" rx="${170 * scale * build}" ry="${16 * scale}" fill="#0002"/>
    <g transform="translate(${width / 2} ${y}) scale(${scale * build} ${scale}) translate(-300 0)">${figure(clothes.body, hair, look)}</g>`;
  return svg(width, height, body, photoGround(warm) + clothes.defs);
}

/** The model wearing a garment: the reference photo of a `person_to_person` product, 768×1024. */
export function modelPhotoSvg(drawing: GarmentDrawing, palette: Palette): string {
  return photo(768, 1024, garmentParts(drawing, palette), 'long', true);
}

/** A shopper in everyday clothes, 768×1024: the sample photo for trying the demo without a camera. */
export function shopperPhotoSvg(): string {
  const everyday = {
    defs: '',
    body: `<path d="M246 440 L298 440 L294 780 L236 780 Z M302 440 L354 440 L364 780 L306 780 Z" fill="#3d5a80"/>
      <path d="M244 430 L356 430 L356 452 L244 452 Z" fill="#2f476b"/>
      <path d="M204 206 L180 214 L176 290 L214 286 Z M396 206 L420 214 L424 290 L386 286 Z" fill="#8d99ae"/>
      <path d="M204 204 Q300 186 396 204 L388 340 L396 446 L204 446 L212 340 Z" fill="#8d99ae"/>
      <path d="M272 198 Q300 222 328 198" fill="none" stroke="#6c7a92" stroke-width="6"/>`,
  };
  return photo(768, 1024, everyday, 'long', false);
}

/** One of the shop's models ("See it on a model"): a name, a colouring and a build (1: the shopper's; wider is fuller). */
export interface ShopModel {
  id: string;
  name: string;
  look: Look;
  build: number;
  hair: 'long' | 'short';
  top: string;
  bottom: string;
}

/** A shop model in plain clothes, 768×1024: their picture in the catalog's `models`. */
export function shopModelSvg(model: ShopModel): string {
  const plain = {
    defs: '',
    body: `<path d="M246 440 L298 440 L294 780 L236 780 Z M302 440 L354 440 L364 780 L306 780 Z" fill="${model.bottom}"/>
      <path d="M204 206 L180 214 L176 290 L214 286 Z M396 206 L420 214 L424 290 L386 286 Z" fill="${model.top}"/>
      <path d="M204 204 Q300 186 396 204 L388 340 L396 446 L204 446 L212 340 Z" fill="${model.top}"/>`,
  };
  return photo(768, 1024, plain, model.hair, true, model.look, model.build);
}
