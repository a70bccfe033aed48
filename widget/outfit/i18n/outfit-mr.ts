import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'संपूर्ण लुक बनवा',
  yourLook: 'तुमचा लुक',
  addPiece: '{piece} जोडा',
  colourOf: '{piece} चा रंग',
  removePiece: '{piece} काढा',
  addingPiece: '{piece} तुमच्या लुकमध्ये जोडत आहोत…',
  firstLookPiece: 'तुमच्यावर {piece} ची पहिली झलक. पूर्ण चित्र येत आहे.',
  pieceAdded: '{piece} तुमच्या लुकमध्ये आहे.',
  pieceRemoved: '{piece} तुमच्या लुकमधून काढले.',
  pieceFailed: '{piece} तुमच्या लुकमध्ये जोडता आले नाही. कृपया पुन्हा प्रयत्न करा.',
  not_a_pair: '{piece} या पोशाखासोबत जात नाही.',
  base_not_ready: 'तुमचे ट्राय-ऑन अजून पूर्ण झालेले नाही. ते तयार झाल्यावर {piece} जोडा.',
  outfit_too_long: 'तुमच्या लुकमध्ये जास्तीत जास्त पीस आहेत. {piece} जोडण्यासाठी एक काढा.',
  addLook: 'संपूर्ण लुक कार्टमध्ये टाका',
  addingLook: 'लुक कार्टमध्ये टाकत आहोत…',
  addedLook: 'लुक तुमच्या कार्टमध्ये आहे',
  lookAddedNote: 'तुमचा लुक तुमच्या कार्टमध्ये आहे: {pieces}.',
  lookFailed: 'तुमचा लुक कार्टमध्ये टाकता आला नाही. कृपया पुन्हा प्रयत्न करा.',
} satisfies OutfitTexts;
