/**
 * Runs `start` once, in a task of its own, when the browser reports the page's first contentful
 * paint: the paint timing entry arrives after the frame has reached the screen, which on a slow
 * device is well after the task that painted it. Scripts fetched from here therefore compete
 * neither with the document nor with the first paint, even where the frame is shown late. A page
 * already painted reports it at once. In a tab opened in the background nothing is painted, so
 * nothing starts until it is shown.
 */
export function afterFirstPaint(start: () => void): void {
  new PerformanceObserver((paints, observer) => {
    // The first paint may be the background alone, before any text: Chromium reports it on its
    // own when the frame is drawn mid-parse.
    if (paints.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    // The browser tells every island's observer in one task; starting each in a task of its own
    // keeps a page with several islands from blocking input for all of them at once.
    setTimeout(start);
  }).observe({ type: 'paint', buffered: true });
}
