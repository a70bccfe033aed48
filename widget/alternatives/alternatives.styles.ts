// The styles of "See it on a model" and of the hand-off, in their chunk (alternatives.ts): the
// dialog adopts them when the chunk arrives (phone-handoff.ts), so a dialog that never shows those
// screens does not carry them.
import { css } from 'lit';

export const alternativesStyles = css`
  /* "See it on a model": a grid of buttons, each a picture and a name, at least 44 px in each direction. */
  .models {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(7.5rem, 1fr));
    gap: 0.75rem;
  }
  .model {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.4em;
    inline-size: 100%;
    min-block-size: 44px;
    padding: 0.5em;
  }
  .model img {
    inline-size: 100%;
    aspect-ratio: 3 / 4;
    object-fit: cover;
    border-radius: var(--_radius);
  }
  /* The hand-off: the QR code on white (a camera reads dark on light), the code large enough to type from. */
  .handoff-code {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 1rem;
  }
  .qr {
    background: #fff;
    inline-size: 200px;
    block-size: 200px;
  }
  .code {
    font-size: 1.5em;
    letter-spacing: 0.12em;
    font-variant-numeric: tabular-nums;
  }
  /* The number the phone shows, large enough to read across a desk; the field it is typed into. */
  .handoff-number strong {
    display: block;
    font-size: 2.5em;
    letter-spacing: 0.12em;
    font-variant-numeric: tabular-nums;
    text-align: center;
  }
  .handoff-confirm {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
  }
  .handoff-confirm label {
    flex-basis: 100%;
  }
  .handoff-confirm input {
    font: inherit;
    font-size: 1.5em;
    letter-spacing: 0.12em;
    font-variant-numeric: tabular-nums;
    inline-size: 8ch;
    min-block-size: 44px;
    padding: 0.2em 0.4em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: transparent;
    color: inherit;
  }
  .handoff-confirm button {
    min-block-size: 44px;
  }
  .handoff-confirm .problem {
    flex-basis: 100%;
    margin: 0;
  }
`;
