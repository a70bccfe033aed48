import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'پورا لُک مکمل کریں',
  yourLook: 'آپ کا لُک',
  addPiece: '{piece} شامل کریں',
  colourOf: '{piece} کا رنگ',
  removePiece: '{piece} ہٹائیں',
  addingPiece: 'آپ کے لُک میں {piece} شامل کیا جا رہا ہے…',
  firstLookPiece: 'آپ پر {piece} کی پہلی جھلک۔ پوری تصویر آ رہی ہے۔',
  pieceAdded: '{piece} آپ کے لُک میں ہے۔',
  pieceRemoved: '{piece} آپ کے لُک سے ہٹا دیا گیا۔',
  pieceFailed: '{piece} آپ کے لُک میں شامل نہیں ہو سکا۔ براہ کرم دوبارہ کوشش کریں۔',
  not_a_pair: '{piece} اس لباس کے ساتھ نہیں جچتا۔',
  base_not_ready: 'آپ کا ٹرائی آن ابھی مکمل نہیں ہوا۔ تیار ہونے پر {piece} شامل کریں۔',
  outfit_too_long: 'آپ کے لُک میں جتنے پیس ہو سکتے ہیں، اتنے ہیں۔ {piece} شامل کرنے کے لیے ایک ہٹائیں۔',
  addLook: 'پورا لُک کارٹ میں ڈالیں',
  addingLook: 'لُک کارٹ میں ڈالا جا رہا ہے…',
  addedLook: 'لُک آپ کے کارٹ میں ہے',
  lookAddedNote: 'آپ کا لُک آپ کے کارٹ میں ہے: {pieces}۔',
  lookFailed: 'آپ کا لُک کارٹ میں نہیں ڈالا جا سکا۔ براہ کرم دوبارہ کوشش کریں۔',
} satisfies OutfitTexts;
