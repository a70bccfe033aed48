// The caption band and "SANDBOX" marks on every output, so no one mistakes a sandbox render for a real one.
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

export function markingSvg(width: number, height: number, given: string[]): Buffer {
  const font = Math.max(10, Math.round(Math.min(width, height) / 26));
  const lines = given.flatMap((line) => wrap(line, Math.max(12, Math.floor((width - font * 1.2) / (font * 0.55)))));
  const band = Math.round(font * (lines.length * 1.35 + 0.8));
  const text = lines
    .map(
      (line, i) =>
        `<text x="${font * 0.6}" y="${height - band + font * (1.3 + i * 1.35)}" font-size="${font}">${escapeXml(line)}</text>`,
    )
    .join('');
  const mark = Math.round(Math.min(width, height) / 6);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
    <text x="${width / 2}" y="${height / 2}" font-size="${mark}" font-weight="bold" text-anchor="middle" dominant-baseline="middle"
      fill="#ffffff" fill-opacity="0.28" stroke="#000000" stroke-opacity="0.18" transform="rotate(-35 ${width / 2} ${height / 2})">SANDBOX</text>
    <rect x="${font * 0.5}" y="${font * 0.5}" width="${font * 6.4}" height="${font * 1.6}" rx="${font * 0.3}" fill="#d0021b"/>
    <text x="${font * 3.7}" y="${font * 1.75}" font-size="${font}" font-weight="bold" text-anchor="middle" fill="#ffffff">SANDBOX</text>
    <rect x="0" y="${height - band}" width="${width}" height="${band}" fill="#000000" fill-opacity="0.62"/>
    <g fill="#ffffff">${text}</g>
  </svg>`);
}
