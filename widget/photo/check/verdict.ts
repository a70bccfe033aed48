// The photo check's verdict, as a pure function of what the worker measured: kept apart from the
// worker (and from tfjs) so the rules are read, tested and tuned in one place.

/** Why a photo would make a poor try-on. Stable codes: they are in `tryon-photo-check` and analytics. */
export type PhotoCheckReason =
  'no_person' | 'several_people' | 'face_not_visible' | 'not_full_body' | 'too_dark' | 'too_blurry' | 'too_small';

/** The order the shopper is told them in: the first is the one said in words. */
export const REASON_ORDER: readonly PhotoCheckReason[] = [
  'no_person',
  'several_people',
  'not_full_body',
  'face_not_visible',
  'too_dark',
  'too_blurry',
  'too_small',
];

/** What the worker measures in a photo (all fractions of the photo's own size). */
export interface PhotoMeasures {
  width: number;
  height: number;
  /** Mean luma, 0–255, of the photo downscaled. */
  brightness: number;
  /** Variance of the Laplacian of the photo downscaled to 512 px: low means blurred. */
  sharpness: number;
  /** Faces found (score; box as shares of the photo's width and height), largest first. */
  faces: { score: number; top: number; left: number; height: number; width: number }[];
  /**
   * Figures the segmentation found, largest first: share of the photo's area, box in shares of
   * width and height, and its outline (x, y pairs in shares of width and height) for drawing where
   * the check looked. How sure the mask is inside a figure is not kept: things measure as sure as
   * people.
   */
  people: { area: number; top: number; bottom: number; left: number; right: number; outline: number[] }[];
}

/** Thresholds, calibrated on the test photos (docs/widget.md, "The photo check"). */
export const LIMITS = {
  /** Below this mean luma a figure is murky in any try-on. The good photo measures 83, a tenth of its light 8. */
  minBrightness: 40,
  /** Variance of the Laplacian at 512 px: the test photos measure 105–700, a 6 px blur 6. */
  minSharpness: 40,
  /** The prepared photo's shorter side. */
  minShortSide: 320,
  /** A face under this share of the photo's height belongs to a figure too far away to dress. */
  minFaceHeight: 0.035,
  minFaceScore: 0.75,
  /**
   * A face this sure but under minFaceScore, at the top of a figure (a head on a body), is a face
   * turned away or hidden. Things score faces just under it (books 0.505, a graffiti 0.512), the
   * dark test photo's face just over it (0.614): docs/widget.md.
   */
  partFaceScore: 0.55,
  /** A second face at least this share of the first one's height is a second person, not the crowd behind. */
  secondFace: 0.5,
  /** A figure of the segmentation is a person when at least this share of the photo. */
  minFigure: 0.015,
  /**
   * The figure's bottom (the feet) below the top of its face, in face heights: a standing adult is
   * 7–8 heads tall and the face box is about a head; the full test photo's lunge measures 7.0, the
   * padded half-length one 2.3. Under 5.5 the feet are not in the photo, whatever lies below them.
   */
  fullBodyFaces: 5.5,
} as const;

type Face = PhotoMeasures['faces'][number];
type Figure = PhotoMeasures['people'][number];

const inside = (face: Face, figure: Figure) => {
  const x = face.left + face.width / 2;
  const y = face.top + face.height / 2;
  return x >= figure.left && x <= figure.right && y >= figure.top && y <= figure.bottom;
};

/** The largest figure the face is in: the body that face's feet belong to. */
const bodyOf = (face: Face, figures: Figure[]) => figures.find((figure) => inside(face, figure));

/**
 * A half-sure face counts only as a head on a body: inside a figure whose top is at most a face
 * height above it (the hair), not a pattern in the middle of a thing the segmentation outlined.
 */
const headOnBody = (face: Face, figures: Figure[]) => {
  const body = bodyOf(face, figures);
  return body !== undefined && face.top - body.top <= face.height;
};

/** What the check looked at, to draw over the photo: the face it judged by, and that face's figure (else the largest). */
export function lookedAt(m: PhotoMeasures): { face?: Face; figure?: Figure } {
  const figures = m.people.filter((p) => p.area >= LIMITS.minFigure);
  const face =
    m.faces.find((f) => f.score >= LIMITS.minFaceScore) ??
    m.faces.find((f) => f.score >= LIMITS.partFaceScore && headOnBody(f, figures));
  const figure = (face && bodyOf(face, figures)) ?? figures[0];
  return { ...(face ? { face } : {}), ...(figure ? { figure } : {}) };
}

export function reasonsFor(m: PhotoMeasures, needsFullBody: boolean): PhotoCheckReason[] {
  const reasons = new Set<PhotoCheckReason>();
  const faces = m.faces.filter((f) => f.score >= LIMITS.minFaceScore);
  const first = faces[0];
  const figures = m.people.filter((p) => p.area >= LIMITS.minFigure);
  if (!first) {
    // The segmentation alone outlines things too (a bowl of fruit, books): without a sure face, or
    // a half-sure one where a head would be, no person.
    const hidden = m.faces.some((f) => f.score >= LIMITS.partFaceScore && headOnBody(f, figures));
    reasons.add(hidden ? 'face_not_visible' : 'no_person');
  } else {
    // Two faces of like size, or a face outside the largest figure: two people. A face far smaller
    // than the first is the crowd behind, which the try-on ignores as the shopper would.
    const like = faces.filter((f) => f.height >= first.height * LIMITS.secondFace);
    const largest = figures[0];
    const elsewhere =
      largest !== undefined && faces.some((f) => f.height >= first.height * LIMITS.secondFace && !inside(f, largest));
    if (like.length > 1 || elsewhere) reasons.add('several_people');
    else {
      // The feet are the bottom of the face's own figure, not the photo's bottom edge: blank space
      // padded below a half-length photo holds no feet. No figure around the face: no feet found.
      const body = bodyOf(first, figures);
      if (needsFullBody && (!body || (body.bottom - first.top) / first.height < LIMITS.fullBodyFaces))
        reasons.add('not_full_body');
      if (first.height < LIMITS.minFaceHeight) reasons.add('too_small');
    }
  }
  if (m.brightness < LIMITS.minBrightness) reasons.add('too_dark');
  // A dark photo has little edge to measure: say what to fix first.
  else if (m.sharpness < LIMITS.minSharpness) reasons.add('too_blurry');
  if (Math.min(m.width, m.height) < LIMITS.minShortSide) reasons.add('too_small');
  return REASON_ORDER.filter((r) => reasons.has(r));
}
