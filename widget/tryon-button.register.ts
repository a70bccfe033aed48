// What the script-tag build's entry imports once the page has loaded: the element, registered.
// Nothing is exported, so the core chunk needs no module namespace object (nor the bundler's
// runtime chunk to make one: a third request before the button works).
//
// Registering waits for the next task (blocking time). Evaluating Lit and the button is
// one piece of work and upgrading the page's <tryon-button> with its first render is another;
// together, on a slow phone, they can make one long task (over 50 ms), which delays the shopper's
// first tap; apart, each is well under (docs/performance.md, "Blocking time").
import { define } from './tryon-button.define.js';

setTimeout(define, 0);
