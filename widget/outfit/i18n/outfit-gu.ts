import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'આખો લુક બનાવો',
  yourLook: 'તમારો લુક',
  addPiece: '{piece} ઉમેરો',
  colourOf: '{piece}નો રંગ',
  removePiece: '{piece} દૂર કરો',
  addingPiece: 'તમારા લુકમાં {piece} ઉમેરી રહ્યા છીએ…',
  firstLookPiece: 'તમારા પર {piece}ની પહેલી ઝલક. આખું ચિત્ર આવી રહ્યું છે.',
  pieceAdded: '{piece} તમારા લુકમાં છે.',
  pieceRemoved: '{piece} તમારા લુકમાંથી દૂર કર્યું.',
  pieceFailed: 'તમારા લુકમાં {piece} ઉમેરી શકાયું નહીં. કૃપા કરીને ફરી પ્રયાસ કરો.',
  not_a_pair: '{piece} આ પોશાક સાથે જતું નથી.',
  base_not_ready: 'તમારું ટ્રાય-ઑન હજી પૂરું થયું નથી. તે તૈયાર થાય પછી {piece} ઉમેરો.',
  outfit_too_long: 'તમારા લુકમાં જેટલા પીસ હોઈ શકે તેટલા છે. {piece} ઉમેરવા માટે એક દૂર કરો.',
  addLook: 'આખો લુક કાર્ટમાં ઉમેરો',
  addingLook: 'લુક કાર્ટમાં ઉમેરી રહ્યા છીએ…',
  addedLook: 'લુક તમારા કાર્ટમાં છે',
  lookAddedNote: 'તમારો લુક તમારા કાર્ટમાં છે: {pieces}.',
  lookFailed: 'તમારો લુક કાર્ટમાં ઉમેરી શકાયો નહીં. કૃપા કરીને ફરી પ્રયાસ કરો.',
} satisfies OutfitTexts;
