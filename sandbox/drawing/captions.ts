// The caption band and the "SANDBOX" badge on every output, so no one mistakes a sandbox render for a real one.
export const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch] ?? ch,
  );

/** Splits a line at spaces so it fits `max` characters (a long note must not run off the picture). */
function wrap(line: string, max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current && current.length + 1 + word.length > max) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(current);
  return out;
}

/** The caption band's height for a number of lines, so a render can stand the figure above it. */
export const captionFont = (width: number, height: number) => Math.max(10, Math.round(Math.min(width, height) / 32));
export const bandHeight = (width: number, height: number, lines: number) =>
  Math.round(captionFont(width, height) * (lines * 1.35 + 0.8));

/**
 * The caption band at the foot of the picture and a small "SANDBOX" badge just above it, on the
 * side farther from the figure (`figure`, its box in the picture's pixels), so the mark never sits on
 * the person or the garment.
 */
export function markingSvg(
  width: number,
  height: number,
  given: string[],
  figure?: { left: number; width: number },
): Buffer {
  const font = captionFont(width, height);
  const lines = given.flatMap((line) => wrap(line, Math.max(12, Math.floor((width - font * 1.2) / (font * 0.55)))));
  const band = bandHeight(width, height, lines.length);
  const text = lines
    .map(
      (line, i) =>
        `<text x="${font * 0.6}" y="${height - band + font * (1.3 + i * 1.35)}" font-size="${font}">${escapeXml(line)}</text>`,
    )
    .join('');
  const badge = Math.max(9, Math.round(font * 0.8));
  const badgeWidth = badge * 6.4;
  const margin = badge * 0.5;
  // The corner with more room beside the figure; the left one when nothing is said.
  const roomLeft = figure ? figure.left : width;
  const roomRight = figure ? width - (figure.left + figure.width) : 0;
  const x = roomRight > roomLeft ? width - margin - badgeWidth : margin;
  // Just above the caption band: a before-and-after view labels its two top corners.
  const y = Math.round(height - band - margin - badge * 1.6);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
    <rect x="${x}" y="${y}" width="${badgeWidth}" height="${badge * 1.6}" rx="${badge * 0.3}" fill="#d0021b"/>
    <text x="${x + badgeWidth / 2}" y="${y + badge * 1.15}" font-size="${badge}" font-weight="bold" text-anchor="middle" fill="#ffffff">SANDBOX</text>
    <rect x="0" y="${height - band}" width="${width}" height="${band}" fill="#000000" fill-opacity="0.62"/>
    <g fill="#ffffff">${text}</g>
  </svg>`);
}
