// What "See it on a model" and the hand-off show, in a chunk of their own: loaded when the shopper
// presses one of the two buttons (or a phone opens a hand-off link), so opening the dialog costs
// no more than before (the panel's budget, scripts/build.ts). The QR code library is a further
// chunk still, loaded only for "Use your phone" (handoff.ts).
export { modelsStep } from './models-step.js';
export { desktopHandoffStep, phoneSentStep } from './handoff-step.js';
export { phoneAddress, qrCode, spacedCode, timeLeft } from './handoff.js';
export { sendFromPhone, spacedNumber, startDesk } from './handoff-flow.js';
export { alternativesStyles } from './alternatives.styles.js';
