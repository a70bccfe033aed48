import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'పూర్తి లుక్‌ను సిద్ధం చేయండి',
  yourLook: 'మీ లుక్',
  addPiece: '{piece} జోడించండి',
  colourOf: '{piece} రంగు',
  removePiece: '{piece} తీసివేయండి',
  addingPiece: 'మీ లుక్‌కు {piece} జోడిస్తున్నాం…',
  firstLookPiece: 'మీపై {piece} మొదటి చూపు. పూర్తి చిత్రం వస్తోంది.',
  pieceAdded: '{piece} మీ లుక్‌లో ఉంది.',
  pieceRemoved: '{piece} మీ లుక్ నుండి తీసివేయబడింది.',
  pieceFailed: 'మీ లుక్‌కు {piece} జోడించలేకపోయాం. దయచేసి మళ్లీ ప్రయత్నించండి.',
  not_a_pair: '{piece} ఈ దుస్తులతో సరిపోదు.',
  base_not_ready: 'మీ ట్రై-ఆన్ ఇంకా పూర్తి కాలేదు. అది సిద్ధమైన తర్వాత {piece} జోడించండి.',
  outfit_too_long: 'మీ లుక్‌లో ఉండగలిగినన్ని భాగాలు ఉన్నాయి. {piece} జోడించడానికి ఒకదాన్ని తీసివేయండి.',
  addLook: 'పూర్తి లుక్‌ను కార్ట్‌కు జోడించండి',
  addingLook: 'లుక్‌ను కార్ట్‌కు జోడిస్తున్నాం…',
  addedLook: 'లుక్ మీ కార్ట్‌లో ఉంది',
  lookAddedNote: 'మీ లుక్ మీ కార్ట్‌లో ఉంది: {pieces}.',
  lookFailed: 'మీ లుక్‌ను కార్ట్‌కు జోడించలేకపోయాం. దయచేసి మళ్లీ ప్రయత్నించండి.',
} satisfies OutfitTexts;
