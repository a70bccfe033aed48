// The photo check's rules alone (widget/photo/check/verdict.ts): what the worker measured → reasons.
import { expect } from '@open-wc/testing';
import { LIMITS, reasonsFor, type PhotoMeasures } from '../../widget/photo/check/verdict.js';

const face = { score: 0.95, top: 0.1, left: 0.45, height: 0.08, width: 0.06 };
const figure = { area: 0.2, top: 0.08, bottom: 0.98, left: 0.3, right: 0.7 };
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
    expect(reasonsFor(with_({ faces: [{ ...face, score: 0.6 }] }), false)).to.deep.equal(['face_not_visible']);
  });

  it('two faces of like size, or a face outside the largest figure, are several people; the crowd behind is not', () => {
    expect(reasonsFor(with_({ faces: [face, { ...face, left: 0.05, height: 0.07 }] }), false)).to.deep.equal([
      'several_people',
    ]);
    expect(reasonsFor(with_({ faces: [face, { ...face, left: 0.05, height: 0.02 }] }), false)).to.deep.equal([]);
    expect(reasonsFor(with_({ faces: [{ ...face, left: 0.05 }] }), false)).to.deep.equal(['several_people']);
  });

  it('the whole body: enough photo below the face for a standing person, asked only when the product needs it', () => {
    const cut = with_({ faces: [{ ...face, top: 0.5, height: 0.15 }] });
    expect(reasonsFor(cut, true)).to.deep.equal(['not_full_body']);
    expect(reasonsFor(cut, false)).to.deep.equal([]);
    const edge = (1 - face.top) / LIMITS.fullBodyFaces;
    expect(reasonsFor(with_({ faces: [{ ...face, height: edge * 0.99 }] }), true)).to.deep.equal([]);
    expect(reasonsFor(with_({ faces: [{ ...face, height: edge * 1.01 }] }), true)).to.deep.equal(['not_full_body']);
  });

  it('too dark says only that (a dark photo has little edge); blurred; too small by the photo or by the face', () => {
    expect(reasonsFor(with_({ brightness: 10, sharpness: 5 }), false)).to.deep.equal(['too_dark']);
    expect(reasonsFor(with_({ sharpness: 5 }), false)).to.deep.equal(['too_blurry']);
    expect(reasonsFor(with_({ width: 300, height: 450 }), false)).to.deep.equal(['too_small']);
    expect(reasonsFor(with_({ faces: [{ ...face, height: 0.02 }] }), false)).to.deep.equal(['too_small']);
  });

  it('says several reasons in a fixed order, the most important first', () => {
    expect(reasonsFor(with_({ faces: [{ ...face, top: 0.5, height: 0.15 }], brightness: 10 }), true)).to.deep.equal([
      'not_full_body',
      'too_dark',
    ]);
  });
});
