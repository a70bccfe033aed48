import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'أكمل الإطلالة',
  yourLook: 'إطلالتك',
  addPiece: 'أضف {piece}',
  colourOf: 'لون {piece}',
  removePiece: 'أزل {piece}',
  addingPiece: 'نضيف {piece} إلى إطلالتك…',
  firstLookPiece: 'لمحة أولى عن {piece} عليك. الصورة الكاملة في الطريق.',
  pieceAdded: '{piece} ضمن إطلالتك.',
  pieceRemoved: 'أُزيل {piece} من إطلالتك.',
  pieceFailed: 'تعذّرت إضافة {piece} إلى إطلالتك. يُرجى المحاولة مرة أخرى.',
  not_a_pair: '{piece} لا يتناسب مع هذا الزي.',
  base_not_ready: 'لم تكتمل تجربتك بعد. أضف {piece} عندما تكون جاهزة.',
  outfit_too_long: 'إطلالتك تضم أكبر عدد ممكن من القطع. أزل قطعة لإضافة {piece}.',
  addLook: 'أضف الإطلالة إلى السلة',
  addingLook: 'نضيف الإطلالة إلى السلة…',
  addedLook: 'الإطلالة في سلتك',
  lookAddedNote: 'إطلالتك في سلتك: {pieces}.',
  lookFailed: 'تعذّرت إضافة إطلالتك إلى السلة. يُرجى المحاولة مرة أخرى.',
} satisfies OutfitTexts;
