// The photo check's rules alone (widget/photo/check/verdict.ts): what the worker measured → reasons.
import { expect } from '@open-wc/testing';
import { LIMITS, lookedAt, reasonsFor, type PhotoMeasures } from '../../widget/photo/check/verdict.js';

const face = { score: 0.95, top: 0.1, left: 0.45, height: 0.08, width: 0.06 };
const figure = {
  area: 0.2,
  top: 0.08,
  bottom: 0.98,
  left: 0.3,
  right: 0.7,
  outline: [0.3, 0.08, 0.7, 0.98],
};
const good: PhotoMeasures = {
  width: 800,
  height: 1200,
  brightness: 120,
  sharpness: 300,
  faces: [face],
  people: [figure],
};
const with_ = (changes: Partial<PhotoMeasures>): PhotoMeasures => ({ ...good, ...changes });

describe('the photo check verdict', () => {
  it('passes one sharp, lit person, head to feet', () => {
    expect(reasonsFor(good, true)).to.deep.equal([]);
  });

  it('no face: no person, even where the segmentation outlines something', () => {
    expect(reasonsFor(with_({ faces: [] }), false)).to.deep.equal(['no_person']);
  });

  it('a half-sure face is a face not visible only as a head on a body; on a thing, no person', () => {
    const half = { ...face, score: 0.6 };
    expect(reasonsFor(with_({ faces: [half] }), false)).to.deep.equal(['face_not_visible']);
    // Under the half-sure score: no person, whatever the segmentation outlines.
    expect(reasonsFor(with_({ faces: [{ ...half, score: LIMITS.partFaceScore - 0.01 }] }), false)).to.deep.equal([
      'no_person',
    ]);
    // In the middle of an outlined thing (a painted wall): more than a face height below its top.
    const wall = { ...figure, top: 0, bottom: 1, left: 0, right: 1, area: 0.6 };
    expect(reasonsFor(with_({ faces: [{ ...half, top: 0.3 }], people: [wall] }), false)).to.deep.equal(['no_person']);
    // Outside every figure, or with none at all.
    expect(reasonsFor(with_({ faces: [{ ...half, left: 0.05 }] }), false)).to.deep.equal(['no_person']);
    expect(reasonsFor(with_({ faces: [half], people: [] }), false)).to.deep.equal(['no_person']);
  });

  it('two faces of like size, or a face outside the largest figure, are several people; the crowd behind is not', () => {
    expect(reasonsFor(with_({ faces: [face, { ...face, left: 0.05, height: 0.07 }] }), false)).to.deep.equal([
      'several_people',
    ]);
    expect(reasonsFor(with_({ faces: [face, { ...face, left: 0.05, height: 0.02 }] }), false)).to.deep.equal([]);
    expect(reasonsFor(with_({ faces: [{ ...face, left: 0.05 }] }), false)).to.deep.equal(['several_people']);
  });

  it('the whole body: the figure reaches far enough below the face, asked only when the product needs it', () => {
    const cut = with_({ people: [{ ...figure, bottom: 0.45 }] });
    expect(reasonsFor(cut, true)).to.deep.equal(['not_full_body']);
    expect(reasonsFor(cut, false)).to.deep.equal([]);
    const edge = face.top + face.height * LIMITS.fullBodyFaces;
    expect(reasonsFor(with_({ people: [{ ...figure, bottom: edge + 0.01 }] }), true)).to.deep.equal([]);
    expect(reasonsFor(with_({ people: [{ ...figure, bottom: edge - 0.01 }] }), true)).to.deep.equal(['not_full_body']);
  });

  it('blank space below a half-length figure is not a body: a padded photo is refused for the whole body', () => {
    // Plenty of photo below the face (11 face heights), the figure ending at the waist.
    const padded = with_({ people: [{ ...figure, bottom: 0.3 }] });
    expect((1 - face.top) / face.height).to.be.greaterThan(LIMITS.fullBodyFaces);
    expect(reasonsFor(padded, true)).to.deep.equal(['not_full_body']);
    expect(reasonsFor(padded, false)).to.deep.equal([]);
    // No figure around the face: no feet found.
    expect(reasonsFor(with_({ people: [] }), true)).to.deep.equal(['not_full_body']);
  });

  it('says what it looked at: the face judged by and its figure, else the largest figure', () => {
    const other = { ...figure, area: 0.3, left: 0.75, right: 1 };
    expect(lookedAt(with_({ people: [other, figure] }))).to.deep.equal({ face, figure });
    expect(lookedAt(with_({ faces: [], people: [other, figure] }))).to.deep.equal({ figure: other });
    expect(lookedAt(with_({ faces: [{ ...face, score: 0.6 }] }))).to.deep.equal({
      face: { ...face, score: 0.6 },
      figure,
    });
    expect(lookedAt(with_({ faces: [{ ...face, score: 0.3 }], people: [] }))).to.deep.equal({});
  });

  it('too dark says only that (a dark photo has little edge); blurred; too small by the photo or by the face', () => {
    expect(reasonsFor(with_({ brightness: 10, sharpness: 5 }), false)).to.deep.equal(['too_dark']);
    expect(reasonsFor(with_({ sharpness: 5 }), false)).to.deep.equal(['too_blurry']);
    expect(reasonsFor(with_({ width: 300, height: 450 }), false)).to.deep.equal(['too_small']);
    expect(reasonsFor(with_({ faces: [{ ...face, height: 0.02 }] }), false)).to.deep.equal(['too_small']);
  });

  it('says several reasons in a fixed order, the most important first', () => {
    expect(reasonsFor(with_({ people: [{ ...figure, bottom: 0.3 }], brightness: 10 }), true)).to.deep.equal([
      'not_full_body',
      'too_dark',
    ]);
  });
});
