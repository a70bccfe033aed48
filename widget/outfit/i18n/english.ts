// "Complete the look" in English: every key, the shape every other language follows (not named
// outfit-en.ts: the other languages' chunks are found by that pattern, English is in the look's own
// chunk). Loaded with the look, so the panel and its dictionaries do not grow for a product without pieces.
export const outfitEn = {
  completeLook: 'Complete the look',
  yourLook: 'Your look',
  addPiece: 'Add {piece}',
  colourOf: 'Colour of {piece}',
  removePiece: 'Remove {piece}',
  addingPiece: 'Adding {piece} to your look…',
  firstLookPiece: 'A first look of {piece} on you. The full picture is coming.',
  pieceAdded: '{piece} is in your look.',
  pieceRemoved: '{piece} is out of your look.',
  pieceFailed: 'Could not add {piece} to your look. Please try again.',
  not_a_pair: '{piece} does not go with this outfit.',
  base_not_ready: 'Your try-on is not finished yet. Add {piece} once it is ready.',
  outfit_too_long: 'Your look has as many pieces as it can take. Remove one to add {piece}.',
  addLook: 'Add the look to cart',
  addingLook: 'Adding the look to cart…',
  addedLook: 'The look is in your cart',
  lookAddedNote: 'Your look is in your cart: {pieces}.',
  lookFailed: 'Could not add your look to your cart. Please try again.',
};

export type OutfitTexts = typeof outfitEn;
