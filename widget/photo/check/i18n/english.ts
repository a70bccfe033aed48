// The photo check's texts in English: every key, the shape every other language follows (not named
// check-en.ts: the other languages' chunks are found by that pattern, English is in the check's own). Loaded
// with the check (its own chunk), so the panel and its dictionaries do not grow.
export const checkEn = {
  checking: 'Checking your photo…',
  passed: 'Your photo looks good.',
  unavailable: 'Your photo could not be checked on this device. You can still send it.',
  warnNote: 'The try-on may not look right with this photo. You can use it anyway, or choose another.',
  strictNote: 'Please choose another photo for this try-on.',
  useAnyway: 'Use it anyway',
  chooseAnother: 'Choose another photo',
  exampleCaption: 'A good photo',
  exampleAlt: 'Example of a good photo: one person standing, head to feet, facing the camera, in good light',
  no_person: 'We could not find a person facing the camera in this photo.',
  several_people: 'This photo shows more than one person. Please use a photo of just you.',
  face_not_visible: 'Your face is not clearly visible in this photo.',
  not_full_body: 'This outfit needs your whole body in the photo, from head to feet.',
  too_dark: 'This photo is too dark. Please take one in brighter light.',
  too_blurry: 'This photo is blurred. Please hold still and take a sharper one.',
  too_small: 'You look too small in this photo. Please stand closer, or choose a larger photo.',
  lookedFigure: 'The outline on your photo shows what the check took for a person.',
  lookedFace: 'The box shows the face it found.',
};

export type CheckTexts = typeof checkEn;
