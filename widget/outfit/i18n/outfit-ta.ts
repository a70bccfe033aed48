import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'முழு தோற்றத்தை அமையுங்கள்',
  yourLook: 'உங்கள் தோற்றம்',
  addPiece: '{piece} சேர்',
  colourOf: '{piece} நிறம்',
  removePiece: '{piece} நீக்கு',
  addingPiece: 'உங்கள் தோற்றத்தில் {piece} சேர்க்கப்படுகிறது…',
  firstLookPiece: 'உங்கள் மீது {piece} முதல் பார்வை. முழுப் படம் வருகிறது.',
  pieceAdded: '{piece} உங்கள் தோற்றத்தில் உள்ளது.',
  pieceRemoved: '{piece} உங்கள் தோற்றத்திலிருந்து நீக்கப்பட்டது.',
  pieceFailed: 'உங்கள் தோற்றத்தில் {piece} சேர்க்க முடியவில்லை. மீண்டும் முயற்சிக்கவும்.',
  not_a_pair: '{piece} இந்த உடையுடன் பொருந்தாது.',
  base_not_ready: 'உங்கள் அணிந்து பார்த்தல் இன்னும் முடியவில்லை. அது தயாரானதும் {piece} சேர்க்கவும்.',
  outfit_too_long: 'உங்கள் தோற்றத்தில் சேர்க்கக்கூடிய அனைத்துப் பகுதிகளும் உள்ளன. {piece} சேர்க்க ஒன்றை நீக்கவும்.',
  addLook: 'முழு தோற்றத்தையும் கூடையில் சேர்',
  addingLook: 'தோற்றம் கூடையில் சேர்க்கப்படுகிறது…',
  addedLook: 'தோற்றம் உங்கள் கூடையில் உள்ளது',
  lookAddedNote: 'உங்கள் தோற்றம் உங்கள் கூடையில் உள்ளது: {pieces}.',
  lookFailed: 'உங்கள் தோற்றத்தைக் கூடையில் சேர்க்க முடியவில்லை. மீண்டும் முயற்சிக்கவும்.',
} satisfies OutfitTexts;
