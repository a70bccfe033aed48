import { css } from 'lit';

// Only the button: the panel brings its own styles when it loads.
export const buttonStyles = css`
  :host {
    display: inline-block;
    font-family: var(--tryon-font, inherit);
  }
  :host([hidden]) {
    display: none;
  }
  /* Until the first answer on whether the product can be tried on (at most 3 s): there, not shown. */
  :host([checking]) [part='button'] {
    opacity: 0;
  }
  [part='button'][aria-disabled='true'] {
    cursor: not-allowed;
    filter: grayscale(1);
  }
  [part='unavailable-reason'],
  [part='not-opened'] {
    display: block;
    margin-block-start: 0.35em;
    font-size: 0.9em;
    color: inherit;
  }
  button {
    font: inherit;
    cursor: pointer;
    border: 0;
    border-radius: var(--tryon-radius, 0.5rem);
    padding: var(--tryon-button-padding, 0.7em 1.3em);
    background: var(--tryon-accent, #1d4ed8);
    color: var(--tryon-accent-text, #fff);
    font-weight: 600;
    line-height: 1.2;
    /* 44 px: a touch target a thumb can hit on a phone. */
    min-block-size: 2.75rem;
    transition: filter 0.15s;
  }
  button:hover {
    filter: brightness(1.1);
  }
  button:focus-visible {
    outline: 3px solid var(--tryon-focus, var(--tryon-accent, #1d4ed8));
    outline-offset: 2px;
  }
  /* The ready badge sits on the button's corner, so showing it moves nothing on the shop's page.
     Dark green on white: 9.1:1 on any accent the shop chose. */
  :host {
    position: relative;
  }
  [part='ready-badge'] {
    position: absolute;
    inset-block-start: -0.7em;
    inset-inline-end: -0.7em;
    padding: 0.15em 0.55em;
    border-radius: 1em;
    border: 2px solid #14532d;
    background: #fff;
    color: #14532d;
    font-size: 0.8em;
    font-weight: 700;
    line-height: 1.2;
    white-space: nowrap;
  }
  .ready-note {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    button {
      transition: none;
    }
  }
`;
