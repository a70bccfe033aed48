import { css } from 'lit';

export const panelStyles = css`
  :host {
    --_accent: var(--tryon-accent, #1d4ed8);
    --_accent-text: var(--tryon-accent-text, #fff);
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
      --_accent-text: var(--tryon-accent-text, #0b1120);
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
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.55);
  }
  /*
   * A full-screen sheet on small screens (the class follows the window: small-screen.ts). Sized
   * in percent of the viewport the modal dialog is laid out in, not vw/dvh: WebKit keeps a shadow
   * root's viewport units at the size they were first resolved at, so a resized window kept the
   * old height there.
   */
  dialog.sheet {
    inset: 0;
    width: 100%;
    max-width: 100%;
    height: 100%;
    max-height: 100%;
    margin: 0;
    border: 0;
    border-radius: 0;
  }
  /* Not a <header>: that would be a second banner landmark on the shop's page. */
  .header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 1rem;
    padding: 0.75rem 1rem;
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
  button.close {
    border: 0;
    font-size: 1.4rem;
    line-height: 1;
    padding: 0.25rem 0.6rem;
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
  .frame > img, video {
    display: block;
    inline-size: 100%;
    max-block-size: 60vh;
    object-fit: contain;
  }
  .compare {
    position: relative;
    inline-size: 100%;
    touch-action: none;
    user-select: none;
    --pos: 50%;
  }
  .compare img {
    display: block;
    inline-size: 100%;
    max-block-size: 60vh;
    object-fit: contain;
  }
  .compare .before {
    position: absolute;
    inset: 0;
    block-size: 100%;
    background: var(--_surface);
    clip-path: inset(0 calc(100% - var(--pos)) 0 0);
  }
  /* The dialog's own direction (its dictionary's), not the page's: an Arabic panel on an English page. */
  .compare:dir(rtl) .before {
    clip-path: inset(0 0 0 calc(100% - var(--pos)));
  }
  .compare [role='slider'] {
    position: absolute;
    inset-block: 0;
    inset-inline-start: calc(var(--pos) - 1.25rem);
    inline-size: 2.5rem;
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
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
    .compare [role='slider'], button {
      transition: none;
    }
  }
`;
