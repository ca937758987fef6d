/**
 * HTML of components rendered without hydrating, remembered by everything it was made from: the
 * component, its props, its slots' HTML and its ids' prefix. The kit's components shown as they are
 * (headings, chips, icons, badges) are pure functions of those, and each render through React cost
 * far more in setting up the render than the component's own code: a Dashboard had some forty.
 * Only plain data makes a key (strings, numbers, booleans, null, arrays and plain objects of them):
 * a component given anything else (an element, a function) is rendered every time.
 */
export class RememberedRenders {
  readonly #maxEntries: number;
  readonly #maxKeyLength: number;
  /** In order of use: the first is the one used longest ago. */
  readonly #html = new Map<string, string>();
  readonly #componentIds = new WeakMap<object, number>();
  #nextComponentId = 0;

  constructor({ maxEntries, maxKeyLength }: { maxEntries: number; maxKeyLength: number }) {
    this.#maxEntries = maxEntries;
    this.#maxKeyLength = maxKeyLength;
  }

  /**
   * The key of one render, or `undefined` when it cannot have one: props or slots that are not
   * plain data, or more of them than is worth remembering.
   */
  key(component: object, props: unknown, slots: unknown, idPrefix: string): string | undefined {
    const made = plainData(props);
    const slotData = plainData(slots);
    if (made === undefined || slotData === undefined) return undefined;
    let id = this.#componentIds.get(component);
    if (id === undefined) {
      id = this.#nextComponentId++;
      this.#componentIds.set(component, id);
    }
    const key = `${id}\u0000${idPrefix}\u0000${JSON.stringify([made, slotData])}`;
    return key.length <= this.#maxKeyLength ? key : undefined;
  }

  /** The HTML remembered under `key`, if any; counts as a use. */
  get(key: string): string | undefined {
    const html = this.#html.get(key);
    if (html === undefined) return undefined;
    this.#html.delete(key);
    this.#html.set(key, html);
    return html;
  }

  remember(key: string, html: string): void {
    this.#html.delete(key);
    this.#html.set(key, html);
    if (this.#html.size > this.#maxEntries) {
      const oldest = this.#html.keys().next().value;
      if (oldest !== undefined) this.#html.delete(oldest);
    }
  }

  get size(): number {
    return this.#html.size;
  }
}

/** Tell, in a key, an Astro HTMLString (a String object) from a string, and `undefined` from none. */
const htmlMark = '\u0000html';
const undefinedMark = { '\u0000undefined': true };

/**
 * `value` as JSON-safe plain data, Astro's HTMLStrings marked as such, or `undefined` when any
 * part of it is not plain data.
 */
function plainData(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value === undefined) return undefinedMark;
  if (value instanceof String) return { [htmlMark]: value.toString() };
  if (Array.isArray(value)) {
    const items = value.map(plainData);
    return items.includes(undefined) ? undefined : items;
  }
  if (typeof value !== 'object') return undefined;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const entries: [string, unknown][] = [];
  for (const [name, item] of Object.entries(value)) {
    const plain = plainData(item);
    if (plain === undefined) return undefined;
    entries.push([name, plain]);
  }
  return Object.fromEntries(entries);
}
