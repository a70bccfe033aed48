import type { OutfitTexts } from './english.js';

export default {
  completeLook: 'পুরো লুকটি সাজান',
  yourLook: 'আপনার লুক',
  addPiece: '{piece} যোগ করুন',
  colourOf: '{piece}-এর রং',
  removePiece: '{piece} সরান',
  addingPiece: 'আপনার লুকে {piece} যোগ করা হচ্ছে…',
  firstLookPiece: 'আপনার গায়ে {piece}-এর প্রথম ঝলক। পুরো ছবিটি আসছে।',
  pieceAdded: '{piece} আপনার লুকে আছে।',
  pieceRemoved: '{piece} আপনার লুক থেকে সরানো হয়েছে।',
  pieceFailed: 'আপনার লুকে {piece} যোগ করা যায়নি। অনুগ্রহ করে আবার চেষ্টা করুন।',
  not_a_pair: '{piece} এই পোশাকের সঙ্গে মানায় না।',
  base_not_ready: 'আপনার ট্রাই-অন এখনও শেষ হয়নি। তৈরি হলে {piece} যোগ করুন।',
  outfit_too_long: 'আপনার লুকে যতগুলি পিস রাখা যায়, ততগুলিই আছে। {piece} যোগ করতে একটি সরান।',
  addLook: 'পুরো লুকটি কার্টে যোগ করুন',
  addingLook: 'লুকটি কার্টে যোগ করা হচ্ছে…',
  addedLook: 'লুকটি আপনার কার্টে আছে',
  lookAddedNote: 'আপনার লুক আপনার কার্টে আছে: {pieces}।',
  lookFailed: 'আপনার লুক কার্টে যোগ করা যায়নি। অনুগ্রহ করে আবার চেষ্টা করুন।',
} satisfies OutfitTexts;
