// What the sandbox draws when an input cannot be read: a captioned stand-in that says so on the
// picture itself, never a plausible-looking guess (a crimson block passed for a garment for months).
import { escapeXml } from './captions.js';

/** Where the stand-in figure's landmarks are, in its 768×1024 frame (the dressing puts the garment by them). */
export const STAND_IN_LANDMARKS = {
  nose: { x: 384, y: 200 },
  leftEye: { x: 408, y: 178 },
  rightEye: { x: 360, y: 178 },
  leftEar: { x: 452, y: 190 },
  rightEar: { x: 316, y: 190 },
  leftShoulder: { x: 506, y: 292 },
  rightShoulder: { x: 262, y: 292 },
  leftHip: { x: 498, y: 560 },
  rightHip: { x: 270, y: 560 },
  leftKnee: { x: 508, y: 760 },
  rightKnee: { x: 260, y: 760 },
  leftAnkle: { x: 516, y: 950 },
  rightAnkle: { x: 252, y: 950 },
} as const;

/**
 * A grey figure with the reason written across it, on a transparent ground (the asked backdrop
 * shows around it): `title` says what could not be done, `reason` why.
 */
export function personStandInSvg(width: number, height: number, title: string, reason: string): Buffer {
  // Drawn in a 768×1024 frame and stretched to the size asked; the words sit above the shoulders,
  // where neither the garment nor the caption band covers them.
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 768 1024" preserveAspectRatio="none">
    <ellipse cx="384" cy="190" rx="70" ry="82" fill="#8a8f98"/>
    <path d="M250 290 Q384 262 518 290 L500 560 L520 960 L248 960 L268 560 Z" fill="#8a8f98"/>
    <rect x="84" y="110" width="600" height="108" rx="12" fill="#ffffff" fill-opacity="0.9"/>
    <g font-family="sans-serif" font-size="32" text-anchor="middle" fill="#7a0010">
      <text x="384" y="156" font-weight="bold">STAND-IN: ${escapeXml(title.slice(0, 30))}</text>
      <text x="384" y="198" font-size="26">${escapeXml(reason.slice(0, 48))}</text>
    </g></svg>`);
}

/** A hatched panel in place of the garment, saying it could not be read. */
export function garmentStandInSvg(width: number, height: number, reason: string): Buffer {
  const font = Math.max(12, Math.round(width / 14));
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><pattern id="hatch" width="24" height="24" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="24" height="24" fill="#d9d9d9"/><rect width="10" height="24" fill="#9a9a9a"/></pattern></defs>
    <rect width="${width}" height="${height}" fill="url(#hatch)" stroke="#7a0010" stroke-width="6"/>
    <rect x="${width * 0.05}" y="${height * 0.4}" width="${width * 0.9}" height="${font * 3.4}" fill="#ffffff" fill-opacity="0.9"/>
    <g font-family="sans-serif" font-size="${font}" text-anchor="middle" fill="#7a0010">
      <text x="${width / 2}" y="${height * 0.4 + font * 1.3}" font-weight="bold">STAND-IN: garment</text>
      <text x="${width / 2}" y="${height * 0.4 + font * 2.7}" font-size="${Math.round(font * 0.7)}">${escapeXml(reason.slice(0, Math.floor((width * 0.85) / (font * 0.7 * 0.55))))}</text>
    </g></svg>`);
}
