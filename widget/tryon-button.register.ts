// What the script-tag build's entry imports once the page has loaded: the element, registered.
// Nothing is exported, so the core chunk needs no module namespace object (nor the bundler's
// runtime chunk to make one: a third request before the button works).
import './tryon-button.js';
