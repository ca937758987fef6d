/** A browser as the API names it, on a system when one is known: "Chrome 140 on Linux". */
export function deviceLabel({ browser, system }: { browser: string; system: string | null }) {
  return system ? `${browser} on ${system}` : browser;
}
