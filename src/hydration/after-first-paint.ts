/**
 * Runs `start` once the page has painted: the frame callback runs just before the first paint,
 * and the task it queues runs after it. Scripts fetched from here compete neither with the
 * document nor with the first paint (docs/DECISIONS.md, "Islands hydrate after the first paint").
 * In a tab opened in the background nothing is painted, so nothing starts until it is shown.
 */
export function afterFirstPaint(start: () => void): void {
  requestAnimationFrame(() => setTimeout(start));
}
