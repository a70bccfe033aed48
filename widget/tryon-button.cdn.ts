// The script-tag (CDN) build's entry: the few bytes a product page runs while it loads. The
// element itself (Lit and the button: the core chunk) is imported once the page has loaded and
// painted what it loaded, so nothing of the widget competes with the shop's own content for the
// network or the main thread before the page's largest paint (the entry importing the core at once
// cost the largest paint). On a fast connection `load` can come before the first
// paint, so the import waits two frames more. A page whose load event is held up (a hung
// third-party request) still gets the button after at most LOAD_WAIT_MS.
const LOAD_WAIT_MS = 5000;

let started = false;
function start(): void {
  if (started) return;
  started = true;
  void import('./tryon-button.register.js');
}

/** After the next two frames have been painted (a frame's rAF runs before its paint). */
function afterPaint(): void {
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 0)));
}

if (document.readyState === 'complete') afterPaint();
else {
  addEventListener('load', afterPaint, { once: true });
  setTimeout(start, LOAD_WAIT_MS);
}
