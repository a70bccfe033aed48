// The backgrounds a try-on can be asked for, drawn here as pictures (SVG, rendered by sharp) so the
// sandbox ships no downloaded art: a photographer's paper sweep, and a haveli courtyard.

/** The backdrop's average tone: what a photo is washed with when its own ground cannot be replaced. */
const tones: Record<string, { r: number; g: number; b: number }> = {
  studio_white: { r: 240, g: 240, b: 237 },
  haveli_warm: { r: 206, g: 146, b: 92 },
};
export const backdropTone = (background: string) => tones[background] ?? { r: 200, g: 200, b: 200 };

const svg = (width: number, height: number, defs: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 600 800" preserveAspectRatio="xMidYMid slice"><defs>${defs}</defs>${body}</svg>`;

/** A seamless paper sweep under two softboxes: a wall fading into a curved floor, a soft pool of light. */
function studioWhite(width: number, height: number): string {
  const defs = `<linearGradient id="wall" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#e4e5e3"/><stop offset="0.62" stop-color="#f7f7f5"/><stop offset="1" stop-color="#ecebe8"/></linearGradient>
    <radialGradient id="pool" cx="0.5" cy="0.92" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.9"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>
    <radialGradient id="vignette" cx="0.5" cy="0.45" r="0.75"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.14"/></radialGradient>
    <linearGradient id="box" x1="0" x2="1"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.7"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>`;
  const body = `<rect width="600" height="800" fill="url(#wall)"/>
    <path d="M0 560 Q300 610 600 560 L600 800 L0 800 Z" fill="#e9e8e4"/>
    <path d="M0 560 Q300 610 600 560" fill="none" stroke="#d6d5d0" stroke-width="3" opacity="0.6"/>
    <rect width="600" height="800" fill="url(#pool)"/>
    <rect x="30" y="40" width="70" height="200" rx="6" fill="url(#box)" opacity="0.6"/>
    <rect x="500" y="40" width="70" height="200" rx="6" fill="url(#box)" opacity="0.6"/>
    <rect width="600" height="800" fill="url(#vignette)"/>`;
  return svg(width, height, defs, body);
}

/** A haveli courtyard: an ochre wall with a cusped arch onto a garden, jharokha windows, pillars, a tiled floor and marigold strings. */
function haveliWarm(width: number, height: number): string {
  const defs = `<linearGradient id="wall" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#c7834a"/><stop offset="1" stop-color="#e0a96b"/></linearGradient>
    <linearGradient id="sky" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#f6d9a8"/><stop offset="0.7" stop-color="#f1c98a"/><stop offset="1" stop-color="#8f9b5a"/></linearGradient>
    <linearGradient id="floor" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#a8643a"/><stop offset="1" stop-color="#7d4526"/></linearGradient>
    <linearGradient id="pillar" x1="0" x2="1"><stop offset="0" stop-color="#b86f3c"/><stop offset="0.45" stop-color="#eab57a"/><stop offset="1" stop-color="#a35f31"/></linearGradient>
    <radialGradient id="sun" cx="0.55" cy="0.3" r="0.7"><stop offset="0" stop-color="#fff3d6" stop-opacity="0.45"/><stop offset="1" stop-color="#fff3d6" stop-opacity="0"/></radialGradient>
    <pattern id="tiles" width="60" height="60" patternUnits="userSpaceOnUse"><rect width="60" height="60" fill="none" stroke="#6a3a1f" stroke-width="2" opacity="0.55"/><path d="M30 8 L52 30 L30 52 L8 30 Z" fill="#c98a55" opacity="0.35"/></pattern>`;
  const cusps = [0, 1, 2, 3, 4, 5, 6]
    .map((i) => {
      const angle = Math.PI * (i / 6);
      const x = 300 - Math.cos(angle) * 150;
      const y = 250 - Math.sin(angle) * 150;
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="20" fill="url(#wall)"/>`;
    })
    .join('');
  const jharokha = (x: number) => `<g transform="translate(${x} 120)">
      <rect x="-40" y="0" width="80" height="110" rx="4" fill="#8a4a24"/>
      <path d="M-32 108 L-32 40 Q0 6 32 40 L32 108 Z" fill="#3b2214"/>
      <path d="M-32 60 L32 60 M-32 84 L32 84 M-10 40 L-10 108 M10 40 L10 108" stroke="#c98a55" stroke-width="3"/>
      <path d="M-52 118 L52 118 L44 132 L-44 132 Z" fill="#9c5a2e"/>
      <path d="M-44 -4 Q0 -40 44 -4 Z" fill="#9c5a2e"/></g>`;
  const marigolds = (y: number) => {
    let beads = '';
    for (let x = 12; x < 600; x += 16) {
      const sag = y + Math.sin((x / 600) * Math.PI) * 26;
      beads += `<circle cx="${x}" cy="${sag.toFixed(1)}" r="7" fill="${x % 32 === 12 ? '#f2a007' : '#e8570c'}"/>`;
    }
    return beads;
  };
  const body = `<rect width="600" height="800" fill="url(#wall)"/>
    <path d="M150 600 L150 250 A150 150 0 0 1 450 250 L450 600 Z" fill="url(#sky)"/>
    <path d="M150 600 Q230 520 300 560 Q380 500 450 560 L450 600 Z" fill="#6f7d3f"/>
    <circle cx="200" cy="540" r="34" fill="#5d6b34"/><circle cx="408" cy="530" r="40" fill="#55632f"/>
    ${cusps}
    <path d="M150 600 L150 250 A150 150 0 0 1 450 250 L450 600" fill="none" stroke="#8a4a24" stroke-width="10"/>
    ${jharokha(62)}${jharokha(538)}
    <rect x="100" y="250" width="40" height="350" fill="url(#pillar)"/><rect x="460" y="250" width="40" height="350" fill="url(#pillar)"/>
    <rect x="90" y="236" width="60" height="18" fill="#9c5a2e"/><rect x="450" y="236" width="60" height="18" fill="#9c5a2e"/>
    <rect x="90" y="596" width="60" height="14" fill="#9c5a2e"/><rect x="450" y="596" width="60" height="14" fill="#9c5a2e"/>
    <rect y="600" width="600" height="200" fill="url(#floor)"/>
    <rect y="600" width="600" height="200" fill="url(#tiles)"/>
    <path d="M0 600 L600 600" stroke="#5e331b" stroke-width="6"/>
    ${marigolds(22)}
    <rect width="600" height="800" fill="url(#sun)"/>`;
  return svg(width, height, defs, body);
}

/** The background as an SVG picture of the given size (an unknown name gets a plain grey ground). */
export function backdropSvg(background: string, width: number, height: number): Buffer {
  if (background === 'haveli_warm') return Buffer.from(haveliWarm(width, height));
  if (background === 'studio_white') return Buffer.from(studioWhite(width, height));
  const { r, g, b } = backdropTone(background);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(${r},${g},${b})"/></svg>`,
  );
}
