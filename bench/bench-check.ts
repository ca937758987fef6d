/** One figure held to its budget, and how a miss reads. */
export interface BenchCheck {
  readonly figure: string;
  readonly value: number;
  readonly budget: number;
  readonly ok: boolean;
  /** The miss in words, e.g. `LCP 817 ms > 800 ms`. */
  readonly shown: string;
}
