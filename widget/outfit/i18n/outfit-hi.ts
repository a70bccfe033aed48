import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'पूरा लुक बनाएँ',
  yourLook: 'आपका लुक',
  addPiece: '{piece} जोड़ें',
  colourOf: '{piece} का रंग',
  removePiece: '{piece} हटाएँ',
  addingPiece: '{piece} आपके लुक में जोड़ा जा रहा है…',
  firstLookPiece: 'आप पर {piece} की पहली झलक। पूरी तस्वीर आ रही है।',
  pieceAdded: '{piece} आपके लुक में है।',
  pieceRemoved: '{piece} आपके लुक से हटा दिया गया।',
  pieceFailed: '{piece} आपके लुक में नहीं जोड़ा जा सका। कृपया फिर से कोशिश करें।',
  not_a_pair: '{piece} इस पोशाक के साथ नहीं जाता।',
  base_not_ready: 'आपका ट्राई-ऑन अभी पूरा नहीं हुआ है। तैयार होने पर {piece} जोड़ें।',
  outfit_too_long: 'आपके लुक में जितने पीस हो सकते हैं, उतने हैं। {piece} जोड़ने के लिए एक हटाएँ।',
  addLook: 'पूरा लुक कार्ट में डालें',
  addingLook: 'लुक कार्ट में डाला जा रहा है…',
  addedLook: 'लुक आपके कार्ट में है',
  lookAddedNote: 'आपका लुक आपके कार्ट में है: {pieces}।',
  lookFailed: 'आपका लुक कार्ट में नहीं डाला जा सका। कृपया फिर से कोशिश करें।',
} satisfies OutfitTexts;
