// The dialog's one stylesheet, about 380 lines on purpose: its rules lean on each other (the accent and
// its text colour, dark mode, the bottom sheet on small screens, right to left, reduced motion, the
// first look's crossfade), so an override sits beside what it overrides; split by step, each part
// would repeat the same custom properties and media queries.
import { css } from 'lit';

export const panelStyles = css`
  :host {
    --_accent: var(--tryon-accent, #1d4ed8);
    /* --_accent-auto: white or near-black, whichever reads at 4.5:1 on the resolved accent (accent-text.ts). */
    --_accent-text: var(--tryon-accent-text, var(--_accent-auto, #fff));
    --_radius: var(--tryon-radius, 0.5rem);
    --_bg: var(--tryon-background, #fff);
    --_text: var(--tryon-text, #18181b);
    --_muted: var(--tryon-muted, #52525b);
    --_border: var(--tryon-border, #d4d4d8);
    --_surface: var(--tryon-surface, #f4f4f5);
    --_danger: var(--tryon-danger, #b91c1c);
    --_focus: var(--tryon-focus, var(--_accent));
    display: contents;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--tryon-background, #18181b);
      --_text: var(--tryon-text, #f4f4f5);
      --_muted: var(--tryon-muted, #a1a1aa);
      --_border: var(--tryon-border, #3f3f46);
      --_surface: var(--tryon-surface, #27272a);
      --_danger: var(--tryon-danger, #fca5a5);
      --_accent: var(--tryon-accent, #3b82f6);
      --_accent-text: var(--tryon-accent-text, var(--_accent-auto, #0b1120));
    }
  }
  dialog {
    font-family: var(--tryon-font, inherit);
    color: var(--_text);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0;
    width: min(var(--tryon-dialog-width, 34rem), calc(100vw - 2rem));
    max-height: calc(100dvh - 2rem);
    box-sizing: border-box;
    overflow: auto;
    /* Native controls take the accent; and accent-text.ts reads the resolved accent from here. */
    accent-color: var(--_accent);
    /* A shop page's hyphens: auto must not break the dialog's words ("try-/on"). */
    hyphens: manual;
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.55);
  }
  /*
   * A bottom sheet on small screens: as tall as its step, the page still showing above it,
   * touch-sized targets. The class follows the window (small-screen.ts), and sizes are in percent
   * of the viewport the modal dialog is laid out in, not vw/dvh: WebKit keeps a shadow root's
   * media rules and viewport units at the size they were first resolved at, so a resized window
   * kept the old shape there.
   */
  dialog.sheet {
    width: 100%;
    max-width: 100%;
    max-height: calc(100% - 1.5rem);
    margin: auto 0 0;
    border: 0;
    border-block-start: 1px solid var(--_border);
    border-radius: 0;
    border-start-start-radius: calc(var(--_radius) * 2);
    border-start-end-radius: calc(var(--_radius) * 2);
    padding-block-end: env(safe-area-inset-bottom, 0);
  }
  dialog.sheet button {
    min-block-size: 2.75rem;
  }
  /* Not a <header>: that would be a second banner landmark on the shop's page. */
  .header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 1rem;
    padding-block: 0.25rem;
    padding-inline: 1rem 0.25rem;
    border-block-end: 1px solid var(--_border);
  }
  h2 {
    font-size: 1.1rem;
    margin: 0;
  }
  h3 {
    font-size: 1.05rem;
    margin: 0 0 0.5rem;
  }
  h3:focus {
    outline: none;
  }
  .body {
    padding: 1rem;
    display: grid;
    gap: 0.75rem;
  }
  p {
    margin: 0;
    line-height: 1.5;
  }
  ul {
    margin: 0;
    padding-inline-start: 1.25rem;
    line-height: 1.5;
  }
  a {
    color: inherit;
  }
  button {
    font: inherit;
    cursor: pointer;
    border-radius: var(--_radius);
    padding: 0.55em 1em;
    border: 1px solid var(--_border);
    background: transparent;
    color: inherit;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
    font-weight: 600;
  }
  button[disabled] {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button:focus-visible, [tabindex]:focus-visible, a:focus-visible, input:focus-visible, video:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  /* 44 × 44 px: a target a thumb can hit. */
  button.close {
    border: 0;
    font-size: 1.4rem;
    line-height: 1;
    padding: 0;
    min-inline-size: 2.75rem;
    min-block-size: 2.75rem;
  }
  /* A hyphenated word ("try-on") is not broken at its hyphen. */
  .whole {
    white-space: nowrap;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .check {
    display: flex;
    gap: 0.5rem;
    align-items: flex-start;
    line-height: 1.4;
  }
  .check input {
    margin-block-start: 0.2rem;
    inline-size: 1.1rem;
    block-size: 1.1rem;
    accent-color: var(--_accent);
  }
  .muted {
    color: var(--_muted);
  }
  .dropzone {
    border: 2px dashed var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    min-block-size: 8rem;
    display: grid;
    place-items: center;
    padding: 0.75rem;
    text-align: center;
  }
  .dropzone.over {
    border-color: var(--_accent);
  }
  /* The thumbnail's box: the photo check draws where it looked over it (photo-check.ts). */
  .thumb {
    position: relative;
    display: grid;
  }
  .dropzone img {
    max-inline-size: 100%;
    max-block-size: 16rem;
    border-radius: calc(var(--_radius) / 2);
  }
  .problem, .error {
    color: var(--_danger);
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .status:empty {
    display: none;
  }
  progress {
    inline-size: 100%;
    accent-color: var(--_accent);
  }
  .spinner {
    inline-size: 2rem;
    block-size: 2rem;
    border-radius: 50%;
    border: 3px solid var(--_border);
    border-block-start-color: var(--_accent);
    animation: spin 0.9s linear infinite;
    justify-self: center;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  [role='tablist'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
  }
  [role='tab'][aria-selected='true'] {
    border-color: var(--_accent);
    box-shadow: inset 0 -3px 0 var(--_accent);
    font-weight: 600;
  }
  .frame {
    background: var(--_surface);
    border-radius: var(--_radius);
    min-block-size: 10rem;
    display: grid;
    place-items: center;
    overflow: hidden;
  }
  /*
   * The result's image and video leave room for the rest of the step (title, tabs, actions, the
   * live region), so a whole result fits a 1366×768 laptop without scrolling; a taller step (a
   * video below the image, a phone) scrolls inside the dialog.
   */
  [part='result'] {
    --_media-room: 24rem;
  }
  [role='tabpanel'] {
    --_media-room: 27.5rem;
    display: grid;
    gap: 0.5rem;
  }
  /* The check's line under the picture (its swatch 3 rem high) takes its room from the picture's. */
  [part='result']:has(> .fidelity) {
    --_media-room: 27.5rem;
  }
  [part='result']:has(> .fidelity) [role='tabpanel'] {
    --_media-room: 31rem;
  }
  .frame > img, video, .compare img, .pictures > img {
    display: block;
    inline-size: 100%;
    max-block-size: min(60vh, max(15rem, calc(100dvh - var(--_media-room))));
    object-fit: contain;
  }
  /* The try-on and the shopper's photo in one cell: the one not shown keeps its room, unseen. */
  .pictures {
    display: grid;
    inline-size: 100%;
  }
  .pictures > img {
    grid-area: 1 / 1;
  }
  .pictures > .off {
    visibility: hidden;
  }
  .before-after {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  button[aria-pressed='true'] {
    border-color: var(--_accent);
    box-shadow: inset 0 -3px 0 var(--_accent);
    font-weight: 600;
  }
  /* Room beside the image for half the handle (44 px, a thumb's target), so it is whole at either end. */
  .compare {
    position: relative;
    inline-size: 100%;
    box-sizing: border-box;
    padding-inline: 1.375rem;
    touch-action: none;
    user-select: none;
    --pos: 50%;
  }
  /* compare.ts sets --box-start, --box-size and --box-end: the result's drawn box (object-fit: contain). */
  .compare .before {
    position: absolute;
    inset-block: 0;
    inset-inline-start: var(--box-start, 1.375rem);
    inline-size: var(--box-size, calc(100% - 2.75rem));
    block-size: 100%;
    background: var(--_surface);
    clip-path: inset(0 calc(100% - var(--pos)) 0 0);
  }
  .compare-label {
    position: absolute;
    inset-block-start: 0.5rem;
    padding: 0.1rem 0.5rem;
    border-radius: calc(var(--_radius) / 2);
    background: rgb(0 0 0 / 0.72);
    color: #fff;
    font-size: 0.85rem;
    pointer-events: none;
  }
  .compare-label[data-side='before'] {
    inset-inline-start: calc(var(--box-start, 1.375rem) + 0.5rem);
  }
  .compare-label[data-side='after'] {
    inset-inline-end: calc(var(--box-end, 1.375rem) + 0.5rem);
  }
  /* The dialog's own direction (its dictionary's), not the page's: an Arabic panel on an English page. */
  .compare:dir(rtl) .before {
    clip-path: inset(0 0 0 calc(100% - var(--pos)));
  }
  .compare [role='slider'] {
    position: absolute;
    inset-block: 0;
    inset-inline-start: calc(var(--handle, 50%) - 1.375rem);
    inline-size: 2.75rem;
    min-block-size: 2.75rem;
    cursor: ew-resize;
    display: grid;
    place-items: center;
    transition: inset-inline-start 0.1s;
  }
  .compare [role='slider']::before {
    content: '';
    position: absolute;
    inset-block: 0;
    inline-size: 3px;
    background: var(--_accent-text);
    box-shadow: 0 0 0 1px var(--_accent);
  }
  .compare [role='slider']::after {
    content: '↔';
    position: relative;
    display: grid;
    place-items: center;
    inline-size: 2rem;
    block-size: 2rem;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--_accent-text);
  }
  /* The first look, marked above it; the replaced one fades out over the full render's drawn box. */
  .first-look {
    display: grid;
    gap: 0.5rem;
    align-content: start;
  }
  .first-look-badge {
    justify-self: start;
    margin: 0;
    padding: 0 0.6rem;
    border: 1px solid var(--_border);
    border-radius: 1rem;
    font-weight: 600;
  }
  .frame {
    position: relative;
  }
  .frame .fade-out {
    position: absolute;
    inset-block: 0;
    inset-inline: var(--box-start, 0) var(--box-end, 0);
    inline-size: auto;
    block-size: 100%;
    pointer-events: none;
    animation: fade-out 0.4s forwards;
  }
  @keyframes fade-out {
    to {
      opacity: 0;
      visibility: hidden;
    }
  }
  /*
   * "See all colours": the chosen colour large, leaving room for the row of thumbnails under it;
   * the row wraps to the dialog's width, in its direction. Each thumbnail is a button at least
   * 44 px each way, its colour's name under its draft.
   */
  [part='colours'] {
    --_media-room: 27rem;
  }
  .colour-name {
    font-weight: 600;
    text-align: center;
  }
  .colours {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .colours button {
    display: grid;
    justify-items: center;
    align-content: start;
    gap: 0.25rem;
    inline-size: 5.5rem;
    min-block-size: 2.75rem;
    padding: 0.25rem;
    font-size: 0.9rem;
    line-height: 1.3;
  }
  .colours img, .thumb-wait {
    display: grid;
    place-items: center;
    inline-size: 100%;
    block-size: 5.5rem;
    object-fit: contain;
    background: var(--_surface);
    border-radius: calc(var(--_radius) / 2);
    font-size: 0.8rem;
  }
  .alternatives {
    padding-block-start: 0;
  }
  /*
   * What the proxy's check says of the result's colours, in the text colour (full contrast); beside
   * a difference, the product's own garment image, large enough to see its colour on a phone.
   */
  .fidelity {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    margin: 0;
    font-weight: 600;
  }
  .fidelity img {
    flex: none;
    inline-size: 3rem;
    block-size: 3rem;
    object-fit: cover;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
  }
  @media (prefers-reduced-motion: reduce) {
    .frame .fade-out {
      display: none;
    }
    .spinner {
      animation: none;
    }
    .compare [role='slider'], button {
      transition: none;
    }
  }
`;
