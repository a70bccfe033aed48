// What the script-tag build's entry imports once the page has loaded: the element, registered.
// Nothing is exported, so the core chunk needs no module namespace object (nor the bundler's
// runtime chunk to make one: a third request before the button works).
//
// Registering waits for the next task (blocking time). Evaluating Lit and the button is
// one piece of work and upgrading the page's <tryon-button> with its first render is another;
// together they were one task of 12 ms on this machine, which Lighthouse's 4× slower phone counts
// as 56-67 ms, over the 50 ms that makes a task long. Apart, each is well under.
import { define } from './tryon-button.define.js';

setTimeout(define, 0);
