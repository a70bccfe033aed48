// English, the default: the fallback for any text another dictionary lacks, and the list of keys.
// Every string can be overridden through the element's `strings` property. `{name}` marks a value
// filled in at run time. Its code, name, direction and the button's label come from
// language/language.ts, the part of English that ships in the first script.
import { english } from './language/language.js';
import type { LanguageInfo } from './language/language.js';

export const en = {
  ...english,
  dialogTitle: 'Virtual try-on',
  close: 'Close',
  loading: 'Loading…',

  consentTitle: 'Your photo, your choice',
  consentBody:
    'To show you wearing {product}, we send your photo to our try-on service. It is used only to make this try-on.',
  consentPrivacy: 'How we handle your photo',
  consentCheckbox: 'I agree to upload my photo for this try-on',
  retention:
    'We keep your photo for {photoTime} and your try-on for {resultTime}. You can delete both sooner with “{forget}”.',
  continue: 'Continue',

  photoTitle: 'Choose a photo of yourself',
  tipsTitle: 'For the best result:',
  tipOnePerson: 'one person in the photo',
  tipFacing: 'facing the camera',
  tipLight: 'good, even light',
  // tipBody until the product is known; then the one it needs (photo/rules.ts, bodyNeeded).
  tipBody: 'full body or upper body',
  tipWholeBody: 'your whole body, head to feet',
  tipUpperBody: 'your upper body is enough',
  choosePhoto: 'Choose a photo',
  takePhoto: 'Take a photo',
  useLastPhoto: 'Use my last photo',
  yourPhoto: 'Your photo',
  dropHint: 'or drop a photo here',
  preparing: 'Preparing your photo…',
  previewAlt: 'Your photo, ready to send',
  submit: 'Try it on',

  progressTitle: 'Putting {product} on you',
  uploading: 'Uploading your photo: {percent}',
  sending: 'Sending your try-on…',
  queued: 'Waiting for a free moment…',
  rendering: 'Making your try-on…',
  timing: '{elapsed} so far; usually about {expected}',
  cancel: 'Cancel',

  ready: 'Your try-on is ready.',
  viewReady: '{view} view is ready.',
  resultAlt: 'You wearing {product}',
  views: 'Views',
  viewPending: 'This view is still being made…',
  view_front: 'Front',
  view_three_quarter_left: 'Three-quarter',
  view_three_quarter_right: 'Three-quarter',
  view_side: 'Side',
  view_back: 'Back',
  compare: 'Before and after',
  download: 'Download',
  share: 'Share',
  anotherPhoto: 'Try another photo',
  forgetPhoto: 'Forget my photo',
  forgotten: 'Your photo has been forgotten. It and your try-ons can no longer be opened.',
  forgetFailed:
    'Your photo was cleared from this browser, but the try-on service could not be reached to forget it. Please try again.',
  makeVideo: 'Make a video',
  videoLabel: 'Video of you wearing {product}',
  videoReady: 'Your video is ready.',
  tryColour: 'Try this colour',
  tryColourNamed: 'Try this colour: {variant}',
  colourChanged: 'You chose another colour. “{action}” shows it on you with the same photo.',

  errorTitle: 'That did not work',
  tryAgain: 'Try again',
  chooseAnother: 'Choose another photo',

  photoNotImage: 'This file is not a photo. Please choose a JPEG, PNG, WebP or HEIC image.',
  photoTooSmall:
    'This photo is too small ({width} × {height} px). Please choose one at least {minSide} pixels on its shorter side.',
  photoTooLarge: 'This file is {size} MB. Please choose a photo under {maxSize} MB.',
  photoUnreadable: 'This photo could not be opened. Please choose another one.',

  error_rate_limited: 'Too many try-ons in a short time. Please wait a minute, then try again.',
  error_photo_limit_reached: 'This photo has been used for as many try-ons as allowed. Please choose another photo.',
  error_daily_budget_reached: 'Try-on has reached its limit for today. Please come back tomorrow.',
  error_file_too_large: 'This photo is too large to upload. Please choose a smaller one.',
  error_unsupported_media_type: 'This file is not a photo we can use. Please choose a JPEG, PNG, WebP or HEIC image.',
  error_photo_too_small: 'This photo is too small. Please choose one at least {minSide} pixels on its shorter side.',
  error_upstream_unavailable: 'The try-on service is busy right now. Please try again in a moment.',
  error_upstream_timeout: 'The try-on service is busy right now. Please try again in a moment.',
  error_out_of_credits: 'The try-on service is busy right now. Please try again later.',
  error_upstream_auth: 'The try-on service is busy right now. Please try again later.',
  error_render_failed: 'We could not make this try-on. A clear photo of one person facing the camera works best.',
  error_offline: 'You seem to be offline. Check your connection, then try again.',
  error_unknown_product: 'Try-on is not available for this product.',
  error_unknown_variant: 'Try-on is not available for this colour. Please choose another one.',
  error_expired_handle: 'This try-on has expired. Please start again with your photo.',
  error_invalid_handle: 'This try-on could not be found. Please start again with your photo.',
  error_view_not_offered: 'One of the chosen views is not offered for this product.',
  error_video_not_offered: 'A video is not offered for this product.',
  error_generic: 'Something went wrong. Please try again.',
  notAnswering:
    'The shop’s try-on service is not answering. We keep trying, and your try-on carries on by itself when it is back.',
  error_not_answering: 'The shop’s try-on service is not answering. Please try again in a moment.',
  error_tryon_lost: 'Your try-on was lost: the shop’s try-on service no longer knows it. Start again with your photo.',
  error_daily_limit_reached: 'You have made all of today’s try-ons. Please come back tomorrow.',
  error_invalid_request: 'The try-on request could not be read. Please reload the page and try again.',
  error_consent_required: 'Please agree to the photo upload first, then try again.',
  error_not_found: 'Your photo or try-on is no longer here. Please try again.',
  error_photo_has_metadata:
    'This photo still carries hidden details, such as where it was taken. Please choose another photo.',
  error_upload_timeout: 'Your photo took too long to upload. Please check your connection and try again.',
  error_too_many_streams: 'Too many try-ons are open at once. Please close one in another tab, then try again.',
  error_unauthorized: 'Try-on is not set up correctly for this shop. Please let the shop know.',
  error_image_failed:
    'The try-on picture did not load. Please try again; if it still does not show, let the shop know.',
  startAgain: 'Start again with your photo',
  // An upstream that lost a try-on, or stopped answering while making it, and a photo it no longer has.
  error_upstream_lost:
    'The shop’s try-on service lost your try-on before it was finished. Please try again: your photo is kept.',
  error_tryon_unfinished:
    'The shop’s try-on service stopped answering while making your try-on. Please try again: your photo is kept.',
  error_photo_expired: 'The shop’s try-on service no longer has your photo. Start again with your photo.',
  readyBadge: 'Ready',
  readyInBackground: 'Your try-on of {product} is ready. Press the try-on button to see it.',

  // Share: the sentence shared with the product page, and what the live region says was shared.
  shareText: 'I tried on {product}.',
  sharedPicture: 'Shared your try-on picture with a link to {product}.',
  sharedLink: 'Shared a link to {product}.',
  shareCopied: 'Copied a link to {product}.',
  shareFailed: 'Could not share. The link to {product}: {url}',

  compareBefore: 'Before',
  compareAfter: 'After',

  // Add to cart, on the result (the `add-to-cart` attribute): its label by state, what the live region says, the failure.
  addToCart: 'Add to cart',
  addingToCart: 'Adding to cart…',
  addedToCart: 'Added to cart',
  addedToCartNote: '{product} is in your cart.',
  addToCartFailed: 'Could not add {product} to your cart. Please try again.',
  previewBadge: 'Quick preview',
  previewImageAlt: 'A quick preview of you wearing {product}',
  previewReady: 'Your quick preview is ready. Full quality is still being made.',
  previewFullFailed:
    'The full-quality try-on failed. Your quick preview is still here, and you can try full quality again.',
  seeAllColours: 'See all colours',
  coloursTitle: 'All colours of {product}',
  colourUnavailable: 'No preview of this colour.',
  makeFullQuality: 'Make this one in full quality',
  coloursDone: 'Colour previews ready: {ready} of {count}.',
  backToResult: 'Back to your try-on',

  // "See it on a model" and the desktop → phone hand-off.
  seeOnModel: 'No photo? See it on a model',
  alternativesNotLoaded: 'This could not be loaded. Please check your connection and try again.',
  modelsTitle: 'See {product} on a model',
  ownPhotoInstead: 'Use my own photo instead',
  usePhone: 'Use your phone',
  handoffTitle: 'Continue on your phone',
  handoffScan: 'Scan this code with your phone’s camera, or open this page on your phone and type the code.',
  handoffQrAlt: 'QR code that opens this page on your phone',
  handoffCodeLabel: 'Code:',
  handoffWaiting: 'Waiting for your photo. The code works for {time} more.',
  handoffExpired: 'The code has expired.',
  handoffNewCode: 'Get a new code',
  handoffReceived: 'Your photo has arrived from your phone.',
  back: 'Back',
  handoffPhoneTitle: 'Send a photo to the computer that showed the code',
  sendToComputer: 'Send to my computer',
  handoffNotSent: 'Not sent',
  error_unknown_model: 'This model is not available for this product. Please choose another.',
  error_handoff_used: 'This code has already been used. Ask for a new one on your computer.',
  error_handoff_expired: 'This code has expired. Ask for a new one on your computer.',
  error_handoff_unknown: 'This code is not known. Check it, or ask for a new one on your computer.',
  handoffTypeNumber: 'Type this number on your computer',
  handoffNumberNote: 'Then the photo goes to the computer that showed the code. Not yours? Close this page.',
  handoffConfirming: 'Type the number your phone shows within {time}.',
  handoffNumberLabel: 'Number shown on your phone',
  handoffConfirm: 'Confirm',
  handoffWrongNumber: 'Tries left: {count}.',
  error_handoff_waiting: 'No photo from your phone yet.',
  error_handoff_confirmed: 'Already confirmed.',
  error_handoff_wrong_number: 'Wrong number.',
  error_handoff_tries_used: 'Too many wrong numbers: this hand-off has ended.',

  longerThanUsual: 'This is taking longer than usual. Your try-on is still being made.',
  keepWaiting: 'Keep waiting',
  // The result step: its heading (the live region alone says it is ready), the photo toggle, Download's word once saved.
  resultTitle: '{product} on you',
  showPhoto: 'Show my photo',
  downloaded: 'Saved as {file}',
  // The proxy's check of the result against the product: the label beside it, the garment image's name,
  // and the note while a view is made again.
  fidelityChecked: 'Colours checked against the product',
  fidelityDiffers: 'Colours may differ from the product photo',
  fidelitySwatch: 'Product photo of {product}',
  fidelityRedoing: 'Making the colours again to match the product photo…',
};

/** Every text of the widget, by key. */
export type Strings = { [K in Exclude<keyof typeof en, keyof LanguageInfo>]: string };

/** One language's dictionary: what it says about itself, and any texts (missing ones fall back to English). */
export type Translation = LanguageInfo & Partial<Strings>;

export default en satisfies Translation;
